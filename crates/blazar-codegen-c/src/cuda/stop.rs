//! A failing thread stops, in kernels with barriers (as on the CPU tiers and the SIMT
//! interpreter): it records its error, skips the rest of its work, and the other
//! threads of its block run on without waiting for it.
//!
//! Kernels without barriers stop a thread at an assert or an allocation that fails
//! (`return`); nothing can wait for it. In a kernel with barriers the thread keeps a
//! flag, `bz_stop`, set where an error is recorded: an assert, a negative extent, an
//! allocation that does not fit, and a `'checked` access outside its array (its offset
//! passes through `bz_chk`). The statement that failed has no effect (its stores test
//! the flag after their operands), and then:
//!
//! - With the software barrier (`barrier.rs`) the thread leaves the kernel at once, as
//!   a `return` does ([`Stops::Leave`]): it is no longer expected at any barrier. Every
//!   statement that may have failed tests the flag right after its operands (an `if`'s
//!   condition goes to a variable first), before any branch or barrier.
//! - With `__syncthreads()` (every barrier under block-uniform control flow) a thread
//!   may not leave while others will wait for it ([`Stops::Guard`]): the stopped thread
//!   runs on through the block-uniform control flow to every barrier the others reach,
//!   with the rest of its work skipped. Each statement runs under `if (!bz_stop)`
//!   except those the block's control flow needs: barriers, shared allocations (every
//!   thread fills its part), assignments of block-uniform variables (they decide the
//!   uniform branches and loops; every thread computes the same value), `break`,
//!   `continue` and `return`, and the control statements that hold one of these. A loop
//!   holding none of them is left as soon as the thread has stopped. Stopped threads
//!   skip their stores, so a uniform loop whose trip count depends on memory (its
//!   condition or bounds, or an exit under a condition, read an array, directly or
//!   through variables) could run on forever once every thread of the block has
//!   stopped: a barrier inside such a loop is `__syncthreads_or(!bz_stop)`, where such
//!   a block leaves together. Other barriers stay `__syncthreads()` (the vote cost
//!   row_sort 7% on an H200), since the control flow around them is the same with or
//!   without the skipped stores.
//!
//! The error record keeps the failure of the lowest position, so a stopped thread's
//! further failures (its reads while it runs on) change nothing there.

use crate::cuda::kernel::Gen;
use crate::names;
use crate::printer::Dialect;
use blazar_kir::visit::walk_stmts;
use blazar_kir::{Expr, ExprKind, Kernel, ReadMode, Stmt, StmtKind, Ty, WriteMode};
use std::collections::HashSet;

/// How a failing thread stops (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stops {
    /// No barrier: an assert or allocation that fails ends the thread; a failed access
    /// reads zero and skips its write.
    Off,
    /// Software barrier: the thread leaves the kernel.
    Leave,
    /// Hardware barrier: the thread runs on to the barriers with its work skipped.
    Guard,
}

/// The device code of stopped threads, added to kernels that keep the flag.
pub const PRELUDE_STOP: &str = r#"
// ---- Blazar prelude: stopped threads (kernels with barriers whose threads may fail) ----
// An offset from a checked access: -1 (outside the array) stops the thread.
__device__ __forceinline__ i32 bz_chk(bool& st, i32 o) { if (o < 0) st = true; return o; }
// Stores of a thread that may have stopped while evaluating their operands: the flag
// is read after them (arguments are evaluated before the body).
template<typename T, typename V, typename... R> __device__ __forceinline__ void bz_putz_s(const bool& st, T* p, V v, R... idx) {
  i32 off = 0;
  if (bz_in(off, idx...) && !st) p[(u32)off] = (T)v;
}
template<typename T, typename V> __device__ __forceinline__ void bz_put_s(const bool& st, T* p, i32 o, V v) { if (o >= 0 && !st) p[(u32)o] = (T)v; }
template<typename T, typename V> __device__ __forceinline__ void bz_put_u(const bool& st, T* p, i32 o, V v) { if (!st) p[o] = (T)v; }
"#;

