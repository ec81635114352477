//! Facts about a kernel that both the generator and the launcher act on: whether it can
//! observe its block shape, which arrays and variables it writes, which expressions may
//! be evaluated speculatively.

use blazar_kir::{BinOp, Expr, ExprKind, Kernel, ReadMode, Special, Stmt, StmtKind, Ty, VarId};

/// Whether a kernel's results cannot depend on the block shape: it reads no block
/// special (`blkpos`, `blkdim`, `blkidx`, `blkcnt`) and uses no shared memory or
/// barrier. Such kernels may run under a block shape the backend picks.
pub fn block_free(k: &Kernel) -> bool {
    fn expr(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Special(s) => matches!(s, Special::Pos | Special::WarpSize),
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Size { .. } | ExprKind::Numel(_) => {
                true
            }
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::Splat(a)
            | ExprKind::VecReduce(_, a) => expr(a),
            ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => expr(a) && expr(b),
            ExprKind::Select(a, b, c) => expr(a) && expr(b) && expr(c),
            ExprKind::Math(_, xs) | ExprKind::VecLit(xs) => xs.iter().all(expr),
            ExprKind::Load { index, .. } => index.iter().all(expr),
        }
    }
    fn block(b: &[Stmt]) -> bool {
        b.iter().all(|s| match &s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => expr(value),
            StmtKind::SetLane { lane, value, .. } => expr(lane) && expr(value),
            StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
                index.iter().all(expr) && expr(value)
            }
            StmtKind::If { cond, then, els } => expr(cond) && block(then) && block(els),
            StmtKind::While { cond, body } => expr(cond) && block(body),
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => expr(start) && expr(step) && expr(end) && block(body),
            StmtKind::Assert { cond } => expr(cond),
            StmtKind::AllocLocal { dims, .. } => dims.iter().all(expr),
            StmtKind::Barrier | StmtKind::AllocShared { .. } => false,
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return => true,
        })
    }
    block(&k.body)
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
            ExprKind::Load { arr, index } => {
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

/// Calls `f` on every statement of `b`, nested ones included, in order.
pub(crate) fn walk<'a>(b: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for s in b {
        f(s);
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                walk(then, f);
                walk(els, f);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => walk(body, f),
            _ => {}
        }
    }
}

/// Whether a loop with this body streams: an innermost loop (no loop inside) without
/// barriers, whose iterations the compiler may unroll freely.
pub fn streaming(body: &[Stmt]) -> bool {
    let mut ok = true;
    walk(body, &mut |s| {
        ok &= !matches!(
            s.kind,
            StmtKind::For { .. } | StmtKind::While { .. } | StmtKind::Barrier
        );
    });
    ok
}

/// Whether `body` assigns variable `v` (whole, or one lane of a vector).
pub fn assigns(body: &[Stmt], v: VarId) -> bool {
    let mut found = false;
    walk(body, &mut |s| {
        let s = &s.kind;
        if let StmtKind::Assign { var, .. } | StmtKind::SetLane { var, .. } = s {
            found |= *var == v;
        }
        if let StmtKind::For { var, .. } = s {
            found |= *var == v;
        }
    });
    found
}

pub use blazar_kir::visit::{written_arrays, written_params};

/// Whether `e` (an allocation extent) is never negative: a non-negative constant, a
/// coordinate special, or an array size, possibly converted.
pub fn non_negative(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(blazar_kir::Const::Int(v)) => *v >= 0,
        ExprKind::Special(_) | ExprKind::Size { .. } | ExprKind::Numel(_) => true,
        ExprKind::Lane(v, _) => matches!(v.kind, ExprKind::Special(_)),
        ExprKind::Cast(a) => {
            a.ty.elem().is_int() && e.ty.elem().size() >= a.ty.elem().size() && non_negative(a)
        }
        _ => false,
    }
}
