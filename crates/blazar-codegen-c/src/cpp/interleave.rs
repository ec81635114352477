//! Interleaved thread loops under fission: a counted loop that each thread of a block
//! runs becomes the outer loop, with the loop over the block's threads inside, so that
//! memory is walked as the threads of a GPU block walk it (thread `t` of a strided sum
//! reads `x[t + j * stride]`: contiguous for each `j`; thread `t` of a histogram adds
//! the pixels `t + j * nt` of a row, so consecutive updates go to different bins
//! instead of one thread's run of equal ones).
//!
//! A run of statements between two fission points qualifies when it is
//! `pre; for v = a..s..b (body); post`, where `pre` only assigns variables, the loop's
//! body holds assignments, array stores and atomic updates, `if`s and counted loops of
//! the same kind, no expression of the run may raise an error (no `'checked` access),
//! every array the run loads is one it does not write (a shared array, or a global one
//! that the kernel never writes), and every array it writes is one it does not load.
//! Then no thread reads what another thread of the block writes during the run, and no
//! thread stops in it: running each thread's iterations in order but iteration by
//! iteration across the threads gives every thread the values it gets running alone,
//! and the same memory at the end, up to the order of atomic updates from different
//! threads (which the kernel model leaves open) and of racing stores (which the race
//! detector reports). Each thread keeps its own bounds (evaluated once, as the executor
//! does); the loop ends when no thread has an iteration left; `post` then runs thread
//! by thread.
//!
//! Three forms, chosen when the block runs: when every running thread has the same
//! bounds, the loop is a plain loop around the body's thread loops (whose own loops are
//! interleaved again); when the threads of a rank-1 block start at consecutive values
//! with the same step and end, each iteration is a contiguous range of values
//! (`affine_loop`); otherwise every thread with an iteration left runs it, round by
//! round.

use super::fission::assigned_in;
use super::Gen;
use crate::cpp::support::SlotKind;
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{Expr, ExprKind, Scalar, Stmt, StmtKind, Ty, WriteMode};