/// Per variable of `k`: whether its value may come from memory (a load, a call's
/// result, or such a variable).
fn from_memory(k: &Kernel) -> Vec<bool> {
    fn mark(b: &[Stmt], m: &mut Vec<bool>) {
        for s in b {
            match &s.kind {
                StmtKind::Assign { var, value } | StmtKind::SetLane { var, value, .. } => {
                    if reads_memory(value, m) {
                        m[*var as usize] = true;
                    }
                }
                StmtKind::Call { outs, .. } => outs.iter().for_each(|v| m[*v as usize] = true),
                StmtKind::If { then, els, .. } => {
                    mark(then, m);
                    mark(els, m);
                }
                StmtKind::While { body, .. } => mark(body, m),
                StmtKind::For {
                    var,
                    start,
                    step,
                    end,
                    body,
                } => {
                    if [start, step, end].iter().any(|e| reads_memory(e, m)) {
                        m[*var as usize] = true;
                    }
                    mark(body, m);
                }
                _ => {}
            }
        }
    }
    let mut m = vec![false; k.vars.len()];
    loop {
        let before = m.clone();
        mark(&k.body, &mut m);
        if before == m {
            return m;
        }
    }
}

fn reads_memory(e: &Expr, m: &[bool]) -> bool {
    let mut found = false;
    blazar_kir::visit::walk_expr(e, &mut |x| {
        found |= match &x.kind {
            ExprKind::Load { .. } => true,
            ExprKind::Var(v) => m.get(*v as usize).copied().unwrap_or(true),
            _ => false,
        }
    });
    found
}

