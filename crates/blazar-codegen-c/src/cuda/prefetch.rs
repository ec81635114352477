//! Loads issued ahead in streaming loops: a counted loop of unknown trip count (the
//! grid-stride loop of a fused whole-array reduction, `e = sum(t .* y)`) runs
//! [`BATCH`] iterations at a time, and the loads of all of them come first.
//!
//! Left to itself the compiler issues each iteration's load only after the previous
//! iteration's arithmetic: an accurate `powf` or an IEEE division has branches (special
//! cases, a slow path), and loads are not moved across them. Each thread then has one
//! load in flight, and a kernel of one wave of threads waits for memory once per
//! element. With the loads of four iterations first, four are in flight.
//!
//! A load is issued ahead only when doing so cannot change what the program does: it
//! is executed by every iteration (not under a condition, a `?:` branch or the right
//! side of `&&` / `||`), from a global array the kernel never writes, with a boundary
//! mode that cannot fail (zero extension, folding, unchecked), at an index made of the
//! loop variable and values the loop does not change; a body that stores needs
//! `noalias` (no array written is passed twice). The loop's body has no exits
//! (`break`, `continue`, `return`), asserts, allocations or checked accesses, so every
//! iteration of a batch runs to its end.

use crate::cuda::kernel::Gen;
use crate::names;
use crate::printer::Dialect;
use blazar_kir::visit::walk_stmts;
use blazar_kir::{ArrId, Expr, ExprKind, ReadMode, Space, Stmt, StmtKind, Ty, VarId};

/// Iterations per batch.
pub(crate) const BATCH: usize = 4;

/// The loads of a loop body that can be issued ahead: the distinct `(array, index)`
/// pairs, and for each load node of the body the pair it reads.
pub(crate) struct Ahead<'b> {
    pub distinct: Vec<(ArrId, &'b [Expr])>,
    pub nodes: Vec<(*const Expr, usize)>,
}

/// The loads of `body` (a loop over `var`) that can be issued ahead, or `None` when the
/// body does not allow it or has none.
pub(crate) fn ahead<'b>(gen: &Gen, var: VarId, body: &'b [Stmt]) -> Option<Ahead<'b>> {
    let mut simple = true;
    let mut stores = false;
    walk_stmts(body, &mut |s| {
        stores |= matches!(s.kind, StmtKind::Store { .. } | StmtKind::Update { .. });
        simple &= matches!(
            s.kind,
            StmtKind::Assign { .. }
                | StmtKind::SetLane { .. }
                | StmtKind::Store { .. }
                | StmtKind::Update { .. }
                | StmtKind::Accumulate { .. }
                | StmtKind::If { .. }
        );
    });
    // A store of one iteration may write what a later one loads when two parameters
    // are the same array: with stores, only where the launch says none is
    // (`CodegenOptions::noalias`).
    if !simple || (stores && !gen.opts.noalias) || any_checked(gen, body) {
        return None;
    }
    let mut found = Ahead {
        distinct: Vec::new(),
        nodes: Vec::new(),
    };
    for s in body {
        match &s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => {
                collect(gen, var, body, value, &mut found)
            }
            StmtKind::SetLane { lane, value, .. } => {
                collect(gen, var, body, lane, &mut found);
                collect(gen, var, body, value, &mut found);
            }
            StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
                for i in index {
                    collect(gen, var, body, i, &mut found);
                }
                collect(gen, var, body, value, &mut found);
            }
            StmtKind::If { cond, .. } => collect(gen, var, body, cond, &mut found),
            _ => {}
        }
    }
    (!found.distinct.is_empty()).then_some(found)
}

/// Whether some load of `body` may record an error (`'checked`).
fn any_checked(gen: &Gen, body: &[Stmt]) -> bool {
    let mut checked = false;
    walk_stmts(body, &mut |s| {
        blazar_kir::visit::stmt_exprs(s, &mut |e| {
            blazar_kir::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Load { arr, .. } = &x.kind {
                    checked |= array_ty(gen, *arr).is_none_or(|t| t.read == ReadMode::Checked);
                }
            })
        })
    });
    checked
}

fn array_ty(gen: &Gen, arr: ArrId) -> Option<blazar_kir::ArrayTy> {
    match gen.k.arrays.get(arr as usize).map(|d| d.ty) {
        Some(Ty::Array(t)) => Some(t),
        _ => None,
    }
}

