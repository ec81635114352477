//! Run-local variables under loop fission: variables whose value never crosses from one
//! run of statements (one loop over the block's threads) to another.
//!
//! Under fission every variable lives in a per-thread array, loaded at the start of each
//! thread loop and written back at its end. A variable that every run assigns before
//! reading it (at the run's top level), that no uniform condition, loop bound or shared
//! extent reads (thread 0 reads those from the arrays) and that no barrier loop counts
//! with, never needs its array: its write-backs are dropped (the value written would
//! never be read).

use crate::cpp::support::{has_barrier, once_body};
use blazar_kir::{Expr, ExprKind, Kernel, Stmt, StmtKind};

/// Calls `f` on every variable `e` reads.
fn reads(e: &Expr, f: &mut dyn FnMut(u32)) {
    blazar_kir::visit::walk_expr(e, &mut |x| {
        if let ExprKind::Var(v) = x.kind {
            f(v);
        }
    });
}

/// Every variable `s` mentions (reads or assigns), anywhere inside it.
fn mentions(s: &Stmt, f: &mut dyn FnMut(u32)) {
    let mut es: Vec<&Expr> = Vec::new();
    match &s.kind {
        StmtKind::Assign { var, value } => {
            f(*var);
            es.push(value);
        }
        StmtKind::SetLane { var, lane, value } => {
            f(*var);
            es.extend([lane, value]);
        }
        StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
            es.extend(index.iter().chain([value]))
        }
        StmtKind::Accumulate { value, .. } => es.push(value),
        StmtKind::If { cond, then, els } => {
            es.push(cond);
            then.iter().chain(els).for_each(|s| mentions(s, f));
        }
        StmtKind::While { cond, body } => {
            es.push(cond);
            body.iter().for_each(|s| mentions(s, f));
        }
        StmtKind::For {
            var,
            start,
            step,
            end,
            body,
        } => {
            f(*var);
            es.extend([start, step, end]);
            body.iter().for_each(|s| mentions(s, f));
        }
        StmtKind::Assert { cond } => es.push(cond),
        StmtKind::AllocLocal { dims, .. } | StmtKind::AllocShared { dims, .. } => es.extend(dims),
        StmtKind::Call { args, outs, .. } => {
            outs.iter().for_each(|v| f(*v));
            es.extend(args);
        }
        StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return | StmtKind::Barrier => {}
    }
    for e in es {
        reads(e, f);
    }
}

struct Scan {
    /// Per variable: still a candidate.
    local: Vec<bool>,
}

impl Scan {
    fn not_local(&mut self, v: u32) {
        if let Some(l) = self.local.get_mut(v as usize) {
            *l = false;
        }
    }

    /// One run: a variable whose first mention is not a plain assignment is not local.
    fn run(&mut self, run: &[&Stmt]) {
        let mut seen = vec![false; self.local.len()];
        for s in run {
            let assigned_first = match &s.kind {
                StmtKind::Assign { var, value } => {
                    let mut self_read = false;
                    reads(value, &mut |v| self_read |= v == *var);
                    (!self_read).then_some(*var)
                }
                _ => None,
            };
            let mut mentioned = Vec::new();
            mentions(s, &mut |v| mentioned.push(v));
            for v in mentioned {
                if seen.get(v as usize) == Some(&false) {
                    seen[v as usize] = true;
                    if assigned_first != Some(v) {
                        self.not_local(v);
                    }
                }
            }
        }
    }

    /// A block under fission, as `Gen::fblock` splits it.
    fn block(&mut self, b: &[Stmt]) {
        let mut run: Vec<&Stmt> = Vec::new();
        for s in b {
            if has_barrier(s) {
                self.run(&run);
                run.clear();
                self.point(s);
            } else {
                run.push(s);
            }
        }
        self.run(&run);
    }

    /// A fission point: what thread 0 evaluates is read from the arrays.
    fn point(&mut self, s: &Stmt) {
        if let Some(b) = once_body(s) {
            return self.block(b);
        }
        let mut uniform: Vec<&Expr> = Vec::new();
        match &s.kind {
            StmtKind::AllocShared { dims, .. } => uniform.extend(dims),
            StmtKind::If { cond, then, els } => {
                uniform.push(cond);
                self.block(then);
                self.block(els);
            }
            StmtKind::While { cond, body } => {
                uniform.push(cond);
                self.block(body);
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                self.not_local(*var);
                uniform.extend([start, step, end]);
                self.block(body);
            }
            _ => {}
        }
        for e in uniform {
            reads(e, &mut |v| self.not_local(v));
        }
    }
}

/// Per variable of `k` (a kernel run by fission): whether it is run-local.
pub(crate) fn run_local(k: &Kernel) -> Vec<bool> {
    let mut scan = Scan {
        local: vec![true; k.vars.len()],
    };
    scan.block(&k.body);
    scan.local
}
