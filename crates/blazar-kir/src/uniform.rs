//! Block uniformity: which values and conditions may differ between the threads of
//! one block, and which barriers sit under control flow that depends on the thread.
//!
//! A value is *varying* when it may differ between the threads of one block: `pos`,
//! `blkpos`, loads at varying indices, and variables assigned a varying value or
//! assigned under a varying condition. `blkdim`, `blkidx`, `blkcnt`, constants and
//! arguments are uniform. A barrier under a varying condition is allowed: it waits for
//! the threads of the block that reach it, and the threads that skip it may only run on
//! to the end of the kernel (the executors report a skipping thread that reaches a
//! barrier again). The native tier runs a barrier under a varying `if` with per-thread
//! masks and leaves kernels with a barrier under a varying loop to the interpreter
//! ([`barrier_in_varying_loop`]). The CUDA generator replaces `__syncthreads()` by a
//! software barrier in the kernels [`divergent_barrier`] finds (and, with outputs, in
//! those with a [`varying_return`]), since CUDA leaves its barrier undefined there.

use crate::{Block, Expr, ExprKind, Kernel, Special, Stmt, StmtKind};

/// Per variable of `k`: whether it may differ between the threads of a block.
pub fn varying_vars(k: &Kernel) -> Vec<bool> {
    let mut varying = vec![false; k.vars.len()];
    // Fixpoint: a variable becomes varying and stays so.
    loop {
        let before = varying.clone();
        mark(&k.body, false, &mut varying);
        if before == varying {
            break;
        }
    }
    varying
}

/// The line of the first barrier under thread-dependent control flow, if any.
pub fn divergent_barrier(k: &Kernel) -> Option<u32> {
    find(&k.body, false, false, &varying_vars(k))
}

/// The line of the first barrier inside a loop whose iterations depend on the thread
/// (a varying condition or bounds, or a `break` under a varying condition), if any.
pub fn barrier_in_varying_loop(k: &Kernel) -> Option<u32> {
    find(&k.body, false, true, &varying_vars(k))
}

/// The line of the first `return` under thread-dependent control flow, if any: a
/// thread that leaves there skips every barrier after it (on its way to the end).
pub fn varying_return(k: &Kernel) -> Option<u32> {
    fn walk(b: &Block, under: bool, varying: &[bool]) -> Option<u32> {
        b.iter().find_map(|s| match &s.kind {
            StmtKind::Return if under => Some(s.line),
            StmtKind::If { cond, then, els } => {
                let u = under || is_varying(cond, varying);
                walk(then, u, varying).or_else(|| walk(els, u, varying))
            }
            StmtKind::While { cond, body } => {
                walk(body, under || is_varying(cond, varying), varying)
            }
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => {
                let u = under || [start, step, end].iter().any(|x| is_varying(x, varying));
                walk(body, u, varying)
            }
            _ => None,
        })
    }
    walk(&k.body, false, &varying_vars(k))
}

/// Whether `e` may differ between the threads of a block, given [`varying_vars`].
pub fn is_varying(e: &Expr, varying: &[bool]) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Size { .. } | ExprKind::Numel(_) => false,
        ExprKind::Var(v) => varying.get(*v as usize).copied().unwrap_or(true),
        ExprKind::Special(s) => matches!(s, Special::Pos | Special::BlkPos),
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Splat(a)
        | ExprKind::VecReduce(_, a) => is_varying(a, varying),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
            is_varying(a, varying) || is_varying(b, varying)
        }
        ExprKind::Select(c, a, b) => [c, a, b].iter().any(|x| is_varying(x, varying)),
        ExprKind::Math(_, args) | ExprKind::VecLit(args) => {
            args.iter().any(|x| is_varying(x, varying))
        }
        ExprKind::Load { index, .. } => index.iter().any(|x| is_varying(x, varying)),
    }
}

fn mark(b: &Block, under: bool, varying: &mut Vec<bool>) {
    for s in b {
        mark_stmt(s, under, varying);
    }
}

fn set(varying: &mut [bool], v: u32) {
    if let Some(x) = varying.get_mut(v as usize) {
        *x = true;
    }
}

fn mark_stmt(s: &Stmt, under: bool, varying: &mut Vec<bool>) {
    match &s.kind {
        StmtKind::Assign { var, value } | StmtKind::SetLane { var, value, .. }
            if under || is_varying(value, varying) =>
        {
            set(varying, *var);
        }
        // A function's results are taken to differ between threads.
        StmtKind::Call { outs, .. } => outs.iter().for_each(|v| set(varying, *v)),
        StmtKind::If { cond, then, els } => {
            let u = under || is_varying(cond, varying);
            mark(then, u, varying);
            mark(els, u, varying);
        }
        StmtKind::While { cond, body } => {
            let u = under || is_varying(cond, varying) || has_varying_exit(body, varying);
            mark(body, u, varying);
        }
        StmtKind::For {
            var,
            start,
            step,
            end,
            body,
        } => {
            let u = under
                || [start, step, end].iter().any(|x| is_varying(x, varying))
                || has_varying_exit(body, varying);
            if u {
                set(varying, *var);
            }
            mark(body, u, varying);
        }
        _ => {}
    }
}

/// Whether a loop body leaves the loop (break/return) under a varying condition.
fn has_varying_exit(b: &Block, varying: &[bool]) -> bool {
    fn walk(b: &Block, under: bool, varying: &[bool]) -> bool {
        b.iter().any(|s| match &s.kind {
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return => under,
            StmtKind::If { cond, then, els } => {
                let u = under || is_varying(cond, varying);
                walk(then, u, varying) || walk(els, u, varying)
            }
            _ => false,
        })
    }
    walk(b, false, varying)
}

fn find(b: &Block, under: bool, loops_only: bool, varying: &[bool]) -> Option<u32> {
    for s in b {
        let hit = match &s.kind {
            StmtKind::Barrier if under => Some(s.line),
            StmtKind::If { cond, then, els } => {
                let u = under || (!loops_only && is_varying(cond, varying));
                find(then, u, loops_only, varying).or_else(|| find(els, u, loops_only, varying))
            }
            StmtKind::While { cond, body } => find(
                body,
                under || is_varying(cond, varying) || has_varying_exit(body, varying),
                loops_only,
                varying,
            ),
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => {
                let u = under
                    || [start, step, end].iter().any(|x| is_varying(x, varying))
                    || has_varying_exit(body, varying);
                find(body, u, loops_only, varying)
            }
            _ => None,
        };
        if hit.is_some() {
            return hit;
        }
    }
    None
}

/// The executors' message for a thread that skipped a barrier and then reached the
/// barrier at `line`.
pub fn skipped_barrier_message(line: u32) -> String {
    format!(
        "syncthreads at line {line} is reached by a thread that skipped an earlier barrier \
         of its block (a thread may leave out barriers only on its way to the end of the \
         kernel)"
    )
}