/// Adds the loads of `e` that every evaluation of `e` executes and that qualify.
fn collect<'b>(gen: &Gen, var: VarId, body: &[Stmt], e: &'b Expr, found: &mut Ahead<'b>) {
    match &e.kind {
        ExprKind::Load { arr, index, .. } => {
            if qualifies(gen, var, body, *arr, index) {
                let at = match found
                    .distinct
                    .iter()
                    .position(|(a, i)| a == arr && *i == &index[..])
                {
                    Some(at) => at,
                    None => {
                        found.distinct.push((*arr, index));
                        found.distinct.len() - 1
                    }
                };
                found.nodes.push((e as *const Expr, at));
            }
        }
        // Only the condition of a select runs for sure; `&&` and `||` may skip their
        // right side.
        ExprKind::Select(c, _, _) => collect(gen, var, body, c, found),
        ExprKind::Binary(blazar_kir::BinOp::And | blazar_kir::BinOp::Or, a, _) => {
            collect(gen, var, body, a, found)
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Splat(a) => {
            collect(gen, var, body, a, found)
        }
        ExprKind::VecReduce(_, a) => collect(gen, var, body, a, found),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
            collect(gen, var, body, a, found);
            collect(gen, var, body, b, found);
        }
        ExprKind::Math(_, args) | ExprKind::VecLit(args) => {
            for a in args {
                collect(gen, var, body, a, found);
            }
        }
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => {}
    }
}

/// A load from a global array the kernel never writes, in a mode that cannot fail, at
/// an index of the loop variable and values the loop does not change.
fn qualifies(gen: &Gen, var: VarId, body: &[Stmt], arr: ArrId, index: &[Expr]) -> bool {
    let Some(t) = array_ty(gen, arr) else {
        return false;
    };
    let written = gen
        .k
        .facts()
        .written
        .get(arr as usize)
        .copied()
        .unwrap_or(true);
    if t.space != Space::Global || written || t.read == ReadMode::Checked || index.is_empty() {
        return false;
    }
    let mut ok = true;
    for i in index {
        blazar_kir::visit::walk_expr(i, &mut |x| match &x.kind {
            ExprKind::Load { .. } => ok = false,
            ExprKind::Var(v) if *v != var => ok &= !blazar_kir::props::assigns(body, *v),
            _ => {}
        });
    }
    ok
}

impl Gen<'_> {
    /// Prints the batches of a streaming loop over `var` (C name `v`, type `t`, bounds
    /// in `bz_lo<id>`, `bz_st<id>`, `bz_hi<id>`, trip count in `bz_n<id>`): each runs
    /// [`BATCH`] iterations, their loads first. The loop that follows runs the rest.
    pub(crate) fn print_batches(
        &mut self,
        ahead: &Ahead,
        var: VarId,
        body: &[Stmt],
        id: usize,
        v: &str,
        t: &str,
    ) {
        self.line_out(&format!(
            "for (; bz_n{id} >= {BATCH}; bz_n{id} -= {BATCH}) {{"
        ));
        self.o.depth += 1;
        // The loop variable of each iteration of the batch.
        let iv = |k: usize| {
            if k == 0 {
                v.to_string()
            } else {
                format!("bz_i{id}_{k}")
            }
        };
        for k in 1..BATCH {
            let prev = iv(k - 1);
            self.line_out(&format!(
                "const {t} {} = bz_step({prev}, bz_st{id});",
                iv(k)
            ));
        }
        // Every load of every iteration, before any iteration's arithmetic.
        for k in 0..BATCH {
            self.rename = Some((var, iv(k)));
            for (j, (arr, index)) in ahead.distinct.iter().enumerate() {
                // (Read-ahead loads are never `'checked`: no place to record.)
                let x = self.load(*arr, index, Default::default());
                self.line_out(&format!("const auto bz_h{id}_{k}_{j} = {x};"));
            }
        }
        self.rename = None;
        for k in 0..BATCH {
            if k > 0 {
                let next = iv(k);
                self.line_out(&format!("{v} = {next};"));
            }
            self.ahead = ahead
                .nodes
                .iter()
                .map(|&(p, j)| (p, format!("bz_h{id}_{k}_{j}")))
                .collect();
            self.block(body);
        }
        self.ahead.clear();
        let last = iv(BATCH - 1);
        self.line_out(&format!("{v} = bz_step({last}, bz_st{id});"));
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// The C name a load node was read into ahead of its iteration, if it was.
    pub(crate) fn read_ahead(&self, e: &Expr) -> Option<String> {
        let p = e as *const Expr;
        self.ahead
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, n)| n.clone())
    }

    /// The C name of variable `v`: the batch's own name for the loop variable while
    /// its loads are printed.
    pub(crate) fn var_name(&self, v: VarId) -> String {
        match &self.rename {
            Some((r, name)) if *r == v => name.clone(),
            _ => names::var(self.k, v),
        }
    }
}
