//! Whole rows of an affine interleaved loop run a few at a time, each thread's in a row.
//!
//! `interleave::affine_loop` runs iteration `j` of every thread of the block before
//! iteration `j + 1` of any: a strided sum `acc += x[k]` then loads and stores each
//! thread's `acc` once per element it adds. When the body writes no memory, the threads
//! of the run share nothing (the interleaved form's conditions: no thread reads what
//! another writes, none stops in it), so any order that keeps each thread's iterations
//! in order gives every thread the same values: here thread `t` runs iterations
//! `j .. j + ROWS - 1` before thread `t + 1` runs iteration `j`. Each thread's
//! variables then stay in registers over [`ROWS`] iterations, and the loads of `ROWS`
//! rows (separate pages in a grid-stride loop) are in flight together. Only groups of
//! rows in which every thread has an iteration are taken; the rows left (at most
//! `ROWS - 1` full ones and the last, partial one) run as before. Each thread adds in
//! the same order as before, so floating-point results are unchanged. A body that holds
//! a loop of its own runs row by row as before.

use super::fission::assigned_in;
use super::Gen;
use crate::printer::Dialect;
use blazar_kir::{Stmt, StmtKind};

/// Iterations of each thread run together.
pub const ROWS: i64 = 4;

/// Whether `body` holds a loop: its iterations then cost more than a thread's variables'
/// load and store, and four copies of it would only lengthen the compile.
fn has_loop(body: &[&Stmt]) -> bool {
    let mut found = false;
    for s in body {
        blazar_kir::visit::walk_stmts(std::slice::from_ref(*s), &mut |s| {
            found |= matches!(s.kind, StmtKind::For { .. } | StmtKind::While { .. });
        });
    }
    found
}

impl Gen<'_> {
    /// In an affine interleaved loop whose body writes no memory (`bz_v0`, `bz_s0`,
    /// `bz_h0` as in `affine_run`): the groups of [`ROWS`] rows in which every thread
    /// runs, thread by thread. Returns the first value of the first thread left for the
    /// row-by-row loop (`bz_bj`).
    pub(crate) fn affine_jam(&mut self, var: u32, body: &[&Stmt]) -> &'static str {
        let n = ROWS;
        if has_loop(body) {
            return "bz_v0";
        }
        let last = n - 1;
        self.line_out("i64 bz_bj = bz_v0;");
        // Every thread's iteration in the group's last row is at most `bz_h0` (i64
        // sums of values within i32: no overflow).
        self.line_out(&format!(
            "for (; bz_bj + {last} * bz_s0 + bz_nt - 1 <= bz_h0; bz_bj += {n} * bz_s0) {{"
        ));
        self.o.depth += 1;
        // As in `affine_iterations`: read once per group, before its loop over the threads.
        self.line_out("const bool bz_nd = !bz_fe.code; (void)bz_nd;");
        self.line_out(&format!("for (int bz_ju = 0; bz_ju < {n}; bz_ju++) {{"));
        self.o.depth += 1;
        self.line_out(
            "const i64 bz_b = bz_bj + bz_ju * bz_s0, bz_n = bz_nt; (void)bz_b; (void)bz_n;",
        );
        self.stride_prefetch(body, var);
        self.o.depth -= 1;
        self.line_out("}");
        self.line_out("for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {");
        self.o.depth += 1;
        self.affine_thread_open(var, "(i32)(bz_bj + bz_tid)", false);
        let v = self.var_base(var);
        self.line_out(&format!("#pragma GCC unroll {n}"));
        self.line_out(&format!("for (int bz_ju = 0; bz_ju < {n}; bz_ju++) {{"));
        self.o.depth += 1;
        self.line_out("const i64 bz_vw = bz_bj + bz_ju * bz_s0 + bz_tid;");
        self.line_out(&format!("{v} = (i32)bz_vw;"));
        self.wide = Some((var, "bz_vw".to_string()));
        for s in body {
            self.block(std::slice::from_ref(*s));
        }
        self.wide = None;
        self.o.depth -= 1;
        self.line_out("}");
        let w = assigned_in(body, self.k.vars.len());
        // `close_threads` ends a scope that `open_threads` would have opened.
        self.hoist_scopes.push(false);
        self.close_threads(&w);
        self.o.depth -= 1;
        self.line_out("}");
        "bz_bj"
    }
}
