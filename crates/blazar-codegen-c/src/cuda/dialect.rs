//! The CUDA side of the shared walk (`crate::printer`): specials and memory accesses
//! the CUDA way, `#line` directives, counted `for` loops, barriers, asserts that a
//! fixed block decides, and `return` (`goto bz_done` when the kernel has outputs, so
//! that every thread reaches the block reduction).

use crate::cuda::kernel::Gen;
use crate::cuda::stop::Stops;
use crate::names;
use crate::printer::{expr, Dialect, ForLoop, Out};
use blazar_kir::{ArrId, AtomicOp, BinOp, Expr, ExprKind, Fill, Kernel, Special, Stmt, Ty, VarId};

impl Gen<'_> {
    /// The C expression of `e`.
    pub fn expr(&mut self, e: &Expr) -> String {
        expr(self, e)
    }

    /// Prints the statements of `b`.
    pub fn block(&mut self, b: &[Stmt]) {
        crate::printer::block(self, b)
    }

    /// What a thread does after recording an error: stop when no barrier can be
    /// waiting for it, else as its stopped flag says (`stop.rs`). (A kernel with
    /// barriers is printed a first time without the flag, to learn whether it can fail.)
    pub fn abort_stmt(&mut self) -> String {
        if self.stops != Stops::Off {
            self.stop_now()
        } else if self.has_barrier {
            String::new()
        } else if self.k.outputs.is_empty() {
            " return;".into()
        } else {
            self.uses_done = true;
            " goto bz_done;".into()
        }
    }
}