/// A loop whose trip count may depend on memory: its condition or bounds, or the
/// condition of an `if` inside it that holds an exit, read it.
fn memory_loop(s: &Stmt, m: &[bool]) -> bool {
    fn exits(b: &[Stmt]) -> bool {
        let mut found = false;
        walk_stmts(b, &mut |s| {
            found |= matches!(
                s.kind,
                StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return
            )
        });
        found
    }
    fn guarded_exit(b: &[Stmt], m: &[bool]) -> bool {
        b.iter().any(|s| match &s.kind {
            StmtKind::If { cond, then, els } => {
                (reads_memory(cond, m) && (exits(then) || exits(els)))
                    || guarded_exit(then, m)
                    || guarded_exit(els, m)
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => guarded_exit(body, m),
            _ => false,
        })
    }
    match &s.kind {
        StmtKind::While { cond, body } => reads_memory(cond, m) || guarded_exit(body, m),
        StmtKind::For {
            start,
            step,
            end,
            body,
            ..
        } => [start, step, end].iter().any(|e| reads_memory(e, m)) || guarded_exit(body, m),
        _ => false,
    }
}

/// The barriers of `k` inside a loop whose trip count may depend on memory.
pub(crate) fn voting_barriers(k: &Kernel) -> HashSet<*const Stmt> {
    fn walk(b: &[Stmt], inside: bool, m: &[bool], out: &mut HashSet<*const Stmt>) {
        for s in b {
            match &s.kind {
                StmtKind::Barrier if inside => {
                    out.insert(s as *const Stmt);
                }
                StmtKind::If { then, els, .. } => {
                    walk(then, inside, m, out);
                    walk(els, inside, m, out);
                }
                StmtKind::While { body, .. } | StmtKind::For { body, .. } => {
                    walk(body, inside || memory_loop(s, m), m, out)
                }
                _ => {}
            }
        }
    }
    let m = from_memory(k);
    let mut out = HashSet::new();
    walk(&k.body, false, &m, &mut out);
    out
}

/// Whether `s`, or a statement inside it, is one the block's control flow needs.
fn needed(s: &Stmt, varying: &[bool]) -> bool {
    let uniform = |v: &u32| !varying.get(*v as usize).copied().unwrap_or(true);
    match &s.kind {
        StmtKind::Barrier
        | StmtKind::AllocShared { .. }
        | StmtKind::Break(_)
        | StmtKind::Continue(_)
        | StmtKind::Return => true,
        StmtKind::Assign { var, .. } | StmtKind::SetLane { var, .. } => uniform(var),
        StmtKind::If { then, els, .. } => then.iter().chain(els).any(|x| needed(x, varying)),
        StmtKind::While { body, .. } => body.iter().any(|x| needed(x, varying)),
        StmtKind::For { var, body, .. } => uniform(var) || body.iter().any(|x| needed(x, varying)),
        _ => false,
    }
}

impl Gen<'_> {
    /// `e` reads a `'checked` array (and so may stop the thread).
    pub(crate) fn may_fail(&self, e: &Expr) -> bool {
        let mut found = false;
        blazar_kir::visit::walk_expr(e, &mut |x| {
            if let ExprKind::Load { arr, .. } = &x.kind {
                if let Some(Ty::Array(t)) = self.k.arrays.get(*arr as usize).map(|d| d.ty) {
                    found |= t.read == ReadMode::Checked;
                }
            }
        });
        found
    }

    /// A store or update into `@arr` at `index` of `value` may stop the thread.
    pub(crate) fn store_may_fail(&self, arr: u32, index: &[Expr], value: &Expr) -> bool {
        let checked_write = matches!(
            self.k.arrays.get(arr as usize).map(|d| d.ty),
            Some(Ty::Array(t)) if t.write == WriteMode::Checked
        );
        checked_write || self.may_fail(value) || index.iter().any(|e| self.may_fail(e))
    }

    /// Where a stopped thread goes under [`Stops::Leave`]: out of the kernel, as a
    /// `return` does (through the output epilogue when there is one).
    pub(crate) fn leave(&mut self) -> String {
        if self.k.outputs.is_empty() {
            self.return_stmt().to_string()
        } else {
            self.uses_done = true;
            "goto bz_done;".to_string()
        }
    }

    /// The statements after recording an error in kernels that keep the flag.
    pub(crate) fn stop_now(&mut self) -> String {
        match self.stops {
            Stops::Leave => format!(" bz_stop = true; {}", self.leave()),
            _ => " bz_stop = true;".to_string(),
        }
    }

    /// After a statement whose operands may have stopped the thread: under
    /// [`Stops::Leave`] it leaves at once.
    pub(crate) fn leave_if_stopped(&mut self) {
        if self.stops == Stops::Leave {
            let l = self.leave();
            self.line_out(&format!("if (bz_stop) {l}"));
        }
    }

    /// Under [`Stops::Guard`]: whether statement `s` runs only while the thread has not
    /// stopped.
    pub(crate) fn guarded(&self, s: &Stmt) -> bool {
        self.stops == Stops::Guard && !needed(s, &self.k.facts().varying)
    }

    /// Under [`Stops::Guard`]: the test at the start of each iteration of loop `s` that
    /// leaves it once the thread has stopped (a loop the block's control flow does
    /// not need), if any.
    pub(crate) fn loop_exit(&self, s: &Stmt) -> Option<&'static str> {
        (self.stops == Stops::Guard && !needed(s, &self.k.facts().varying))
            .then_some("if (bz_stop) break;")
    }

    /// A barrier under [`Stops::Guard`]: inside a loop whose trip count may depend on
    /// memory, when every thread of the block has stopped, they all leave together.
    pub(crate) fn voting_barrier(&mut self) -> String {
        if !self.votes.contains(&self.cur_stmt) {
            return "__syncthreads();".into();
        }
        let leave = if self.k.outputs.is_empty() {
            "return;"
        } else {
            self.uses_done = true;
            "goto bz_done;"
        };
        format!("if (!__syncthreads_or(!bz_stop)) {leave}")
    }

    /// After an allocation that may not fit (`bz_shared_alloc`, `bz_local_alloc`):
    /// a slot left without memory for a non-empty array is a failure.
    pub(crate) fn alloc_check(&mut self, a: u32) -> Option<String> {
        if self.stops == Stops::Off {
            return None;
        }
        let name = names::arr(self.k, a);
        let stop = self.stop_now();
        Some(format!(
            "if (!{name}.data && (u64)bz_d[0] * (u64)bz_d[1] * (u64)bz_d[2] * (u64)bz_d[3] != 0ull) {{{stop} }}"
        ))
    }
}
