//! Barriers under conditions that depend on the thread, under loop fission.
//!
//! An `if` whose condition may differ between the threads of a block and that holds a
//! barrier runs as the SIMT interpreter runs it: the condition of every running thread
//! goes into a per-thread mask (`bz_m<i>_a`), the `then` statements run for the threads
//! of that mask (thread loops skip the others), then the `else` statements for the
//! rest. A barrier waits for the threads that reach it; the running threads that do
//! not reach it skip it (`bz_skip_a`), and a skipped thread that reaches any barrier
//! later is the executor's error (`code::DIVERGENCE`). Kernels with a barrier in a loop
//! whose iterations depend on the thread are left to the interpreter (`support.rs`).

use super::Gen;
use crate::cpp::code;
use crate::printer::Dialect;
use blazar_kir::{Expr, Stmt};

impl Gen<'_> {
    /// A fresh per-thread mask.
    fn new_mask(&mut self) -> String {
        self.masks += 1;
        format!("bz_m{}_a", self.masks - 1)
    }

    /// `if (mask[bz_tid]) ` when a mask is in force (a prefix for per-thread stores).
    pub(crate) fn only_active(&self) -> String {
        match &self.active {
            Some(m) => format!("if ({m}[bz_tid]) "),
            None => String::new(),
        }
    }

    /// `if cond then ... else ... end` on a varying `cond` holding a barrier.
    pub(crate) fn masked_if(&mut self, cond: &Expr, then: &[Stmt], els: &[Stmt]) {
        let m = self.new_mask();
        self.line_out(&format!("memset({m}, 0, (size_t)bz_nt);"));
        let none = vec![false; self.k.vars.len()];
        self.open_threads(&none);
        let x = self.expr(cond);
        self.line_out(&format!("{m}[bz_tid] = (unsigned char)({x});"));
        if self.has_checked(cond) {
            self.line_out("if (bz_e.code) goto bz_abort;");
        }
        self.close_threads(&none);
        let outer = self.active.replace(m.clone());
        self.fblock(then);
        if !els.is_empty() {
            let e = self.new_mask();
            let running = match &outer {
                Some(o) => format!("{o}[bz_tid] && "),
                None => String::new(),
            };
            self.line_out(&format!(
                "for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {e}[bz_tid] = {running}!{m}[bz_tid];"
            ));
            self.active = Some(e);
            self.fblock(els);
        }
        self.active = outer;
    }

    /// `syncthreads`: the end of one thread loop and the start of the next, and, where
    /// barriers may be skipped, the check that no thread which skipped one is here.
    pub(crate) fn barrier(&mut self) {
        self.line_out("// syncthreads");
        if !self.divergent {
            return;
        }
        let (line, div) = (self.line, code::DIVERGENCE);
        let fail = format!("{{ bz_e.code = {div}; bz_e.line = {line}; goto bz_abort; }}");
        let body = match &self.active {
            Some(m) => format!(
                "if ({m}[bz_tid]) {{ if (bz_skip_a[bz_tid]) {fail} }} else bz_skip_a[bz_tid] = 1;"
            ),
            None => format!("if (bz_skip_a[bz_tid]) {fail}"),
        };
        self.line_out(&format!(
            "for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {body}"
        ));
    }
}