impl Dialect for Gen<'_> {
    fn kernel(&self) -> &Kernel {
        self.k
    }

    fn out(&mut self) -> &mut Out {
        &mut self.o
    }

    // Device lambdas capture nothing.
    const CAPTURE: &'static str = "[]";

    fn var_read(&mut self, v: VarId) -> String {
        self.var_name(v)
    }

    fn var_target(&self, v: VarId) -> String {
        names::var(self.k, v)
    }

    fn special_expr(&mut self, sp: Special) -> String {
        self.special(sp)
    }

    fn load_expr(&mut self, e: &Expr, arr: ArrId, index: &[Expr]) -> String {
        match self.read_ahead(e) {
            Some(name) => name,
            None => {
                self.cur_load = e;
                self.load(arr, index, crate::printer::access_at(e))
            }
        }
    }

    fn size_expr(&mut self, arr: ArrId, dim: Option<u8>) -> String {
        self.size(arr, dim)
    }

    /// Both sides of a scalar `&&` / `||` when the right one is cheap and safe: no
    /// branch, so loads on either side issue with their neighbours.
    fn special_form(&mut self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b)
                if matches!(a.ty, Ty::Scalar(_)) && blazar_kir::props::speculable(b, self.k) =>
            {
                let (x, y) = (self.expr(a), self.expr(b));
                let c = if *op == BinOp::And { "&" } else { "|" };
                Some(format!("((bool)({x}) {c} (bool)({y}))"))
            }
            _ => None,
        }
    }

    fn begin_stmt(&mut self, s: &Stmt) {
        self.line = s.line;
        self.cur_stmt = s as *const Stmt;
        self.directive();
    }

    fn guard_open(&mut self, s: &Stmt) -> bool {
        if !self.guarded(s) {
            return false;
        }
        self.line_out("if (!bz_stop) {");
        self.o.depth += 1;
        true
    }

    fn guard_close(&mut self) {
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// Under a stopped flag that leaves the kernel: an operand that may fail is
    /// evaluated first, into a variable, and the thread leaves if it failed.
    fn checked(&self, e: &Expr) -> bool {
        self.stops == Stops::Leave && self.may_fail(e)
    }

    fn operand(&mut self, e: &Expr) -> String {
        let x = self.expr(e);
        if !self.checked(e) {
            return x;
        }
        let t = format!("bz_o{}", self.temps.len());
        self.temps.push((names::ty(e.ty), t.clone()));
        self.line_out(&format!("{t} = {x};"));
        self.leave_if_stopped();
        t
    }

    fn abort_if_failed(&mut self) {
        self.leave_if_stopped();
    }

    fn iteration(&mut self, s: &Stmt) {
        if let Some(exit) = self.loop_exit(s) {
            self.line_out(exit);
        }
    }

    // A failed access reads zero and the thread carries on or stops at once
    // (`abort_stmt`): no statement needs its operands first.
    const SCOPED: bool = false;

    fn store_stmt(
        &mut self,
        s: &Stmt,
        arr: ArrId,
        index: &[Expr],
        value: &Expr,
        op: Option<AtomicOp>,
    ) {
        self.store((arr, crate::printer::store_at(s)), index, value, op);
        if self.store_may_fail(arr, index, value) {
            self.leave_if_stopped();
        }
    }

    fn for_header(&mut self, l: &ForLoop) {
        let ForLoop {
            var,
            start,
            step,
            end,
            body,
            id,
            ref v,
            ref t,
        } = *l;
        let int = matches!(start.ty, Ty::Scalar(s) if s.is_int());
        if int && !blazar_kir::props::assigns(body, var) {
            // A counted loop: the compiler can unroll it and overlap iterations.
            self.line_out(&format!("{v} = bz_lo{id};"));
            // A streaming loop of unknown trip count: 8 iterations at a time.
            // Left to itself NVCC unrolls a plain strided sum 16 times, which
            // measured 5% slower on an H100 (benches/README.md, reduce_sum).
            let (blk, rank) = (self.opts.block, self.k.rank);
            let known = [start, step, end]
                .iter()
                .all(|e| blazar_kir::fold::const_int(e, blk, rank).is_some());
            let streaming = !known && blazar_kir::props::streaming(body);
            let ahead = if streaming && self.ahead.is_empty() && self.rename.is_none() {
                crate::cuda::prefetch::ahead(self, var, body)
            } else {
                None
            };
            if let Some(ahead) = ahead {
                // Batches with their loads first, then the iterations left one by one.
                self.line_out(&format!(
                    "auto bz_n{id} = bz_trips(bz_lo{id}, bz_st{id}, bz_hi{id});"
                ));
                self.print_batches(&ahead, var, body, id, v, t);
                self.line_out("#pragma unroll 1");
                self.line_out(&format!(
                    "for (; bz_n{id} != 0; --bz_n{id}, {v} = bz_step({v}, bz_st{id})) {{"
                ));
                return;
            }
            if streaming {
                self.line_out("#pragma unroll 8");
            }
            self.line_out(&format!(
                "for (auto bz_n{id} = bz_trips(bz_lo{id}, bz_st{id}, bz_hi{id}); bz_n{id} != 0; --bz_n{id}, {v} = bz_step({v}, bz_st{id})) {{"
            ));
        } else {
            self.line_out(&format!(
                "for ({v} = bz_lo{id}; (({t})0 < bz_st{id}) ? ({v} <= bz_hi{id}) : (bz_hi{id} <= {v}); {v} += bz_st{id}) {{"
            ));
        }
    }

    fn barrier(&mut self) {
        let b = if self.stops == Stops::Guard {
            self.voting_barrier()
        } else {
            self.barrier_stmt().to_string()
        };
        self.line_out(&b);
    }

    fn assert_stmt(&mut self, line: u32, cond: &Expr) {
        if blazar_kir::fold::const_int(cond, self.opts.block, self.k.rank) == Some(1) {
            self.line_out("/* assert holds for this block shape */");
            return;
        }
        self.can_fail = true;
        let c = self.expr(cond);
        let abort = self.abort_stmt();
        self.line_out(&format!(
            "if (!{c}) {{ bz_fail(bz_e, 1, {line}, 0, 0);{abort} }}"
        ));
        if self.may_fail(cond) {
            self.leave_if_stopped();
        }
    }

    fn ret(&mut self) {
        if self.coarsen > 1 || self.vector > 1 {
            self.line_out("goto bz_next;");
        } else if self.k.outputs.is_empty() {
            let r = self.return_stmt();
            self.line_out(r);
        } else {
            self.uses_done = true;
            self.line_out("goto bz_done;");
        }
    }

    fn alloc_shared_stmt(&mut self, arr: ArrId, dims: &[Expr], zero: bool) {
        self.alloc_shared(arr, dims, zero)
    }

    fn alloc_local_stmt(&mut self, arr: ArrId, dims: &[Expr], fill: Fill) {
        self.alloc_local(arr, dims, fill)
    }
}
