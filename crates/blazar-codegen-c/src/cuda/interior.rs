//! Blocks away from the edges run a fast copy of the body
//! ([`crate::cuda::CodegenOptions::interior`]).
//!
//! The kernel's range facts (`blazar_kir::affine`) write the indices of many accesses
//! into parameter arrays as affine forms in `pos`, with bounds. Once per block, a guard
//! evaluates whether every such access, at every position the block's threads run,
//! lies inside its array and below 2^31 (where the `i32` index and its exact value
//! agree). Such a block runs the fast copy, where those accesses index without checks
//! or boundary modes (an index in range reads and writes the same element under every
//! mode) and in 64-bit offsets: neighbouring accesses of a stencil then differ by a
//! stride that the compiler adds to one address, where checked accesses each compute,
//! select and widen their own. Other blocks, and accesses without forms, keep the
//! checked copy. The guard is the same for every thread of a block: no warp diverges
//! on it.

use crate::cuda::kernel::Gen;
use crate::names;
use blazar_kir::affine::Aff;
use blazar_kir::{ArrId, BinOp, Bind, Const, Expr, ExprKind, Ty};
use std::collections::BTreeSet;

impl Gen<'_> {
    /// Whether the kernel may get a fast copy: asked for, rank 1 to 3 (positions of a
    /// block are a box), not a chunked run (its rows depend on the grid), and nothing
    /// that a second copy of the body would duplicate or that leaves the block
    /// unevenly (shared arrays, dynamic memory, software barriers).
    fn interior_applies(&self) -> bool {
        let k = self.k;
        self.opts.interior
            && (1..=3).contains(&k.rank)
            && (self.coarsen <= 1 || k.outputs.is_empty())
            && !self.soft_barrier
            && !self.uses_pool
            && self.shared.iter().all(Option::is_none)
    }

    /// The least and greatest `pos[c]` of the block's positions (i64 C expressions).
    /// Along component 0 a coarsened thread runs `coarsen` block rows.
    fn block_pos_bounds(&self, c: usize) -> (String, String) {
        let (b, i) = (self.axis_part(c, 2), self.axis_part(c, 3));
        let per = if c == 0 { self.coarsen.max(1) } else { 1 };
        let lo = format!("((i64)({i}) * {per}ll * (i64)({b}))");
        let hi = format!("({lo} + {per}ll * (i64)({b}) - 1ll)");
        (lo, hi)
    }

    /// The bounds of an index over the block's positions.
    fn block_index_bounds(&self, f: &Aff) -> Option<(String, String)> {
        let (mut lo, mut hi) = (self.interior_form(&f.lo)?, self.interior_form(&f.hi)?);
        for (c, &k) in f.coef.iter().enumerate() {
            if k == 0 {
                continue;
            }
            if c >= self.k.rank as usize {
                return None;
            }
            let (a, b) = self.block_pos_bounds(c);
            let (l, h) = if k > 0 { (a, b) } else { (b, a) };
            lo = format!("{lo} + {k}ll * {l}");
            hi = format!("{hi} + {k}ll * {h}");
        }
        Some((format!("({lo})"), format!("({hi})")))
    }

    /// The condition under which a block runs the fast copy, or `None` when the
    /// kernel gets none (not applicable, no access with range facts, or a bound this
    /// printer cannot evaluate at the top of the kernel).
    pub(crate) fn interior_guard(&self) -> Option<String> {
        if !self.interior_applies() {
            return None;
        }
        let ranges = self.k.ranges();
        // A set of strings: the same text whatever the accesses' addresses.
        let mut conds = BTreeSet::new();
        for (a, forms) in ranges.accesses.values() {
            let shape = self.shape(*a, forms.len());
            for (f, n) in forms.iter().zip(&shape) {
                let (lo, hi) = self.block_index_bounds(f)?;
                conds.insert(format!("{lo} >= 0ll"));
                conds.insert(format!("{hi} < (i64)({n})"));
                conds.insert(format!("{hi} <= 2147483647ll"));
                for c in &f.conds {
                    conds.insert(self.interior_cond(c)?);
                }
            }
        }
        if conds.is_empty() {
            return None;
        }
        Some(
            conds
                .into_iter()
                .map(|c| format!("({c})"))
                .collect::<Vec<_>>()
                .join("\n      && "),
        )
    }

    /// An i64 part of a form (`lo`, `hi`) as C, valid at the top of the kernel: made of
    /// constants, parameters (never assigned) and array extents; `None` otherwise.
    fn interior_form(&self, e: &Expr) -> Option<String> {
        let k = self.k;
        match &e.kind {
            ExprKind::Const(Const::Int(x)) => Some(format!("{x}ll")),
            ExprKind::Cast(a) => match &a.kind {
                ExprKind::Var(v)
                    if k.params
                        .iter()
                        .any(|p| matches!(p.bind, Bind::Var(w) if w == *v)) =>
                {
                    Some(format!("(i64){}", names::var(k, *v)))
                }
                ExprKind::Size { arr, dim } if *dim < 4 => {
                    Some(format!("(i64){}.dims[{dim}]", names::arr(k, *arr)))
                }
                _ => None,
            },
            ExprKind::Binary(op, a, b) => {
                let op = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    _ => return None,
                };
                let (x, y) = (self.interior_form(a)?, self.interior_form(b)?);
                Some(format!("({x} {op} {y})"))
            }
            _ => None,
        }
    }

    /// A condition of a form (`a <= b`: a loop variable that never wraps) as C.
    fn interior_cond(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Binary(BinOp::Le, l, r) => Some(format!(
                "{} <= {}",
                self.interior_form(l)?,
                self.interior_form(r)?
            )),
            _ => None,
        }
    }

    /// In the fast copy, the element `@a[index]` of an access (`key`: the address of
    /// its `Load` expression or `Store` statement) whose range facts the block's guard
    /// has checked: a plain 64-bit row-major offset. `None` elsewhere.
    pub(crate) fn proven_access(&mut self, key: usize, a: ArrId, index: &[Expr]) -> Option<String> {
        if !self.fast {
            return None;
        }
        let k = self.k;
        let forms = k.ranges().forms(key)?;
        if forms.len() != index.len() || index.iter().any(|e| e.ty != Ty::I32) {
            return None;
        }
        let shape = self.shape(a, index.len());
        let mut off = String::new();
        for (e, n) in index.iter().zip(&shape) {
            let x = self.expr(e);
            off = if off.is_empty() {
                format!("(i64)({x})")
            } else {
                format!("({off}) * (i64)({n}) + (i64)({x})")
            };
        }
        Some(format!("{}.data[{off}]", names::arr(k, a)))
    }
}
