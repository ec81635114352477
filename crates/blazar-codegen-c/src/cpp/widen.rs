//! Array indices `blkpos ± c` computed in i64 inside a loop over the block's
//! threads, so that the C++ compiler sees an index affine in the loop counter.
//!
//! Kernel integers wrap (`-fwrapv`), so `(i64)(bz_blkpos0 - d)` is not an affine
//! function of the thread loop's counter for the compiler, and a loop such as the
//! steps of a scan (`v = s[blkpos - d]`) is left scalar. Computed exactly in i64
//! instead, `t ± c` (a component `t` of `blkpos`, from 0 to 1023, and any i32 value
//! `c`) differs from the wrapped i32 value only when the i32 operation overflows:
//! then the exact value is at least 2^31 or below -2^31 + 1024 and the wrapped one is
//! negative or at least 2^31 - 1024, both outside every shared array (at most 2^28
//! elements: the 256 MB limit of one block's allocation) and every global one (a
//! launch with an extent over `MAX_WIDE_EXTENT` runs on the interpreter:
//! `blazar-native`'s launcher), so the access reads zero and writes nothing either
//! way. Only accesses that treat an index outside as zero
//! (`'unchecked` and the default) take this form: a `'checked` error reports the
//! index, and boundary modes remap it.

use super::Gen;
use blazar_kir::{
    visit, ArrayTy, BinOp, Const, Expr, ExprKind, Kernel, ReadMode, Scalar, Space, Special,
    StmtKind, Ty,
};
use std::collections::HashMap;

/// The component of `blkpos` that `e` is (`blkpos` itself at rank 1, `blkpos[c]`).
fn component_of(e: &Expr, rank: usize) -> Option<usize> {
    match &e.kind {
        ExprKind::Special(Special::BlkPos) if rank == 1 => Some(0),
        ExprKind::Lane(v, i) if matches!(v.kind, ExprKind::Special(Special::BlkPos)) => {
            match i.kind {
                ExprKind::Const(Const::Int(c)) if (0..rank as i64).contains(&c) => Some(c as usize),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Variables that hold a component of `blkpos` wherever they are read: assigned once,
/// by a statement of the kernel's top level, from `blkpos[c]`, and read by no statement
/// before that one (`t = blkpos[1]`).
pub(crate) fn blkpos_vars(k: &Kernel) -> HashMap<u32, usize> {
    let rank = k.rank.clamp(1, 4) as usize;
    let mut count: HashMap<u32, usize> = HashMap::new();
    visit::walk_stmts(&k.body, &mut |s| match &s.kind {
        StmtKind::Assign { var, .. }
        | StmtKind::SetLane { var, .. }
        | StmtKind::For { var, .. } => *count.entry(*var).or_default() += 1,
        _ => {}
    });
    let mut out = HashMap::new();
    let mut read_before: Vec<u32> = Vec::new();
    for (i, s) in k.body.iter().enumerate() {
        if let StmtKind::Assign { var, value } = &s.kind {
            if let Some(c) = component_of(value, rank) {
                let once = count.get(var) == Some(&1);
                let is_param = k
                    .params
                    .iter()
                    .any(|p| p.bind == blazar_kir::Bind::Var(*var));
                if once && !is_param && !read_before.contains(var) {
                    out.insert(*var, c);
                }
            }
        }
        visit::walk_stmts(&k.body[i..=i], &mut |x| {
            visit::stmt_exprs(x, &mut |e| {
                visit::walk_expr(e, &mut |y| {
                    if let ExprKind::Var(v) = y.kind {
                        read_before.push(v);
                    }
                })
            })
        });
    }
    out
}

impl Gen<'_> {
    /// The component of `blkpos` that `e` reads, when it is one.
    pub(crate) fn blkpos_component(&self, e: &Expr) -> Option<usize> {
        let rank = self.k.rank.clamp(1, 4) as usize;
        let is_blkpos = |x: &Expr| match &x.kind {
            ExprKind::Special(Special::BlkPos) => true,
            ExprKind::Var(v) => self.aliases.get(v) == Some(&Special::BlkPos),
            _ => false,
        };
        match &e.kind {
            _ if rank == 1 && is_blkpos(e) => Some(0),
            ExprKind::Var(v) if self.blkpos_vars.contains_key(v) => {
                self.blkpos_vars.get(v).copied()
            }
            ExprKind::Lane(v, i) if is_blkpos(v) => match i.kind {
                ExprKind::Const(Const::Int(c)) if (0..rank as i64).contains(&c) => Some(c as usize),
                _ => None,
            },
            _ => None,
        }
    }

    /// The exact i64 form of index `e` of array `t` read under `mode`, inside a thread
    /// loop: the loop's counter for `blkpos[c]`, and for a shared array `blkpos ± c` or
    /// `c + blkpos` in 64 bits.
    pub(crate) fn thread_index(
        &mut self,
        t: ArrayTy,
        mode: ReadMode,
        e: &Expr,
    ) -> Option<ThreadIndex> {
        if !self.thread_counters {
            return None;
        }
        // `blkpos[c]` itself, or a variable holding it: the counter (the same value).
        if let Some(c) = self.blkpos_component(e) {
            return Some(ThreadIndex {
                pre: String::new(),
                exact: format!("bz_b{c}"),
                narrow: format!("((i32)bz_b{c})"),
            });
        }
        if !matches!(t.space, Space::Shared | Space::Global)
            || !matches!(mode, ReadMode::Zero | ReadMode::Unchecked)
            || e.ty != Ty::Scalar(Scalar::I32)
        {
            return None;
        }
        let ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) = &e.kind else {
            return None;
        };
        let i32_operand = |x: &Expr| x.ty == Ty::Scalar(Scalar::I32);
        if !i32_operand(a) || !i32_operand(b) {
            return None;
        }
        let sign = if *op == BinOp::Add { "+" } else { "-" };
        // The i32 operand is evaluated once, into a temporary both forms read.
        let v = self.tmp();
        if let Some(c) = self.blkpos_component(a) {
            let y = self.expr(b);
            return Some(ThreadIndex {
                pre: format!("const i32 {v} = {y}; "),
                exact: format!("(bz_b{c} {sign} (i64){v})"),
                narrow: format!("((i32)bz_b{c} {sign} {v})"),
            });
        }
        let c = self.blkpos_component(b)?;
        let x = self.expr(a);
        Some(ThreadIndex {
            pre: format!("const i32 {v} = {x}; "),
            exact: format!("((i64){v} {sign} bz_b{c})"),
            narrow: format!("({v} {sign} (i32)bz_b{c})"),
        })
    }
}

/// An index computed from a thread loop's counter (`Gen::thread_index`).
///
/// `narrow` is the same index in wrapping i32 arithmetic, the value the kernel itself
/// computes. Its bit pattern, as a `u32`, is below an extent `n` exactly when the
/// exact value `exact` is in `[0, n)`, for every extent up to `MAX_WIDE_EXTENT` (every
/// shared array, and every global one a native launch accepts): the exact value lies
/// in `[-2^31 - 1023, 2^31 + 1023]` (a counter from 0 to 1023 and an i32 operand),
/// so a negative one wraps to at least `2^31 - 1023` as a `u32`, above every such
/// extent, and a non-negative one is its own pattern. The range check then compares
/// 32-bit lanes, twice as many to a vector as the 64-bit index.
pub(crate) struct ThreadIndex {
    /// Statements that bind the operands (before the index's declaration).
    pub pre: String,
    pub exact: String,
    pub narrow: String,
}
