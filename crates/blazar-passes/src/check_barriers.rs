//! The barrier check: `syncthreads` may only sit under control flow that every thread
//! of a block takes the same way (block-uniform conditions).
//!
//! A value is *varying* when it may differ between the threads of one block: `pos`,
//! `blkpos`, loads at varying indices, and variables assigned a varying value or
//! assigned under a varying condition. `blkdim`, `blkidx`, `blkcnt`, constants and
//! arguments are uniform. A barrier inside an `if` or loop whose condition is varying
//! is rejected with the line of that barrier; what this static rule cannot see (a
//! uniform-looking condition that still splits a block) is caught by the executor.

use blazar_kir::{Block, Expr, ExprKind, Kernel, Special, Stmt, StmtKind};

/// Returns the line of the first barrier under a varying condition, if any.
pub fn check_barriers(k: &Kernel) -> Result<(), (u32, String)> {
    let mut varying = vec![false; k.vars.len()];
    // Fixpoint: a variable becomes varying and stays so.
    loop {
        let before = varying.clone();
        mark(&k.body, false, &mut varying);
        if before == varying {
            break;
        }
    }
    match find(&k.body, false, &varying) {
        Some(line) => Err((line, format!("`syncthreads` at line {line} is inside control flow that depends on the thread (for example on `pos` or `blkpos`); every thread of a block must reach it"))),
        None => Ok(()),
    }
}

fn is_varying(e: &Expr, varying: &[bool]) -> bool {
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
        StmtKind::Assign { var, value } | StmtKind::SetLane { var, value, .. } => {
            if under || is_varying(value, varying) {
                set(varying, *var);
            }
        }
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

fn find(b: &Block, under: bool, varying: &[bool]) -> Option<u32> {
    for s in b {
        let hit = match &s.kind {
            StmtKind::Barrier if under => Some(s.line),
            StmtKind::If { cond, then, els } => {
                let u = under || is_varying(cond, varying);
                find(then, u, varying).or_else(|| find(els, u, varying))
            }
            StmtKind::While { cond, body } => find(
                body,
                under || is_varying(cond, varying) || has_varying_exit(body, varying),
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
                find(body, u, varying)
            }
            _ => None,
        };
        if hit.is_some() {
            return hit;
        }
    }
    None
}
