//! Interleaved loops whose threads are known, from the kernel's text, to start at
//! consecutive values: `for c = t..nt..w-1` with `t` the thread's position in a row of
//! threads (`t = blkpos[1]`) and the step and end alike in every thread.
//!
//! `interleave` finds the affine form of such a loop at run time: each thread stores
//! its bounds, then a test over the block's threads compares them (and, first, whether
//! they are all alike, which cannot hold here). A histogram's block of 256 threads asks
//! this once per image row: four passes over the 256 threads for 2048 updates. When the
//! start is `blkpos[last]` (a variable holding it, `widen::blkpos_vars`), or that plus
//! an expression that no thread's value changes (`uniform::is_varying`), and the step
//! and the end are such expressions too, thread `t` starts at `u + t` (`u`: the start
//! of thread 0) with the step and end of every other one; the loop needs only `u`, the
//! step and the end, evaluated once by the lowest running thread as uniform control
//! flow is. It then runs in `interleave`'s affine form at once (`affine_run`: the same
//! iterations and the same values of the variable after the loop); when the values do
//! not allow it (a step that is not positive, a start or end near the i32 limit, a
//! block of more than one row) or no thread is running, the run-time search runs as
//! before, without `pre`. The statements before the loop in its run (`pre`: only
//! assignments, which raise no error and write no memory, `interleave`'s conditions)
//! run first, in a thread loop of their own: the bounds, evaluated once after them,
//! are then the values every thread would compute itself.

use super::Gen;
use crate::printer::Dialect;
use blazar_kir::{BinOp, Expr, ExprKind, Scalar, Stmt, StmtKind, Ty};

impl Gen<'_> {
    /// The part of the start of `run`'s loop at `i` that is alike in every thread (None
    /// when the start is the thread's position itself), when the loop has the form in
    /// the module's notes.
    fn known_affine_start<'e>(&self, run: &[&'e Stmt], i: usize) -> Option<Option<&'e Expr>> {
        let StmtKind::For {
            var,
            start,
            step,
            end,
            body,
        } = &run[i].kind
        else {
            return None;
        };
        let i32_ty = Ty::Scalar(Scalar::I32);
        let kept =
            !super::fission::assigned_in(&body.iter().collect::<Vec<_>>(), self.k.vars.len())
                [*var as usize];
        let var_i32 = self.k.vars.get(*var as usize).map(|v| v.ty) == Some(i32_ty);
        if !kept || !var_i32 || [start, step, end].iter().any(|e| e.ty != i32_ty) {
            return None;
        }
        let uniform = |e: &Expr| !blazar_kir::uniform::is_varying(e, &self.varying);
        if !uniform(step) || !uniform(end) {
            return None;
        }
        let last = self.k.rank.clamp(1, 4) as usize - 1;
        let position = |e: &Expr| self.blkpos_component(e) == Some(last);
        if position(start) {
            return Some(None);
        }
        match &start.kind {
            ExprKind::Binary(BinOp::Add, a, b) if position(a) && uniform(b) => Some(Some(b)),
            ExprKind::Binary(BinOp::Add, a, b) if position(b) && uniform(a) => Some(Some(a)),
            _ => None,
        }
    }

    /// When `run`'s loop at `i` has the form in the module's notes: opens a scope that
    /// runs it in the affine form when its values allow, and an `else` branch for the
    /// run-time search (closed by [`Gen::known_affine_close`]). Returns whether it did.
    pub(crate) fn known_affine_open(&mut self, run: &[&Stmt], i: usize) -> bool {
        let Some(offset) = self.known_affine_start(run, i) else {
            return false;
        };
        let StmtKind::For {
            var,
            step,
            end,
            body,
            ..
        } = &run[i].kind
        else {
            return false;
        };
        // `pre` first, in a thread loop of its own that keeps every variable it assigns.
        if i > 0 {
            let w = super::fission::assigned_in(&run[..i], self.k.vars.len());
            self.open_threads(&w);
            for s in &run[..i] {
                self.block(std::slice::from_ref(*s));
            }
            self.close_threads(&w);
        }
        self.line_out("{");
        self.o.depth += 1;
        self.line_out("i64 bz_v0 = 0, bz_s0 = 0, bz_h0 = 0;");
        self.uniform_open();
        if let Some(u) = offset {
            let x = self.expr(u);
            self.line_out(&format!("bz_v0 = (i64)({x});"));
        }
        let (s, h) = (self.expr(step), self.expr(end));
        self.line_out(&format!("bz_s0 = (i64)({s}); bz_h0 = (i64)({h});"));
        self.close();
        // A block of one row of threads, as `affine_loop` requires, whose starts do not
        // pass the i32 limit.
        let r = self.k.rank.clamp(1, 4) as usize;
        let row: String = (0..r - 1).map(|c| format!(" && bz_kb{c} == 1")).collect();
        self.line_out(&format!(
            "if (bz_u < bz_nt && bz_s0 > 0 && bz_h0 + bz_s0 <= 2147483647ll && bz_v0 + bz_nt - 1 <= 2147483647ll{row}) {{"
        ));
        self.o.depth += 1;
        let body: Vec<&Stmt> = body.iter().collect();
        let writes = Self::run_writes(&body);
        self.affine_run(*var, &body, writes);
        self.o.depth -= 1;
        self.line_out("} else {");
        self.o.depth += 1;
        true
    }

    /// Whether the kernel reads variable `var` anywhere but in `body` (the statements
    /// of a loop over `var`): when it does not, the values the loop leaves in it are
    /// never read (the loop sets it before its body runs), and `affine_run` need not
    /// write them back.
    pub(crate) fn read_outside(&self, var: u32, body: &[&Stmt]) -> bool {
        let count = |b: &[Stmt]| {
            let mut n = 0usize;
            blazar_kir::visit::walk_stmts(b, &mut |s| {
                if matches!(&s.kind, StmtKind::SetLane { var: v, .. } if *v == var) {
                    n += 1;
                }
                blazar_kir::visit::stmt_exprs(s, &mut |e| {
                    blazar_kir::visit::walk_expr(e, &mut |x| {
                        if matches!(x.kind, ExprKind::Var(v) if v == var) {
                            n += 1;
                        }
                    })
                })
            });
            n
        };
        let inside: usize = body.iter().map(|s| count(std::slice::from_ref(*s))).sum();
        count(&self.k.body) > inside
    }

    /// Closes what [`Gen::known_affine_open`] opened.
    pub(crate) fn known_affine_close(&mut self) {
        self.o.depth -= 1;
        self.line_out("}");
        self.o.depth -= 1;
        self.line_out("}");
    }
}