/// Appends the arrays that the statements of `b` store into or update.
pub(crate) fn written_arrays(b: &[Stmt], out: &mut Vec<u32>) {
    for s in b {
        match &s.kind {
            StmtKind::Store { arr, .. } | StmtKind::Update { arr, .. } => out.push(*arr),
            StmtKind::If { then, els, .. } => {
                written_arrays(then, out);
                written_arrays(els, out);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => written_arrays(body, out),
            _ => {}
        }
    }
}

/// The arrays a run loads and writes.
#[derive(Default)]
struct Touched {
    loads: Vec<u32>,
    writes: Vec<u32>,
}

impl Gen<'_> {
    /// `e` raises no error; its loads are added to `t`.
    fn pure_read(&self, e: &Expr, t: &mut Touched) -> bool {
        if self.has_checked(e) {
            return false;
        }
        blazar_kir::visit::walk_expr(e, &mut |x| {
            if let ExprKind::Load { arr, .. } = &x.kind {
                t.loads.push(*arr);
            }
        });
        true
    }

    /// An integer loop variable.
    fn int_var(&self, v: u32) -> bool {
        matches!(
            self.k.vars.get(v as usize).map(|d| d.ty),
            Some(Ty::Scalar(Scalar::I32 | Scalar::I64))
        )
    }

    /// Whether the statements of a loop body have the interleaved form's shape (see
    /// the module's notes); their loads and writes are added to `t`.
    fn body_ok(&self, b: &[Stmt], t: &mut Touched) -> bool {
        b.iter().all(|s| match &s.kind {
            StmtKind::Assign { value, .. } => self.pure_read(value, t),
            StmtKind::SetLane { lane, value, .. } => {
                self.pure_read(lane, t) && self.pure_read(value, t)
            }
            StmtKind::Store {
                arr, index, value, ..
            }
            | StmtKind::Update {
                arr, index, value, ..
            } => {
                let unchecked = matches!(
                    self.k.arrays.get(*arr as usize).map(|d| d.ty),
                    Some(Ty::Array(a)) if a.write != WriteMode::Checked
                ) && matches!(
                    self.plan.slots.get(*arr as usize),
                    Some(SlotKind::Global | SlotKind::Shared)
                );
                t.writes.push(*arr);
                unchecked && index.iter().all(|e| self.pure_read(e, t)) && self.pure_read(value, t)
            }
            StmtKind::If { cond, then, els } => {
                self.pure_read(cond, t) && self.body_ok(then, t) && self.body_ok(els, t)
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                self.int_var(*var)
                    && [start, step, end].iter().all(|e| self.pure_read(e, t))
                    && self.body_ok(body, t)
            }
            _ => false,
        })
    }

    /// The position in `run` of a loop to interleave, when `run` has the shape above.
    pub(crate) fn interleave_split(&self, run: &[&Stmt]) -> Option<usize> {
        let i = run
            .iter()
            .position(|s| matches!(s.kind, StmtKind::For { .. }))?;
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
        let mut t = Touched::default();
        let pre_ok = run[..i].iter().all(|s| match &s.kind {
            StmtKind::Assign { value, .. } => self.pure_read(value, &mut t),
            StmtKind::SetLane { lane, value, .. } => {
                self.pure_read(lane, &mut t) && self.pure_read(value, &mut t)
            }
            _ => false,
        });
        let ok = self.int_var(*var)
            && pre_ok
            && [start, step, end].iter().all(|e| self.pure_read(e, &mut t))
            && self.body_ok(body, &mut t);
        if !ok {
            return None;
        }
        let mut kernel_writes = Vec::new();
        written_arrays(&self.k.body, &mut kernel_writes);
        // Loads only of memory the run does not change, writes only of memory it does
        // not read.
        let stable = t.loads.iter().all(|a| {
            !t.writes.contains(a)
                && match self.plan.slots.get(*a as usize) {
                    Some(SlotKind::Shared) => true,
                    Some(SlotKind::Global) => !kernel_writes.contains(a),
                    _ => false,
                }
        });
        let mut in_body = Touched::default();
        let _ = self.body_ok(body, &mut in_body);
        let useful = !in_body.loads.is_empty() || !in_body.writes.is_empty();
        (stable && useful).then_some(i)
    }

    /// Whether the statements of `run` write memory.
    pub(crate) fn run_writes(run: &[&Stmt]) -> bool {
        let mut w = Vec::new();
        for s in run {
            written_arrays(std::slice::from_ref(*s), &mut w);
        }
        !w.is_empty()
    }

    /// `run` with its loop at `i` interleaved across the block's threads.
    pub(crate) fn interleaved(&mut self, run: &[&Stmt], i: usize) {
        let StmtKind::For {
            var,
            start,
            step,
            end,
            body,
        } = &run[i].kind
        else {
            return;
        };
        let n = self.k.vars.len();
        let v = self.var_base(*var);
        let t = spell::ty(self.k.vars[*var as usize].ty);
        // Threads known to start at consecutive values (`known_affine`).
        let known = self.known_affine_open(run, i);
        // `pre`, then each thread's bounds.
        let mut w = assigned_in(&run[..i], n);
        w[*var as usize] = true;
        self.open_threads(&w);
        self.line = run[i].line;
        // (`known_affine` has run `pre` already.)
        for s in &run[if known { i } else { 0 }..i] {
            self.block(std::slice::from_ref(*s));
        }
        let (a, b, c) = (self.expr(start), self.expr(step), self.expr(end));
        self.line_out(&format!("{v} = {a};"));
        self.line_out(&format!("bz_ist_a[bz_tid] = (i64)({b});"));
        self.line_out(&format!("bz_ihi_a[bz_tid] = (i64)({c});"));
        self.close_threads(&w);
        let body: Vec<&Stmt> = body.iter().collect();
        let keeps_var = !assigned_in(&body, n)[*var as usize];
        let writes = Self::run_writes(&body);
        self.line_out("{");
        self.o.depth += 1;
        if keeps_var {
            self.uniform_loop(*var, &body);
            self.line_out("else {");
            self.o.depth += 1;
        }
        let affine = t == "i32" && keeps_var;
        if affine {
            self.affine_loop(*var, &body, writes);
            self.line_out("else");
        }
        // Iterations: every thread with one left runs it.
        self.line_out("for (;;) {");
        self.o.depth += 1;
        self.line_out("bool bz_any = false;");
        let mut w = assigned_in(&body, n);
        w[*var as usize] = true;
        self.open_threads(&w);
        self.line_out(&format!(
            "const {t} bz_st = ({t})bz_ist_a[bz_tid], bz_hi = ({t})bz_ihi_a[bz_tid];"
        ));
        self.line_out(&format!(
            "if (!(({t})0 < bz_st ? {v} <= bz_hi : bz_hi <= {v})) continue;"
        ));
        self.line_out("bz_any = true;");
        for s in &body {
            self.block(std::slice::from_ref(*s));
        }
        self.line_out(&format!("{v} += bz_st;"));
        self.close_threads(&w);
        self.line_out("if (!bz_any) break;");
        self.o.depth -= 1;
        self.line_out("}");
        if keeps_var {
            self.o.depth -= 1;
            self.line_out("}");
        }
        self.o.depth -= 1;
        self.line_out("}");
        if known {
            self.known_affine_close();
        }
        let post: Vec<&Stmt> = run[i + 1..].to_vec();
        self.thread_loop(&post);
    }

    /// Every running thread has the same bounds (a loop over a row of the block's
    /// data, or over a range that does not depend on the thread): the loop runs once,
    /// setting the variable of every thread, around the body's own thread loops (whose
    /// loops are interleaved in turn). Emits `if (all alike) { ... }`; the caller
    /// appends the other forms as `else`.
    fn uniform_loop(&mut self, var: u32, body: &[&Stmt]) {
        let v = self.var_base(var);
        let t = spell::ty(self.k.vars[var as usize].ty);
        self.line_out("const i64 bz_uh = bz_u < bz_nt ? bz_u : 0;");
        self.line_out(&format!(
            "const i64 bz_ua = (i64){v}_a[bz_uh], bz_us = bz_ist_a[bz_uh], bz_ue = bz_ihi_a[bz_uh];"
        ));
        self.line_out("bool bz_uni = bz_u < bz_nt;");
        self.all_threads(
            "bz_uni",
            &format!("(bz_dead_a[bz_tid] == 0) & (((i64){v}_a[bz_tid] != bz_ua) | (bz_ist_a[bz_tid] != bz_us) | (bz_ihi_a[bz_tid] != bz_ue))"),
        );
        self.line_out("if (bz_uni) {");
        self.o.depth += 1;
        let (cur, st, hi) = (self.tmp(), self.tmp(), self.tmp());
        self.line_out(&format!(
            "{t} {cur} = ({t})bz_ua; const {t} {st} = ({t})bz_us, {hi} = ({t})bz_ue;"
        ));
        self.line_out(&format!(
            "for (; (({t})0 < {st}) ? ({cur} <= {hi}) : ({hi} <= {cur}); {cur} += {st}) {{"
        ));
        self.o.depth += 1;
        self.line_out(&format!(
            "for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {v}_a[bz_tid] = {cur};"
        ));
        // The body's thread loops keep every variable they assign (its values cross
        // the iterations, which are now separate loops over the threads).
        let run_local = std::mem::take(&mut self.run_local);
        // Unless the body assigns it, every thread holds `cur` in the body's loops.
        let kept = !assigned_in(body, self.k.vars.len())[var as usize];
        if kept {
            self.uniform_vals.push((var, cur.clone()));
        }
        self.thread_loop(body);
        if kept {
            self.uniform_vals.pop();
        }
        self.run_local = run_local;
        self.o.depth -= 1;
        self.line_out("}");
        self.line_out(&format!(
            "for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {v}_a[bz_tid] = {cur};"
        ));
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// The common case of a block of one row of threads that start at consecutive values
    /// with the same step (positive) and end, in a loop whose body does not assign its
    /// variable: iteration `j` of thread `t` has the value
    /// `start + t + j * step`, so the threads of one iteration are a contiguous range
    /// and the loop over them is a plain counted loop (vector loads). The variable's
    /// last value is written back once, after the loop (a store per iteration would
    /// cost as much as the loop's loads). Threads that stopped are skipped when the
    /// body writes memory. Emits `if (all threads fit) { ... }`; the caller appends the
    /// general loop as `else`.
    fn affine_loop(&mut self, var: u32, body: &[&Stmt], writes: bool) {
        let v = self.var_base(var);
        self.line_out(&format!(
            "const i64 bz_v0 = (i64){v}_a[0], bz_s0 = bz_ist_a[0], bz_h0 = bz_ihi_a[0];"
        ));
        // A block of one row of threads (every component but the last of extent 1): the
        // thread's linear number is its last `blkpos` component.
        let r = self.k.rank.clamp(1, 4) as usize;
        let row: String = (0..r - 1).map(|c| format!(" && bz_kb{c} == 1")).collect();
        self.line_out(&format!(
            "bool bz_aff = bz_s0 > 0 && bz_h0 + bz_s0 <= 2147483647ll{row};"
        ));
        self.all_threads(
            "bz_aff",
            &format!("((i64){v}_a[bz_tid] != bz_v0 + bz_tid) | (bz_ist_a[bz_tid] != bz_s0) | (bz_ihi_a[bz_tid] != bz_h0)"),
        );
        self.line_out("if (bz_aff) {");
        self.o.depth += 1;
        self.affine_run(var, body, writes);
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// The affine form's loop (`bz_v0`, `bz_s0`, `bz_h0`: the first thread's start,
    /// the step and the end, with `bz_s0 > 0`, `bz_h0 + bz_s0` and every thread's start
    /// within i32, and one row of threads), then the variable's values after it.
    pub(crate) fn affine_run(&mut self, var: u32, body: &[&Stmt], writes: bool) {
        let v = self.var_base(var);
        // Accesses indexed by the variable in their last index, and in the others by
        // values alike in every thread (an enclosing uniform loop's, or constants),
        // touch elements `v0..h0` of one line only: when those exist, they need no
        // check.
        let mut direct = Vec::new();
        for s in body {
            self.direct_accesses(std::slice::from_ref(*s), var, &mut direct);
        }
        direct.sort();
        direct.dedup();
        if direct.is_empty() {
            self.affine_iterations(var, body, writes, true);
        } else {
            let mut fits = Vec::new();
            for (a, atoms) in &direct {
                let r = match self.k.arrays.get(*a as usize).map(|d| d.ty) {
                    Some(Ty::Array(t)) => (t.rank as usize).max(1),
                    _ => 1,
                };
                let shape = self.shape(*a, r, atoms.len());
                let last = atoms.len() - 1;
                fits.push(format!("bz_h0 < (i64)({})", shape[last]));
                for (x, n) in atoms[..last].iter().zip(&shape) {
                    fits.push(format!("bz_in((i64)({x}), (i64)({n}))"));
                }
            }
            self.line_out(&format!("if (bz_v0 >= 0 && {}) {{", fits.join(" && ")));
            self.o.depth += 1;
            self.wide_in_range = direct;
            self.affine_iterations(var, body, writes, true);
            self.wide_in_range = Vec::new();
            self.o.depth -= 1;
            self.line_out("} else {");
            self.o.depth += 1;
            // Row by row only: accesses not known in range are rare (a shorter compile).
            self.affine_iterations(var, body, writes, false);
            self.o.depth -= 1;
            self.line_out("}");
        }
        if !self.read_outside(var, body) {
            // Nothing reads the values the loop leaves (`known_affine`).
            return;
        }
        // Thread `t` ran the values `v0 + t + j * s0` up to `h0`, and ends one step past
        // its last (or at its first, when it ran none). With a step of at least the
        // number of threads, that is `e + t` or `e + t - s0`, where `e` is the first
        // value of the first thread past `h0`.
        self.line_out("if (bz_s0 >= bz_nt) {");
        self.line_out(
            "  const i64 bz_e0 = bz_v0 <= bz_h0 ? bz_v0 + ((bz_h0 - bz_v0) / bz_s0 + 1) * bz_s0 : bz_v0;",
        );
        self.line_out(&format!(
            "  for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {{ const i64 bz_f = bz_e0 + bz_tid; {v}_a[bz_tid] = (i32)(bz_v0 <= bz_h0 && bz_f - bz_s0 > bz_h0 ? bz_f - bz_s0 : bz_f); }}"
        ));
        self.line_out("} else {");
        self.line_out(&format!(
            "  for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {{ const i64 bz_f = bz_v0 + bz_tid; {v}_a[bz_tid] = (i32)(bz_f <= bz_h0 ? bz_f + ((bz_h0 - bz_f) / bz_s0 + 1) * bz_s0 : bz_f); }}"
        ));
        self.line_out("}");
    }

    /// The iterations of `affine_loop`: for each value of the first thread, the
    /// threads that have it in range, as one counted loop; with `jam`, whole rows first,
    /// a few at a time, when the body writes no memory (`jam.rs`).
    fn affine_iterations(&mut self, var: u32, body: &[&Stmt], writes: bool, jam: bool) {
        let first = if writes || !jam {
            "bz_v0"
        } else {
            self.affine_jam(var, body)
        };
        self.line_out(&format!(
            "for (i64 bz_b = {first}; bz_b <= bz_h0; bz_b += bz_s0) {{"
        ));
        self.o.depth += 1;
        self.line_out("const i64 bz_n = bz_h0 - bz_b + 1 < bz_nt ? bz_h0 - bz_b + 1 : bz_nt;");
        // As in `open_threads`: read once per iteration, before its loop over the threads.
        self.line_out("const bool bz_nd = !bz_fe.code;");
        self.stride_prefetch(body, var);
        if let Some(p) = self.scatter_unroll(body, var) {
            self.line_out(&p);
        }
        self.line_out("for (i64 bz_tid = 0; bz_tid < bz_n; bz_tid++) {");
        self.o.depth += 1;
        self.line_out("const i64 bz_vw = bz_b + bz_tid;");
        self.line_out("const i32 bz_vn = (i32)bz_vw;");
        self.affine_thread_open(var, "bz_vn", writes);
        // Indexing with the loop variable uses its exact i64 value (affine in `bz_tid`;
        // the body does not assign the variable).
        self.wide = Some((var, "bz_vw".to_string()));
        for s in body {
            self.block(std::slice::from_ref(*s));
        }
        self.wide = None;
        let w = assigned_in(body, self.k.vars.len());
        // `close_threads` ends a scope that `open_threads` would have opened.
        self.hoist_scopes.push(false);
        self.close_threads(&w);
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// Inside the loop over the threads of an affine interleaved loop (`bz_tid`): the
    /// thread's block position, the skip of a stopped thread when the body `writes`,
    /// and its variables, the loop variable `var` set to `first`.
    pub(crate) fn affine_thread_open(&mut self, var: u32, first: &str, writes: bool) {
        let last = self.k.rank.clamp(1, 4) as usize - 1;
        for c in 0..last {
            self.line_out(&format!(
                "const i32 bz_blkpos{c} = 0; const i64 bz_b{c} = 0; (void)bz_b{c};"
            ));
        }
        self.line_out(&format!(
            "const i32 bz_blkpos{last} = (i32)bz_tid; const i64 bz_b{last} = bz_tid; (void)bz_b{last};"
        ));
        if writes {
            self.line_out("if (!bz_nd && bz_dead_a[bz_tid]) continue;");
        }
        self.thread_counters = true;
        self.line_out(super::fission::SPECIALS);
        for (i, d) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            let t = spell::ty(d.ty);
            let uniform = self.uniform_vals.iter().rev().find(|(v, _)| *v == i as u32);
            if i as u32 == var {
                self.line_out(&format!("{t} {name} = {first};"));
            } else if let Some((_, cur)) = uniform {
                // Set alike in every thread by an enclosing `uniform_loop`.
                self.line_out(&format!("{t} {name} = {cur};"));
            } else {
                let src = self.var_src(i, "bz_tid");
                self.line_out(&format!("{t} {name} = {src};"));
            }
        }
    }
}

impl Gen<'_> {
    /// The fixed parts of an index whose last component is the variable `var` and whose
    /// others are variables that an enclosing uniform loop sets alike in every thread,
    /// or integer constants: their C values, then `var`'s name.
    pub(crate) fn direct_index(&self, index: &[Expr], var: u32) -> Option<Vec<String>> {
        let (last, rest) = index.split_last()?;
        if !matches!(last.kind, ExprKind::Var(v) if v == var) {
            return None;
        }
        let mut atoms = Vec::new();
        for e in rest {
            atoms.push(match &e.kind {
                ExprKind::Var(u) => self
                    .uniform_vals
                    .iter()
                    .rev()
                    .find(|(w, _)| w == u)
                    .map(|(_, c)| c.clone())?,
                ExprKind::Const(blazar_kir::Const::Int(c)) => format!("{c}ll"),
                _ => return None,
            });
        }
        atoms.push(self.var_base(var));
        Some(atoms)
    }

    /// The arrays, with their indices' fixed parts (`direct_index`), that statements of
    /// `b` load, store or update.
    fn direct_accesses(&self, b: &[Stmt], var: u32, out: &mut Vec<(u32, Vec<String>)>) {
        blazar_kir::visit::walk_stmts(b, &mut |s| {
            if let StmtKind::Store { arr, index, .. } | StmtKind::Update { arr, index, .. } =
                &s.kind
            {
                if let Some(atoms) = self.direct_index(index, var) {
                    out.push((*arr, atoms));
                }
            }
            blazar_kir::visit::stmt_exprs(s, &mut |e| {
                blazar_kir::visit::walk_expr(e, &mut |x| {
                    if let ExprKind::Load { arr, index, .. } = &x.kind {
                        if let Some(atoms) = self.direct_index(index, var) {
                            out.push((*arr, atoms));
                        }
                    }
                })
            });
        });
    }
}
