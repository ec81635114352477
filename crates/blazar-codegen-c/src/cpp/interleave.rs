//! Interleaved thread loops under fission: a counted loop that each thread of a block
//! runs over read-only memory becomes the outer loop, with the loop over the block's
//! threads inside, so that memory is walked as the threads of a GPU block walk it
//! (thread `t` of a strided sum reads `x[t + j * stride]`: contiguous for each `j`).
//!
//! A run of statements between two fission points qualifies when it is
//! `pre; for v = a..s..b (body); post`, where `pre`, the bounds and the loop body only
//! assign variables, read no `'checked` array (so they raise no error), and load only
//! global arrays that the kernel never writes. Then every thread's `pre` and iterations
//! touch only its own variables and memory that no thread changes during the launch,
//! and running them thread by thread or iteration by iteration gives the same values.
//! Each thread keeps its own bounds (evaluated once, as the executor does); the loop
//! ends when no thread has an iteration left; `post` then runs thread by thread.

use super::fission::assigned_in;
use super::Gen;
use crate::cpp::support::SlotKind;
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{Expr, ExprKind, Scalar, Stmt, StmtKind, Ty};

fn written(b: &[Stmt], out: &mut Vec<u32>) {
    for s in b {
        match &s.kind {
            StmtKind::Store { arr, .. } | StmtKind::Update { arr, .. } => out.push(*arr),
            StmtKind::If { then, els, .. } => {
                written(then, out);
                written(els, out);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => written(body, out),
            _ => {}
        }
    }
}

impl Gen<'_> {
    /// `e` raises no error and reads only global arrays that the kernel never writes;
    /// `loads` counts its loads.
    fn pure_read(&self, e: &Expr, written: &[u32], loads: &mut usize) -> bool {
        if self.has_checked(e) {
            return false;
        }
        let mut ok = true;
        blazar_kir::visit::walk_expr(e, &mut |x| {
            if let ExprKind::Load { arr, .. } = &x.kind {
                *loads += 1;
                ok &= self.plan.slots.get(*arr as usize) == Some(&SlotKind::Global)
                    && !written.contains(arr);
            }
        });
        ok
    }

    fn pure_stmts(&self, b: &[&Stmt], written: &[u32], loads: &mut usize) -> bool {
        b.iter().all(|s| match &s.kind {
            StmtKind::Assign { value, .. } => self.pure_read(value, written, loads),
            StmtKind::SetLane { lane, value, .. } => {
                self.pure_read(lane, written, loads) && self.pure_read(value, written, loads)
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
        let int = matches!(
            self.k.vars.get(*var as usize).map(|d| d.ty),
            Some(Ty::Scalar(Scalar::I32 | Scalar::I64))
        );
        let mut written_arrs = Vec::new();
        written(&self.k.body, &mut written_arrs);
        let (mut pre_loads, mut loads) = (0, 0);
        let body: Vec<&Stmt> = body.iter().collect();
        let ok = int
            && self.pure_stmts(&run[..i], &written_arrs, &mut pre_loads)
            && [start, step, end]
                .iter()
                .all(|e| self.pure_read(e, &written_arrs, &mut pre_loads))
            && self.pure_stmts(&body, &written_arrs, &mut loads)
            && loads > 0;
        ok.then_some(i)
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
        // `pre`, then each thread's bounds.
        let mut w = assigned_in(&run[..i], n);
        w[*var as usize] = true;
        self.open_threads(&w);
        self.line = run[i].line;
        for s in &run[..i] {
            self.block(std::slice::from_ref(*s));
        }
        let (a, b, c) = (self.expr(start), self.expr(step), self.expr(end));
        self.line_out(&format!("{v} = {a};"));
        self.line_out(&format!("bz_ist_a[bz_tid] = (i64)({b});"));
        self.line_out(&format!("bz_ihi_a[bz_tid] = (i64)({c});"));
        self.close_threads(&w);
        let body: Vec<&Stmt> = body.iter().collect();
        let affine = self.k.rank == 1 && t == "i32" && !assigned_in(&body, n)[*var as usize];
        if affine {
            self.line_out("{");
            self.o.depth += 1;
            self.affine_loop(*var, &body);
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
        if affine {
            self.o.depth -= 1;
            self.line_out("}");
        }
        let post: Vec<&Stmt> = run[i + 1..].to_vec();
        self.thread_loop(&post);
    }

    /// The common case of a rank-1 block whose threads start at consecutive values
    /// with the same step (positive) and end, in a loop whose body does not assign its
    /// variable: iteration `j` of thread `t` has the value
    /// `start + t + j * step`, so the threads of one iteration are a contiguous range
    /// and the loop over them is a plain counted loop (vector loads). Emits
    /// `if (all threads fit) { ... }`; the caller appends the general loop as `else`.
    fn affine_loop(&mut self, var: u32, body: &[&Stmt]) {
        let v = self.var_base(var);
        self.line_out(&format!(
            "const i64 bz_v0 = (i64){v}_a[0], bz_s0 = bz_ist_a[0], bz_h0 = bz_ihi_a[0];"
        ));
        self.line_out("bool bz_aff = bz_s0 > 0 && bz_h0 + bz_s0 <= 2147483647ll;");
        self.line_out(&format!(
            "for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) bz_aff &= (i64){v}_a[bz_tid] == bz_v0 + bz_tid && bz_ist_a[bz_tid] == bz_s0 && bz_ihi_a[bz_tid] == bz_h0;"
        ));
        self.line_out("if (bz_aff) {");
        self.o.depth += 1;
        self.line_out("for (i64 bz_b = bz_v0; bz_b <= bz_h0; bz_b += bz_s0) {");
        self.o.depth += 1;
        self.line_out("const i64 bz_n = bz_h0 - bz_b + 1 < bz_nt ? bz_h0 - bz_b + 1 : bz_nt;");
        self.line_out("for (i64 bz_tid = 0; bz_tid < bz_n; bz_tid++) {");
        self.o.depth += 1;
        self.line_out("const i64 bz_vw = bz_b + bz_tid;");
        self.line_out("const i32 bz_v = (i32)bz_vw, bz_blkpos0 = (i32)bz_tid;");
        self.line_out("const i64 bz_b0 = bz_tid; (void)bz_b0;");
        self.thread_counters = true;
        self.line_out(super::fission::SPECIALS);
        for (i, d) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            let t = spell::ty(d.ty);
            if i as u32 == var {
                self.line_out(&format!("{t} {name} = bz_v;"));
            } else {
                self.line_out(&format!("{t} {name} = {name}_a[bz_tid];"));
            }
        }
        // Indexing with the loop variable uses its exact i64 value (affine in `bz_tid`;
        // the body does not assign the variable).
        self.wide = Some((var, "bz_vw".to_string()));
        for s in body {
            self.block(std::slice::from_ref(*s));
        }
        self.wide = None;
        self.line_out(&format!("{v} += (i32)bz_s0;"));
        let mut w = assigned_in(body, self.k.vars.len());
        w[var as usize] = true;
        self.close_threads(&w);
        self.o.depth -= 1;
        self.line_out("}");
        self.o.depth -= 1;
        self.line_out("}");
    }
}
