//! Properties of KIR fragments that backends decide on: whether a kernel can observe
//! its block shape, whether an expression may be evaluated speculatively, whether a
//! loop body streams, whether a body assigns a variable, whether an extent is never
//! negative. Each is a question about the KIR alone, so every backend asks it here.

use crate::visit::walk_stmts;
use crate::{BinOp, Expr, ExprKind, Kernel, ReadMode, Special, Stmt, StmtKind, Ty, VarId};

/// Whether a kernel's results cannot depend on the block shape: it reads no block
/// special (`blkpos`, `blkdim`, `blkidx`, `blkcnt`) and uses no shared memory or
/// barrier. Such kernels may run under a block shape the backend picks (the kernel's
/// facts hold the answer: `Kernel::facts().block_free`).
pub fn block_free(k: &Kernel) -> bool {
    fn expr(e: &Expr) -> bool {
        let mut ok = true;
        crate::visit::walk_expr(e, &mut |x| {
            if let ExprKind::Special(s) = &x.kind {
                ok &= matches!(s, Special::Pos | Special::WarpSize);
            }
        });
        ok
    }
    let mut ok = true;
    walk_stmts(&k.body, &mut |s| match &s.kind {
        StmtKind::Barrier | StmtKind::AllocShared { .. } => ok = false,
        _ => crate::visit::stmt_exprs(s, &mut |e| ok &= expr(e)),
    });
    ok
}

/// Whether `e` may be evaluated where the program would not evaluate it (the right
/// side of `&&` / `||`): it cannot fault or record an error (reads only through a
/// boundary mode that stays inside the array: not `'checked`, not `'unchecked`), and
/// it is cheap (a few operations, no function calls or divisions), so evaluating it
/// always costs less than the branch that skipping it takes.
pub fn speculable(e: &Expr, k: &Kernel) -> bool {
    fn go(e: &Expr, k: &Kernel, budget: &mut u32) -> bool {
        // Operations count against the budget; leaves, lanes and casts are free.
        if matches!(
            e.kind,
            ExprKind::Binary(..)
                | ExprKind::Unary(..)
                | ExprKind::Select(..)
                | ExprKind::Load { .. }
        ) {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
        }
        match &e.kind {
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Special(_) => true,
            ExprKind::Size { .. } | ExprKind::Numel(_) => true,
            ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Splat(a) => go(a, k, budget),
            ExprKind::Binary(op, a, b) => {
                !matches!(op, BinOp::Div | BinOp::Rem | BinOp::Pow)
                    && go(a, k, budget)
                    && go(b, k, budget)
            }
            ExprKind::Lane(a, b) => go(a, k, budget) && go(b, k, budget),
            ExprKind::Select(a, b, c) => go(a, k, budget) && go(b, k, budget) && go(c, k, budget),
            ExprKind::Load { arr, index, .. } => {
                let safe = match k.arrays.get(*arr as usize).map(|a| a.ty) {
                    Some(Ty::Array(t)) => {
                        !matches!(t.read, ReadMode::Checked | ReadMode::Unchecked)
                    }
                    _ => false,
                };
                safe && index.iter().all(|i| go(i, k, budget))
            }
            ExprKind::Math(..) | ExprKind::VecLit(_) | ExprKind::VecReduce(..) => false,
        }
    }
    go(e, k, &mut 6)
}

/// Whether a loop with this body streams: an innermost loop (no loop inside) without
/// barriers, whose iterations a compiler may unroll freely.
pub fn streaming(body: &[Stmt]) -> bool {
    let mut ok = true;
    walk_stmts(body, &mut |s| {
        ok &= !matches!(
            s.kind,
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::Barrier
        );
    });
    ok
}

/// Whether `body` assigns variable `v` (whole, one lane of a vector, or as a loop
/// variable).
pub fn assigns(body: &[Stmt], v: VarId) -> bool {
    let mut found = false;
    walk_stmts(body, &mut |s| match &s.kind {
        StmtKind::Assign { var, .. }
        | StmtKind::SetLane { var, .. }
        | StmtKind::For { var, .. } => found |= *var == v,
        StmtKind::Call { outs, .. } => found |= outs.contains(&v),
        _ => {}
    });
    found
}

/// Whether `e` (an allocation extent) is never negative: a non-negative constant, a
/// coordinate special, or an array size, possibly converted.
pub fn non_negative(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(crate::Const::Int(v)) => *v >= 0,
        ExprKind::Special(_) | ExprKind::Size { .. } | ExprKind::Numel(_) => true,
        ExprKind::Lane(v, _) => matches!(v.kind, ExprKind::Special(_)),
        ExprKind::Cast(a) => {
            a.ty.elem().is_int() && e.ty.elem().size() >= a.ty.elem().size() && non_negative(a)
        }
        _ => false,
    }
}

/// `e` with every local variable that the kernel assigns exactly once, at the top of
/// its body, replaced by the value assigned (so `R = blkdim[0] + 2; shared(R, 16)` can
/// be sized before a launch), to a depth of 8 substitutions. Parameters and other
/// variables stay.
pub fn inline_locals(e: &Expr, k: &Kernel) -> Expr {
    let mut count = vec![0u32; k.vars.len()];
    crate::alias::count_assigns(&k.body, &mut count);
    let params: Vec<VarId> = k
        .params
        .iter()
        .filter_map(|p| match p.bind {
            crate::Bind::Var(v) => Some(v),
            crate::Bind::Array(_) => None,
        })
        .collect();
    let singles: std::collections::HashMap<VarId, &Expr> = k
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { var, value }
                if count.get(*var as usize) == Some(&1) && !params.contains(var) =>
            {
                Some((*var, value))
            }
            _ => None,
        })
        .collect();
    substitute(e, &singles, 8)
}

fn substitute(e: &Expr, singles: &std::collections::HashMap<VarId, &Expr>, depth: u32) -> Expr {
    if depth == 0 {
        return e.clone();
    }
    let sub = |x: &Expr| Box::new(substitute(x, singles, depth));
    let kind = match &e.kind {
        ExprKind::Var(v) => match singles.get(v) {
            Some(value) => return substitute(value, singles, depth - 1),
            None => return e.clone(),
        },
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a), sub(b)),
        ExprKind::Cast(a) => ExprKind::Cast(sub(a)),
        ExprKind::Splat(a) => ExprKind::Splat(sub(a)),
        ExprKind::Lane(a, b) => ExprKind::Lane(sub(a), sub(b)),
        ExprKind::VecLit(xs) => {
            ExprKind::VecLit(xs.iter().map(|x| substitute(x, singles, depth)).collect())
        }
        _ => return e.clone(),
    };
    Expr { kind, ty: e.ty }
}
