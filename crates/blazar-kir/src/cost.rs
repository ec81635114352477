//! A rough estimate of the work of one work item, in statements executed: what a
//! backend reads to decide whether a launch is worth a device that is not yet open
//! (`--device auto` runs small launches on the CPU while the GPU is closed).
//!
//! A statement counts 1; a `for` loop with constant bounds counts its body times its
//! iterations; any other loop (a `while`, a `for` with bounds known only when it runs)
//! counts its body [`UNKNOWN_TRIPS`] times. The estimate is deterministic (it depends on
//! the kernel alone), so the same program makes the same choice on every machine.

use crate::ir::{Block, Const, Expr, ExprKind, Kernel, StmtKind};

/// The iterations a loop whose trip count is not a constant is assumed to run.
pub const UNKNOWN_TRIPS: u64 = 32;

/// The statements one work item of `k` executes, estimated (saturating).
pub fn work_per_item(k: &Kernel) -> u64 {
    block(&k.body).max(1)
}

fn block(b: &Block) -> u64 {
    let mut n: u64 = 0;
    for s in b {
        let inner = match &s.kind {
            StmtKind::If { then, els, .. } => block(then).max(block(els)),
            StmtKind::While { body, .. } => block(body).saturating_mul(UNKNOWN_TRIPS),
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => block(body).saturating_mul(trips(start, step, end).unwrap_or(UNKNOWN_TRIPS)),
            _ => 0,
        };
        n = n.saturating_add(1).saturating_add(inner);
    }
    n
}

/// The iterations of a `for` loop whose start, step and end are constants.
fn trips(start: &Expr, step: &Expr, end: &Expr) -> Option<u64> {
    let int = |e: &Expr| match e.kind {
        ExprKind::Const(Const::Int(v)) => Some(v),
        _ => None,
    };
    let (a, st, b) = (int(start)?, int(step)?, int(end)?);
    if st == 0 {
        return None;
    }
    let (span, st) = if st > 0 {
        (b as i128 - a as i128, st as i128)
    } else {
        (a as i128 - b as i128, -(st as i128))
    };
    let n = span.div_euclid(st) + 1;
    Some(n.clamp(0, u64::MAX as i128) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Stmt, VarId};
    use crate::types::Ty;

    fn assign(var: VarId) -> Stmt {
        Stmt {
            kind: StmtKind::Assign {
                var,
                value: Expr::int(1),
            },
            line: 1,
        }
    }

    fn kernel(body: Block) -> Kernel {
        Kernel {
            name: "k".into(),
            rank: 1,
            params: vec![],
            outputs: vec![],
            vars: vec![],
            arrays: vec![],
            body,
            calls: Default::default(),
            facts: Default::default(),
        }
    }

    #[test]
    fn constant_loops_count_their_iterations_and_others_a_guess() {
        let for_loop = |a: i64, st: i64, b: i64| Stmt {
            kind: StmtKind::For {
                var: 0,
                start: Expr::int(a),
                step: Expr::int(st),
                end: Expr::int(b),
                body: vec![assign(1), assign(2)],
            },
            line: 1,
        };
        assert_eq!(work_per_item(&kernel(vec![assign(0)])), 1);
        assert_eq!(work_per_item(&kernel(vec![for_loop(1, 1, 10)])), 1 + 20);
        assert_eq!(work_per_item(&kernel(vec![for_loop(10, -2, 1)])), 1 + 10);
        assert_eq!(work_per_item(&kernel(vec![for_loop(10, -3, 1)])), 1 + 8);
        assert_eq!(work_per_item(&kernel(vec![for_loop(5, 1, 1)])), 1);
        let w = Stmt {
            kind: StmtKind::While {
                cond: Expr::new(ExprKind::Const(Const::Bool(true)), Ty::BOOL),
                body: vec![assign(1)],
            },
            line: 1,
        };
        assert_eq!(work_per_item(&kernel(vec![w])), 1 + UNKNOWN_TRIPS);
        assert_eq!(work_per_item(&kernel(vec![])), 1);
    }
}
