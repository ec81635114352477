//! Uniform assignments run once per block under loop fission.
//!
//! A run of statements between two fission points is a loop over the block's threads.
//! An assignment at the start or the end of a run, to a variable that every thread of
//! the block holds alike (not `varying`), of a value that cannot fail and that loads
//! only memory the run does not change, gives every running thread the same value: it
//! is computed once, from the lowest running thread's variables (as the conditions of
//! uniform control flow are), and stored into every thread's element. A block scan's
//! `d = shl(d, 1)` between two barriers, an inlined call's `n = blkdim`, a tile loop's
//! `carry = carry + s[blkdim - 1]` after the tile's stores then cost one evaluation
//! instead of a loop over the threads, and the loop that follows reads the value once
//! (`fission::open_threads`).
//!
//! Why the result is the executor's: a thread runs the statements of its run in order,
//! and within a run it reads only its own variables. A leading assignment reads
//! variables no thread has changed in this run yet (all threads hold the run's
//! starting values, alike for uniform variables) and memory that nothing in the run
//! writes; a trailing one reads what its own thread left (alike in the running
//! threads for uniform variables), never a run-local variable (whose thread loop keeps
//! no copy: `runlocal`), and memory that nothing in the run writes. Global arrays
//! count as changed when the kernel writes any global array it loads elsewhere (two
//! parameters may be one array), as in `interleave`. A thread that stops in the run
//! keeps no value that is read again; when every thread has stopped, nothing is run.
//! Under a per-thread mask (`masked`) nothing qualifies: a variable assigned there is
//! varying.
//!
//! A uniform variable that only such assignments set is held once per block, in the
//! scalar `<name>_u` instead of its per-thread array (`held_vars`): the assignment
//! stores one value, and every thread reads it from there. Which assignments run
//! once is found before the body is generated, by the same split of the same runs.
//!
//! An assignment of a special to its alias (`blkpos = blkpos` where an inlined device
//! function takes the position, `alias`) runs in no thread loop at all: every read of
//! the variable reads the special (`dialect`), so nothing reads the value it stores.

use super::interleave::written_arrays;
use super::Gen;
use crate::cpp::support::{has_barrier, once_body, SlotKind};
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{Expr, ExprKind, Stmt, StmtKind};

