//! Facts about a kernel that both the generator and the launcher act on: whether it can
//! observe its block shape, which arrays it writes, whether it can record an error.

use blazar_kir::{Bind, Expr, ExprKind, Kernel, ReadMode, Special, Stmt, StmtKind, Ty, WriteMode};

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

fn walk<'a>(b: &'a [Stmt], f: &mut dyn FnMut(&'a StmtKind)) {
    for s in b {
        f(&s.kind);
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

/// Per KIR array slot: the kernel stores into it or updates it atomically.
pub fn written_arrays(k: &Kernel) -> Vec<bool> {
    let mut written = vec![false; k.arrays.len()];
    walk(&k.body, &mut |s| {
        if let StmtKind::Store { arr, .. } | StmtKind::Update { arr, .. } = s {
            if let Some(w) = written.get_mut(*arr as usize) {
                *w = true;
            }
        }
    });
    written
}

/// Which parameters name arrays the kernel writes (per KIR parameter; scalars `false`).
pub fn written_params(k: &Kernel) -> Vec<bool> {
    let written = written_arrays(k);
    k.params
        .iter()
        .map(|p| match p.bind {
            Bind::Array(a) => written.get(a as usize).copied().unwrap_or(true),
            Bind::Var(_) => false,
        })
        .collect()
}

/// Whether the kernel can record an error.
pub fn can_fail(k: &Kernel) -> bool {
    let mut fails = k.arrays.iter().any(|a| {
        matches!(&a.ty, Ty::Array(t) if t.read == ReadMode::Checked || t.write == WriteMode::Checked)
    });
    walk(&k.body, &mut |s| {
        if matches!(
            s,
            StmtKind::Assert { .. } | StmtKind::AllocLocal { .. } | StmtKind::AllocShared { .. }
        ) {
            fails = true;
        }
    });
    fails
}
