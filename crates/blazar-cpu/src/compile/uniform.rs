//! Uniformity analysis: which variables hold the same value on every active lane.
//!
//! A variable is uniform when every assignment to it has a uniform value and happens
//! in uniform control flow (no enclosing `if`/`while`/`for` whose condition or bounds
//! differ between lanes, and no loop that some lanes leave early by `break` or
//! `continue` under such a condition). Lanes that `return` are dead and do not count.
//! Then, at any point of execution, all active lanes agree on its value, which lets the
//! executor run uniform loops with a scalar counter and read uniform indices once.

use blazar_kir::{ExprKind, Kernel, Space, Special, Stmt, StmtKind};

/// What uniformity depends on besides variables.
pub(crate) struct Uniform<'k> {
    pub k: &'k Kernel,
    /// One work item is one block (so `blkidx` is the same on all lanes).
    pub blocky: bool,
    pub vars: Vec<bool>,
}

fn has_barrier(b: &[Stmt]) -> bool {
    b.iter().any(|s| match &s.kind {
        StmtKind::Barrier | StmtKind::AllocShared { .. } => true,
        StmtKind::If { then, els, .. } => has_barrier(then) || has_barrier(els),
        StmtKind::While { body, .. } | StmtKind::For { body, .. } => has_barrier(body),
        _ => false,
    })
}

impl<'k> Uniform<'k> {
    /// Runs the analysis to its fixpoint.
    pub(crate) fn new(k: &'k Kernel) -> Uniform<'k> {
        let blocky = has_barrier(&k.body)
            || k.arrays
                .iter()
                .any(|a| matches!(a.ty, blazar_kir::Ty::Array(t) if t.space == Space::Shared));
        let mut u = Uniform {
            k,
            blocky,
            vars: vec![true; k.vars.len()],
        };
        loop {
            let before = u.vars.clone();
            u.walk(&k.body, false);
            if before == u.vars {
                return u;
            }
        }
    }

    fn mark(&mut self, v: u32) {
        if let Some(x) = self.vars.get_mut(v as usize) {
            *x = false;
        }
    }

    /// Whether `e` has the same value on all active lanes.
    pub(crate) fn expr(&self, e: &blazar_kir::Expr) -> bool {
        match &e.kind {
            ExprKind::Const(_) => true,
            ExprKind::Var(v) => self.vars.get(*v as usize).copied().unwrap_or(false),
            ExprKind::Special(sp) => match sp {
                Special::BlkDim | Special::BlkCnt | Special::WarpSize => true,
                Special::BlkIdx => self.blocky,
                Special::Pos | Special::BlkPos => false,
            },
            ExprKind::Size { arr, .. } | ExprKind::Numel(arr) => {
                self.k.arrays.get(*arr as usize).is_some_and(
                    |a| matches!(a.ty, blazar_kir::Ty::Array(t) if t.space != Space::Local),
                )
            }
            ExprKind::Load { .. } => false,
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::Splat(a)
            | ExprKind::VecReduce(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => self.expr(a) && self.expr(b),
            ExprKind::Select(c, a, b) => self.expr(c) && self.expr(a) && self.expr(b),
            ExprKind::Math(_, args) | ExprKind::VecLit(args) => args.iter().all(|a| self.expr(a)),
        }
    }

    /// Marks variables assigned divergently; returns whether some `break`/`continue`
    /// runs under divergent control.
    fn walk(&mut self, b: &[Stmt], div: bool) -> bool {
        let mut div_exit = false;
        for s in b {
            match &s.kind {
                StmtKind::Assign { var, value } => {
                    if div || !self.expr(value) {
                        self.mark(*var);
                    }
                }
                StmtKind::SetLane { var, lane, value } => {
                    if div || !self.expr(lane) || !self.expr(value) {
                        self.mark(*var);
                    }
                }
                StmtKind::If { cond, then, els } => {
                    let d = div || !self.expr(cond);
                    div_exit |= self.walk(then, d);
                    div_exit |= self.walk(els, d);
                }
                StmtKind::While { cond, body } => {
                    let d = div || !self.expr(cond);
                    let e = self.walk(body, d);
                    if e && !d {
                        self.walk(body, true);
                    }
                    div_exit |= e;
                }
                StmtKind::For {
                    var,
                    start,
                    step,
                    end,
                    body,
                } => {
                    let d = div || !(self.expr(start) && self.expr(step) && self.expr(end));
                    let e = self.walk(body, d);
                    if e && !d {
                        self.walk(body, true);
                    }
                    if d || e {
                        self.mark(*var);
                    }
                    div_exit |= e;
                }
                StmtKind::Break(_) | StmtKind::Continue(_) => div_exit |= div,
                _ => {}
            }
        }
        div_exit
    }
}

/// Whether `b` (the body of a loop, `level` loops inside it) has a `break` or
/// `continue` that targets that loop.
pub(crate) fn exits_to(b: &[Stmt], level: u32) -> bool {
    b.iter().any(|s| match &s.kind {
        StmtKind::Break(n) | StmtKind::Continue(n) => *n == level,
        StmtKind::If { then, els, .. } => exits_to(then, level) || exits_to(els, level),
        StmtKind::While { body, .. } | StmtKind::For { body, .. } => exits_to(body, level + 1),
        _ => false,
    })
}