impl Gen<'_> {
    /// How many statements at the start and at the end of `run` run once (the two
    /// counts never overlap).
    pub(crate) fn once_split(&self, run: &[&Stmt]) -> (usize, usize) {
        if self.active.is_some() {
            return (0, 0);
        }
        let mut run_writes = Vec::new();
        for s in run {
            written_arrays(std::slice::from_ref(*s), &mut run_writes);
        }
        let mut kernel_writes = Vec::new();
        written_arrays(&self.k.body, &mut kernel_writes);
        let pre = run
            .iter()
            .take_while(|s| self.once_ok(s, &run_writes, &kernel_writes, false))
            .count();
        let post = run[pre..]
            .iter()
            .rev()
            .take_while(|s| self.once_ok(s, &run_writes, &kernel_writes, true))
            .count();
        (pre, post)
    }

    /// `s` assigns a special to a variable that is read as that special (`alias`).
    pub(crate) fn alias_assign(&self, s: &Stmt) -> bool {
        matches!(&s.kind, StmtKind::Assign { var, value }
            if matches!(value.kind, ExprKind::Special(sp) if self.aliases.get(var) == Some(&sp)))
    }

    /// `s` assigns a uniform variable a value that cannot fail and loads only memory
    /// that the run does not change; at the end of a run (`late`), a value that reads
    /// no run-local variable.
    fn once_ok(&self, s: &Stmt, run_writes: &[u32], kernel_writes: &[u32], late: bool) -> bool {
        let StmtKind::Assign { var, value } = &s.kind else {
            return false;
        };
        if self.varying.get(*var as usize).copied().unwrap_or(true)
            || blazar_kir::uniform::is_varying(value, &self.varying)
            || self.has_checked(value)
        {
            return false;
        }
        let mut ok = true;
        blazar_kir::visit::walk_expr(value, &mut |x| match &x.kind {
            ExprKind::Load { arr, .. } => {
                ok &= !run_writes.contains(arr)
                    && match self.plan.slots.get(*arr as usize) {
                        Some(SlotKind::Shared) => true,
                        Some(SlotKind::Global) => !kernel_writes.contains(arr),
                        _ => false,
                    };
            }
            ExprKind::Var(v) if late => {
                ok &= !self.run_local.get(*v as usize).copied().unwrap_or(false);
            }
            _ => {}
        });
        ok
    }

    /// Runs the uniform assignment `s` once (see the module's notes) and stores its
    /// value into every thread's element of the variable.
    pub(crate) fn run_once(&mut self, s: &Stmt) {
        let StmtKind::Assign { var, value } = &s.kind else {
            return;
        };
        self.once_assign(s, *var, value);
    }

    fn once_assign(&mut self, s: &Stmt, var: u32, value: &Expr) {
        self.line = s.line;
        let name = self.var_base(var);
        let t = spell::ty(self.k.vars[var as usize].ty);
        let x = self.tmp();
        self.line_out("{");
        self.o.depth += 1;
        self.line_out(&format!("{t} {x};"));
        self.uniform_open();
        let e = self.expr(value);
        self.line_out(&format!("{x} = {e};"));
        self.close();
        if self.held.get(var as usize).copied().unwrap_or(false) {
            self.line_out(&format!("if (bz_u < bz_nt) {name}_u = {x};"));
        } else {
            self.line_out(&format!(
                "if (bz_u < bz_nt) for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {name}_a[bz_tid] = {x};"
            ));
        }
        self.close();
    }

    /// Where thread `tid` reads variable `%i` under fission: its element of the
    /// per-thread array, or the block's value of a held variable.
    pub(crate) fn var_src(&self, i: usize, tid: &str) -> String {
        let name = self.var_base(i as u32);
        if self.held.get(i).copied().unwrap_or(false) {
            format!("{name}_u")
        } else {
            format!("{name}_a[{tid}]")
        }
    }

    /// Per variable of the kernel (run by fission, `varying` and `run_local` known):
    /// uniform, and assigned only by assignments that run once.
    pub(crate) fn held_vars(&self) -> Vec<bool> {
        let n = self.k.vars.len();
        let mut once: Vec<&Stmt> = Vec::new();
        self.once_walk(&self.k.body, false, &mut once);
        let mut all = vec![0u32; n];
        blazar_kir::alias::count_assigns(&self.k.body, &mut all);
        let mut ones = vec![0u32; n];
        for s in once {
            if let StmtKind::Assign { var, .. } = s.kind {
                if let Some(c) = ones.get_mut(var as usize) {
                    *c += 1;
                }
            }
        }
        (0..n)
            .map(|v| {
                !self.varying.get(v).copied().unwrap_or(true) && all[v] > 0 && all[v] == ones[v]
            })
            .collect()
    }

    /// The assignments that run once in block `b`, split as `Gen::fblock` splits it
    /// (`masked`: under a per-thread mask, where none does).
    fn once_walk<'s>(&self, b: &'s [Stmt], masked: bool, out: &mut Vec<&'s Stmt>) {
        let mut run: Vec<&Stmt> = Vec::new();
        for s in b {
            if has_barrier(s) {
                self.once_run(&run, masked, out);
                run.clear();
                self.once_point(s, masked, out);
            } else {
                run.push(s);
            }
        }
        self.once_run(&run, masked, out);
    }

    /// The assignments that run once in one run, as `Gen::thread_loop` takes them.
    fn once_run<'s>(&self, run: &[&'s Stmt], masked: bool, out: &mut Vec<&'s Stmt>) {
        if masked {
            return;
        }
        let run: Vec<&Stmt> = run
            .iter()
            .filter(|s| !self.alias_assign(s))
            .copied()
            .collect();
        let (pre, post) = self.once_split(&run);
        out.extend(&run[..pre]);
        out.extend(&run[run.len() - post..]);
    }

    /// A fission point, as `Gen::fission_stmt` generates it.
    fn once_point<'s>(&self, s: &'s Stmt, masked: bool, out: &mut Vec<&'s Stmt>) {
        if let Some(b) = once_body(s) {
            return self.once_walk(b, masked, out);
        }
        match &s.kind {
            StmtKind::If { cond, then, els } => {
                let m = masked || blazar_kir::uniform::is_varying(cond, &self.varying);
                self.once_walk(then, m, out);
                self.once_walk(els, m, out);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => {
                self.once_walk(body, masked, out)
            }
            _ => {}
        }
    }
}
