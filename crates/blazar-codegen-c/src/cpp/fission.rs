//! Loop fission: kernels with barriers or shared memory, one block per work item.
//!
//! The body is cut at its fission points (barriers, shared allocations, and the
//! block-uniform `if`/`while`/`for` that hold them). Each run of statements between two
//! points becomes a loop over the block's threads (`bz_tid`, row-major in the block),
//! so a barrier is simply the end of one thread loop and the start of the next. Every
//! variable lives in a per-thread array (`v[bz_tid]`). The conditions and bounds of
//! uniform control flow, and the extents of shared allocations, are evaluated by thread
//! 0 (the barrier checker guarantees that all threads agree). Shared arrays belong to the
//! block and are zero-filled when allocated, as in the executor.

use super::descend::Piece;
use super::Gen;
use crate::cpp::support::{has_barrier, SlotKind};
use crate::printer::Dialect;
use crate::spell::{self, scalar};
use blazar_kir::{ArrId, Expr, Stmt, StmtKind, Ty};
use std::fmt::Write;

/// Marks where the specials of the current thread are declared (filled in once the
/// body is generated and the specials it uses are known).
pub(crate) const SPECIALS: &str = "/*@@specials@@*/";

impl Gen<'_> {
    /// A block of statements under fission.
    /// Its runs and fission points go to `fblock_pairs` (`descend`: a load run and an
    /// update run around a barrier may run as one loop).
    pub fn fblock(&mut self, b: &[Stmt]) {
        let mut pieces = Vec::new();
        let mut run: Vec<&Stmt> = Vec::new();
        for s in b {
            if has_barrier(s) {
                pieces.push(Piece::Run(std::mem::take(&mut run)));
                pieces.push(Piece::Point(s));
            } else {
                run.push(s);
            }
        }
        pieces.push(Piece::Run(run));
        self.fblock_pairs(pieces);
    }

    /// The statements of `run`: uniform assignments at its ends once per block, those
    /// of specials to their aliases not at all (`once`), the others in one loop over the block's threads (with a counted loop
    /// over read-only memory interleaved across the threads when they allow it).
    pub(crate) fn thread_loop(&mut self, run: &[&Stmt]) {
        // Assignments of specials to their aliases are not run; uniform assignments at
        // the run's ends run once (`once`).
        let run: Vec<&Stmt> = run
            .iter()
            .filter(|s| !self.alias_assign(s))
            .copied()
            .collect();
        let run = run.as_slice();
        if run.is_empty() {
            return;
        }
        let (pre, post) = self.once_split(run);
        for s in &run[..pre] {
            self.run_once(s);
        }
        self.threads_of(&run[pre..run.len() - post]);
        for s in &run[run.len() - post..] {
            self.run_once(s);
        }
    }

    /// The loop over the block's threads of `run`.
    pub(crate) fn threads_of(&mut self, run: &[&Stmt]) {
        if run.is_empty() {
            return;
        }
        if self.active.is_none() {
            if let Some(i) = self.interleave_split(run) {
                return self.interleaved(run, i);
            }
        }
        let assigned = assigned_in(run, self.k.vars.len());
        self.open_threads(&assigned);
        for s in run {
            self.block(std::slice::from_ref(*s));
        }
        let mut written = assigned;
        for (w, l) in written.iter_mut().zip(&self.run_local) {
            *w &= !*l;
        }
        self.close_threads(&written);
    }

    /// Opens a loop over the block's threads with the thread's variables as locals;
    /// `assigned` marks the variables the loop's statements assign.
    ///
    /// A variable that is the same in every thread of the block (`varying` is false)
    /// and that the loop does not assign is read once, before the loop, from the
    /// lowest running thread, as the conditions of uniform control flow are: the loop
    /// then reads one value instead of an element per thread, and an index such as
    /// `s[blkpos - d]` is contiguous in the thread, which the C++ compiler can vectorise.
    pub(crate) fn open_threads(&mut self, assigned: &[bool]) {
        let hoisted: Vec<bool> = (0..self.k.vars.len())
            .map(|i| {
                !self.varying.get(i).copied().unwrap_or(true)
                    && !assigned.get(i).copied().unwrap_or(true)
            })
            .collect();
        self.line_out("{");
        self.o.depth += 1;
        // No thread of the block has stopped when its lowest failure is unset (a thread
        // that fails in this loop stops itself only): the loop's test of its stopped
        // threads is then a constant, and the C++ compiler keeps a copy of the loop
        // without it (vector code without masks of the flags).
        self.line_out("const bool bz_nd = !bz_fe.code;");
        if hoisted.iter().any(|&h| h) {
            self.line_out("const i64 bz_h = bz_u < bz_nt ? bz_u : 0;");
            for (i, v) in self.k.vars.iter().enumerate() {
                if hoisted[i] {
                    let name = self.var_base(i as u32);
                    let t = spell::ty(v.ty);
                    let src = self.var_src(i, "bz_h");
                    self.line_out(&format!("const {t} {name} = {src};"));
                }
            }
        }
        self.hoist_scopes.push(true);
        // Nested loops over the block's components (row-major, no division per thread).
        let r = self.k.rank.clamp(1, 4) as usize;
        // The counters are i64 (`bz_b<c>`), so that indices computed from them are
        // affine for the C++ compiler (`widen`); `bz_blkpos<c>` is their i32 value.
        // (A rank-1 loop over threads `lo..hi` from the top down: `descend`.)
        let descending = self.thread_range.take();
        match &descending {
            Some((lo, hi)) if r == 1 => {
                self.line_out(&format!(
                    "for (i64 bz_b0 = ({hi}) - 1; bz_b0 >= ({lo}); bz_b0--)"
                ));
            }
            _ => {
                for c in 0..r {
                    self.line_out(&format!(
                        "for (i64 bz_b{c} = 0; bz_b{c} < bz_kb{c}; bz_b{c}++)"
                    ));
                }
            }
        }
        self.line_out("{");
        self.o.depth += 1;
        let blkpos: Vec<String> = (0..r)
            .map(|c| format!("bz_blkpos{c} = (i32)bz_b{c}"))
            .collect();
        self.line_out(&format!("const i32 {};", blkpos.join(", ")));
        let tid = (1..r).fold("bz_b0".to_string(), |a, c| {
            format!("({a}) * bz_kb{c} + bz_b{c}")
        });
        self.line_out(&format!("const i64 bz_tid = {tid};"));
        self.thread_counters = true;
        match &self.active {
            // (No thread of the block has stopped there: `descend` checks it.)
            None if descending.is_some() => {}
            Some(m) => {
                let m = m.clone();
                self.line_out(&format!(
                    "if (!{m}[bz_tid] || (!bz_nd && bz_dead_a[bz_tid])) continue;"
                ));
            }
            None => self.line_out("if (!bz_nd && bz_dead_a[bz_tid]) continue;"),
        }
        // The thread's own scope: an error leaves it for the failure label below.
        self.line_out("{");
        self.catch = Some((self.o.text.len(), self.next_catch));
        self.next_catch += 1;
        self.line_out(SPECIALS);
        // The thread's variables as locals (registers), written back when assigned.
        for (i, v) in self.k.vars.iter().enumerate() {
            if hoisted[i] {
                continue;
            }
            let name = self.var_base(i as u32);
            let t = spell::ty(v.ty);
            let src = self.var_src(i, "bz_tid");
            self.line_out(&format!("{t} {name} = {src};"));
        }
    }

    /// Writes back the variables marked in `written` and closes the thread loop.
    pub(crate) fn close_threads(&mut self, written: &[bool]) {
        self.thread_counters = false;
        for (i, w) in written.iter().enumerate() {
            if *w {
                let name = self.var_base(i as u32);
                self.line_out(&format!("{name}_a[bz_tid] = {name};"));
            }
        }
        if let Some((start, id)) = self.catch.take() {
            // An error stops this thread only (`bz_thread_failed`); the others run on.
            let body = self.o.text.split_off(start);
            self.o
                .text
                .push_str(&body.replace("goto bz_abort;", &format!("goto bz_tf{id};")));
            self.line_out("}");
            self.line_out("continue;");
            self.line_out(&format!(
                "bz_tf{id}: bz_thread_failed(bz_e, bz_fe, bz_fe_tid, bz_tid, bz_dead_a, bz_u, bz_nt);"
            ));
        }
        self.o.depth -= 1;
        self.line_out("}");
        if self.hoist_scopes.pop().unwrap_or(false) {
            self.o.depth -= 1;
            self.line_out("}");
        }
    }

    /// Opens a scope where thread 0 evaluates uniform values.
    pub(crate) fn uniform_open(&mut self) {
        self.line_out("{");
        self.o.depth += 1;
        // The lowest thread still running (all running threads agree on uniform
        // values; stopped ones keep stale copies).
        self.line_out("const i64 bz_tid = bz_u < bz_nt ? bz_u : 0;");
        let r = self.k.rank.clamp(1, 4) as usize;
        let zeros: Vec<String> = (0..r).map(|c| format!("bz_blkpos{c} = 0")).collect();
        self.line_out(&format!("const i32 {};", zeros.join(", ")));
        self.line_out(SPECIALS);
        for (i, v) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            let t = spell::ty(v.ty);
            let src = self.var_src(i, "bz_tid");
            self.line_out(&format!("const {t} {name} = {src};"));
        }
    }

    pub(crate) fn close(&mut self) {
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// A uniform boolean `cond` evaluated by thread 0 into a fresh variable.
    fn uniform_cond(&mut self, cond: &Expr) -> String {
        let c = self.tmp();
        self.line_out(&format!("bool {c};"));
        self.uniform_open();
        let x = self.expr(cond);
        // With no thread left running, no branch or iteration is taken.
        self.line_out(&format!("{c} = bz_u < bz_nt && ({x});"));
        if self.has_checked(cond) {
            self.line_out("if (bz_e.code) goto bz_abort;");
        }
        self.close();
        c
    }

    pub(crate) fn fission_stmt(&mut self, s: &Stmt) {
        self.line = s.line;
        match &s.kind {
            StmtKind::Barrier => self.barrier(),
            StmtKind::AllocShared { arr, dims, zero } => {
                self.uniform_open();
                self.alloc_shared(*arr, dims, *zero);
                self.close();
            }
            StmtKind::If { cond, then, els }
                if blazar_kir::uniform::is_varying(cond, &self.varying) =>
            {
                self.masked_if(cond, then, els)
            }
            StmtKind::If { cond, then, els } => {
                self.line_out("{");
                self.o.depth += 1;
                let c = self.uniform_cond(cond);
                self.line_out(&format!("if ({c}) {{"));
                self.o.depth += 1;
                self.fblock(then);
                self.o.depth -= 1;
                self.line_out("} else {");
                self.o.depth += 1;
                self.fblock(els);
                self.close();
                self.close();
            }
            StmtKind::While { .. } if crate::cpp::support::once_body(s).is_some() => {
                self.fblock(crate::cpp::support::once_body(s).unwrap_or_default());
            }
            StmtKind::While { cond, body } => {
                self.line_out("for (;;) {");
                self.o.depth += 1;
                let c = self.uniform_cond(cond);
                self.line_out(&format!("if (!{c}) break;"));
                self.fblock(body);
                self.close();
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                let t = spell::ty(start.ty);
                let (lo, st, hi, cur) = (self.tmp(), self.tmp(), self.tmp(), self.tmp());
                self.line_out("{");
                self.o.depth += 1;
                self.line_out(&format!("{t} {lo}, {st}, {hi};"));
                self.uniform_open();
                for (name, e) in [(&lo, start), (&st, step), (&hi, end)] {
                    let x = self.expr(e);
                    self.line_out(&format!("{name} = {x};"));
                    if self.has_checked(e) {
                        self.line_out("if (bz_e.code) goto bz_abort;");
                    }
                }
                self.close();
                let v = self.var_base(*var);
                self.line_out(&format!("{t} {cur} = {lo};"));
                self.line_out(&format!(
                    "for (; (({t})0 < {st}) ? ({cur} <= {hi}) : ({hi} <= {cur}); {cur} += {st}) {{"
                ));
                self.o.depth += 1;
                let only = self.only_active();
                self.line_out(&format!(
                    "for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {only}{v}_a[bz_tid] = {cur};"
                ));
                self.fblock(body);
                self.close();
                let only = self.only_active();
                self.line_out(&format!(
                    "for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {only}{v}_a[bz_tid] = {cur};"
                ));
                self.close();
            }
            _ => self.block(std::slice::from_ref(s)),
        }
    }

    /// `@a = shared(dims)` / `shared_zeros(dims)`: block memory, always zero-filled.
    fn alloc_shared(&mut self, a: ArrId, dims: &[Expr], zero: bool) {
        let Some(Ty::Array(t)) = self.k.arrays.get(a as usize).map(|d| d.ty) else {
            return;
        };
        let name = self.arr_name(a);
        let ct = scalar(t.elem);
        let r = t.rank as usize;
        let ds = self.alloc_extents(dims, r, if zero { 4 } else { 3 });
        let line = self.line;
        self.line_out(&format!("const u64 bz_b = bz_mul_sat(bz_n, sizeof({ct}));"));
        self.line_out(&format!(
            "if (bz_b > (256ull << 20)) {{ bz_e.code = 7; bz_e.line = {line}; bz_e.a = bz_b; goto bz_abort; }}"
        ));
        self.line_out(&format!("if (bz_n > {name}_cap) {{"));
        self.line_out(&format!(
            "  {ct}* bz_p = ({ct}*)realloc({name}, bz_b > 0 ? bz_b : 1);"
        ));
        self.line_out(&format!(
            "  if (!bz_p) {{ bz_e.code = 7; bz_e.line = {line}; bz_e.a = bz_b; goto bz_abort; }}"
        ));
        self.line_out(&format!("  {name} = bz_p; {name}_cap = bz_n;\n}}"));
        self.line_out(&format!(
            "for (u64 bz_q = 0; bz_q < bz_n; bz_q++) {name}[bz_q] = {ct}{{}};"
        ));
        for (d, v) in ds.iter().take(r).enumerate() {
            self.line_out(&format!("{name}_d{d} = {v};"));
        }
    }

    /// Declarations of the specials of thread `bz_blkpos*` of block `bz_bidx*` (the
    /// block-wide ones are computed once per block).
    fn blocky_specials(&self, indent: &str) -> String {
        let r = self.k.rank.clamp(1, 4) as usize;
        let parts: Vec<String> = (0..r)
            .map(|c| format!("bz_pos{c} = bz_blkidx{c} * bz_blkdim{c} + bz_blkpos{c}"))
            .collect();
        format!("{indent}const i32 {};", parts.join(", "))
            .trim_start()
            .to_string()
    }

    /// The entry point of a kernel run by loop fission.
    pub(super) fn assemble_blocky(&self, body: &str) -> String {
        let k = self.k;
        let r = k.rank.clamp(1, 4) as usize;
        let mut s = self.header();
        s.push_str("  const i64 bz_nt = bz_c->chunk;\n  int bz_rc = 0;\n");
        s.push_str("  bz_err bz_fe = {}, bz_best = {};\n  i64 bz_fe_tid = 0, bz_u = 0, bz_bi[4] = {0, 0, 0, 0};\n");
        for (i, v) in k.vars.iter().enumerate() {
            let t = spell::ty(v.ty);
            let _ = writeln!(
                s,
                "  {t}* {}_a = ({t}*)malloc(sizeof({t}) * (bz_nt > 0 ? bz_nt : 1));",
                self.var_base(i as u32)
            );
            if self.held.get(i).copied().unwrap_or(false) {
                let _ = writeln!(s, "  {t} {}_u = {{}};", self.var_base(i as u32));
            }
        }
        let vars: Vec<String> = (0..k.vars.len())
            .map(|i| format!("{}_a", self.var_base(i as u32)))
            .collect();
        // Per-thread step and end of an interleaved loop (`emit::interleave`), and the
        // masks and skipped-barrier flags of barriers under varying conditions.
        let mut scratch = vec!["bz_ist_a".to_string(), "bz_ihi_a".to_string()];
        let flags: Vec<String> = (0..self.masks)
            .map(|i| format!("bz_m{i}_a"))
            .chain(self.divergent.then(|| "bz_skip_a".to_string()))
            .chain(["bz_dead_a".to_string()])
            .collect();
        for v in &scratch {
            let _ = writeln!(
                s,
                "  i64* {v} = (i64*)malloc(sizeof(i64) * (bz_nt > 0 ? bz_nt : 1));"
            );
        }
        for v in &flags {
            let _ = writeln!(
                s,
                "  unsigned char* {v} = (unsigned char*)malloc(bz_nt > 0 ? bz_nt : 1);"
            );
        }
        scratch.extend(flags);
        let check = vars
            .iter()
            .chain(&scratch)
            .map(|v| format!("!{v}"))
            .collect::<Vec<_>>()
            .join(" || ");
        let _ = writeln!(
            s,
            "  if ({check}) {{ bz_e.code = 7; bz_e.a = (u64)bz_nt; goto bz_abort; }}"
        );
        // A failing thread stops (`bz_dead_a`), the others run on; the block reports
        // its lowest failing thread (`bz_fe`), the range its failure of lowest linear
        // position (`bz_best`), and `stop` the lowest position found by any range:
        // blocks starting past it are not run.
        s.push_str("  for (; bz_item < bz_hi; bz_item++) {\n");
        s.push_str("    i64 bz_rb = bz_item;\n");
        s.push_str("    memset(bz_dead_a, 0, (size_t)bz_nt);\n    bz_u = 0; bz_fe.code = 0;\n");
        if self.divergent {
            s.push_str("    memset(bz_skip_a, 0, (size_t)bz_nt);\n");
        }
        for c in (0..r).rev() {
            let _ = writeln!(
                s,
                "    const i64 bz_bidx{c} = bz_rb % (bz_kd{c} / bz_kb{c}); bz_rb /= bz_kd{c} / bz_kb{c};"
            );
        }
        for c in 0..r {
            let _ = writeln!(
                s,
                "    const i32 bz_blkidx{c} = (i32)bz_bidx{c}, bz_blkdim{c} = (i32)bz_kb{c}, bz_blkcnt{c} = (i32)(bz_kd{c} / bz_kb{c});"
            );
        }
        // The block index of the current item (also for the abort path).
        for c in 0..r {
            let _ = writeln!(s, "    bz_bi[{c}] = bz_bidx{c};");
        }
        let first = (0..r).fold("(i64)0".to_string(), |a, c| {
            format!("({a}) * bz_kd{c} + bz_bidx{c} * bz_kb{c}")
        });
        let _ = writeln!(
            s,
            "    if (__atomic_load_n(bz_c->stop, __ATOMIC_RELAXED) < {first}) break;"
        );
        for (i, o) in k.outputs.iter().enumerate() {
            let t = spell::scalar(o.ty);
            let op = spell::op_code(crate::names::partial_op(o.op));
            let _ = writeln!(s, "    {t} bz_acc{i} = bz_identity<{op}, {t}>();");
        }
        for (i, v) in vars.iter().enumerate() {
            if self.held.get(i).copied().unwrap_or(false) {
                let _ = writeln!(
                    s,
                    "    {}_u = {};",
                    self.var_base(i as u32),
                    self.var_init(i)
                );
                continue;
            }
            let _ = writeln!(
                s,
                "    for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {v}[bz_tid] = {};",
                self.var_init(i)
            );
        }
        for (a, slot) in self.plan.slots.iter().enumerate() {
            if *slot == SlotKind::Shared {
                let name = self.arr_name(a as u32);
                let Ty::Array(t) = k.arrays[a].ty else {
                    continue;
                };
                for d in 0..t.rank {
                    let _ = writeln!(s, "    {name}_d{d} = 0;");
                }
            }
        }
        let indent = |l: &str| l.len() - l.trim_start().len();
        for l in body.lines() {
            if l.trim() == SPECIALS {
                let pad = " ".repeat(indent(l));
                let _ = writeln!(s, "{pad}{}", self.blocky_specials(&pad));
            } else {
                let _ = writeln!(s, "{l}");
            }
        }
        let key = |tid: &str| {
            let mut t = format!("    {{ i64 bz_r = {tid}, bz_t[4] = {{0, 0, 0, 0}};");
            for c in (0..r).rev() {
                let _ = write!(t, " bz_t[{c}] = bz_r % bz_kb{c}; bz_r /= bz_kb{c};");
            }
            let pos = (0..r).fold("(i64)0".to_string(), |a, c| {
                format!("({a}) * bz_kd{c} + bz_bi[{c}] * bz_kb{c} + bz_t[{c}]")
            });
            let _ = write!(t, " bz_key = {pos}; }}");
            t
        };
        s.push_str("    if (bz_fe.code) {\n      i64 bz_key = 0;\n");
        let _ = writeln!(s, "  {}", key("bz_fe_tid"));
        s.push_str("      bz_fe.item = bz_item; bz_fe.pos = bz_key;\n");
        s.push_str("      if (!bz_best.code || bz_key < bz_best.pos) bz_best = bz_fe;\n");
        s.push_str("      bz_stop_min(bz_c->stop, bz_key);\n      continue;\n    }\n");
        for (i, o) in k.outputs.iter().enumerate() {
            let _ = writeln!(
                s,
                "    memcpy(bz_parts + (bz_item * {} + {i}) * {}, &bz_acc{i}, sizeof({}));",
                k.outputs.len(),
                super::PARTIAL_BYTES,
                spell::scalar(o.ty)
            );
        }
        // The end of the range: its best failure, if any. An error in code the block
        // runs once (a uniform condition, a shared allocation) is the failure of its
        // lowest running thread and ends the range.
        s.push_str("  }\n  if (bz_best.code) { *bz_out = bz_best; bz_rc = bz_best.code; }\n  goto bz_end;\nbz_abort:\n  {\n    i64 bz_key = 0;\n");
        let _ = writeln!(s, "  {}", key("bz_u < bz_nt ? bz_u : 0"));
        s.push_str("    bz_e.item = bz_item; bz_e.pos = bz_key;\n");
        s.push_str(
            "    if (bz_fe.code && bz_fe_tid <= bz_u) { bz_e = bz_fe; bz_e.item = bz_item; }\n",
        );
        s.push_str("    if (bz_fe.code && bz_fe_tid <= bz_u) {\n");
        let _ = writeln!(s, "  {}", key("bz_fe_tid"));
        s.push_str("      bz_e.pos = bz_key;\n    }\n");
        s.push_str("    if (bz_best.code && bz_best.pos < bz_e.pos) bz_e = bz_best;\n");
        s.push_str("    *bz_out = bz_e;\n    bz_rc = bz_e.code;\n  }\nbz_end:\n");
        s.push_str(&self.private_merge());
        for v in vars.iter().chain(&scratch) {
            let _ = writeln!(s, "  free({v});");
        }
        for (a, slot) in self.plan.slots.iter().enumerate() {
            if *slot == SlotKind::Shared {
                let _ = writeln!(s, "  free({});", self.arr_name(a as u32));
            }
        }
        s.push_str("  return bz_rc;\n}\n");
        self.finish_fn(&mut s);
        s
    }
}

/// Which variables the statements of `run` assign.
pub(crate) fn assigned_in(run: &[&Stmt], n: usize) -> Vec<bool> {
    let mut written = vec![false; n];
    for s in run {
        mark_assigned(s, &mut written);
    }
    written
}

/// Marks the variables that `s` assigns.
fn mark_assigned(s: &Stmt, out: &mut [bool]) {
    let mut mark = |v: u32| {
        if let Some(w) = out.get_mut(v as usize) {
            *w = true;
        }
    };
    match &s.kind {
        StmtKind::Assign { var, .. } | StmtKind::SetLane { var, .. } => mark(*var),
        StmtKind::For { var, body, .. } => {
            mark(*var);
            body.iter().for_each(|s| mark_assigned(s, out));
        }
        StmtKind::If { then, els, .. } => {
            then.iter().chain(els).for_each(|s| mark_assigned(s, out))
        }
        StmtKind::While { body, .. } => body.iter().for_each(|s| mark_assigned(s, out)),
        _ => {}
    }
}
