//! Liveness for the loop parallelizer: whether a value a loop body assigns may be read
//! after the loop (then the loop needs its last iteration's value and stays serial).

use crate::loop_body::names_any;
use blazar_hir::{self as hir, ExprKind, FnId, Program, Stmt, StmtKind, Var};

/// One enclosing block of the statement being looked at.
pub(crate) struct Outer<'a> {
    pub(crate) block: &'a [Stmt],
    pub(crate) index: usize,
    /// `block[index]` is a loop: the block holding the statement looked at runs again.
    pub(crate) looping: bool,
}

/// Whether the value `v` has after the loop `block[i]` may be read.
pub(crate) fn live_after(
    prog: &Program,
    fid: FnId,
    v: Var,
    lp: &Stmt,
    block: &[Stmt],
    i: usize,
    outer: &[Outer],
) -> bool {
    if let Some(live) = scan_seq(&block[i + 1..], v) {
        return live;
    }
    // Walk out through the enclosing statements; one that is a loop runs the block
    // holding our loop again, so a read anywhere else in that block may see `v`.
    let (mut inner, mut holder): (&Stmt, &[Stmt]) = (lp, block);
    for o in outer.iter().rev() {
        if o.looping
            && holder
                .iter()
                .any(|s| !std::ptr::eq(s, inner) && reads(s, v))
        {
            return true;
        }
        if let Some(live) = scan_seq(&o.block[o.index + 1..], v) {
            return live;
        }
        inner = &o.block[o.index];
        holder = o.block;
    }
    let f = &prog.functions[fid as usize];
    match v {
        Var::Local(s) => f.outputs.iter().any(|o| o.slot == s),
        Var::Global(_) => prog
            .functions
            .iter()
            .enumerate()
            .any(|(k, g)| k != fid as usize && g.body.iter().any(|s| reads(s, v))),
    }
}

/// Scans statements in order: `Some(false)` when `v` is assigned (whole, without
/// reading it) first, `Some(true)` when it may be read first, `None` when neither.
fn scan_seq(stmts: &[Stmt], v: Var) -> Option<bool> {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign {
                target,
                op: None,
                value,
                ..
            } if target.var == v && target.path.is_empty() && !names_any(value, &[v]) => {
                return Some(false)
            }
            // A loop may run no iteration: what its body kills, it may not.
            StmtKind::ForRange {
                var,
                start,
                step,
                end,
                body,
            } => {
                let header = [Some(start), step.as_ref(), Some(end)];
                if header.iter().flatten().any(|e| names_any(e, &[v])) {
                    return Some(true);
                }
                if *var != v && scan_seq(body, v) == Some(true) {
                    return Some(true);
                }
            }
            StmtKind::If { arms, otherwise } => {
                if arms.iter().any(|(c, _)| names_any(c, &[v])) {
                    return Some(true);
                }
                let mut all_kill = true;
                for b in arms
                    .iter()
                    .map(|(_, b)| b)
                    .chain(std::iter::once(otherwise))
                {
                    match scan_seq(b, v) {
                        Some(true) => return Some(true),
                        Some(false) => {}
                        None => all_kill = false,
                    }
                }
                if all_kill {
                    return Some(false);
                }
            }
            _ if reads(s, v) => return Some(true),
            _ => {}
        }
    }
    None
}

/// Whether statement `s` (with its nested blocks) may read `v`.
fn reads(s: &Stmt, v: Var) -> bool {
    let mut hit = false;
    let mut look = |e: &hir::Expr| {
        hir::visit::each_expr(e, &mut |x| match &x.kind {
            ExprKind::Var(y) => hit |= *y == v,
            ExprKind::Closure { captures, .. } => hit |= captures.contains(&v),
            ExprKind::Call {
                callee: hir::Callee::Nested { captures, .. },
                ..
            } => hit |= captures.contains(&v),
            _ => {}
        });
    };
    for e in hir::visit::own_exprs(s) {
        look(e);
    }
    match &s.kind {
        StmtKind::Assign { target, op, .. } => {
            hit |= target.var == v && (op.is_some() || !target.path.is_empty())
        }
        StmtKind::Parallel(p) => hit |= reads(&p.serial, v),
        StmtKind::Serial(p) => hit |= reads(&p.serial, v),
        _ => {}
    }
    hit || hir::visit::blocks(s)
        .iter()
        .any(|b| b.iter().any(|x| reads(x, v)))
}
