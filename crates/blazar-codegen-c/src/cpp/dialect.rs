//! The host C++ side of the shared walk (`crate::printer`): specials are the thread
//! loop's counters (and variables that alias them read the counters), accesses use
//! the row proofs, an operand that may record a `'checked` error is computed into a
//! temporary first and the range aborts right after an error, `return` ends the
//! thread (`goto bz_next`), an assert's failure ends the range (`goto bz_abort`).
//! Barriers and shared allocations are loop fission's (`fission`).

use super::Gen;
use crate::printer::{expr, Dialect, ForLoop, Out};
use crate::spell;
use blazar_kir::{ArrId, AtomicOp, Const, Expr, ExprKind, Fill, Kernel, Special, Stmt, VarId};

impl Gen<'_> {
    /// The C expression of `e`.
    pub fn expr(&mut self, e: &Expr) -> String {
        expr(self, e)
    }

    /// Prints the statements of `b`.
    pub fn block(&mut self, b: &[Stmt]) {
        crate::printer::block(self, b)
    }
}

impl Dialect for Gen<'_> {
    fn kernel(&self) -> &Kernel {
        self.k
    }

    fn out(&mut self) -> &mut Out {
        &mut self.o
    }

    const CAPTURE: &'static str = "[&]";

    fn var_read(&mut self, v: VarId) -> String {
        match self.aliases.get(&v) {
            Some(&sp) => self.special(sp),
            None => self.var_name(v),
        }
    }

    fn var_target(&self, v: VarId) -> String {
        self.var_name(v)
    }

    fn special_expr(&mut self, sp: Special) -> String {
        self.special(sp)
    }

    fn load_expr(&mut self, e: &Expr, arr: ArrId, index: &[Expr]) -> String {
        self.load(
            e as *const Expr as usize,
            arr,
            index,
            crate::printer::access_at(e),
        )
    }

    fn size_expr(&mut self, arr: ArrId, dim: Option<u8>) -> String {
        self.size(arr, dim)
    }

    /// `abs(z) <= c` on a `c32` as a comparison of its squared norm (`cmpabs`).
    fn special_form(&mut self, e: &Expr) -> Option<String> {
        let (z, t) = super::cmpabs::abs_compare(e)?;
        let x = self.expr(z);
        Some(super::cmpabs::print(&x, t))
    }

    fn const_lane(&mut self, v: &Expr, k: usize) -> String {
        self.lane_of(v, k)
    }

    fn begin_stmt(&mut self, s: &Stmt) {
        self.line = s.line;
    }

    /// Both branches storing the same elements: stores of selects (`selects`).
    fn if_form(&mut self, s: &Stmt) -> bool {
        self.select_stores(s)
    }

    const SCOPED: bool = true;

    fn checked(&self, e: &Expr) -> bool {
        self.has_checked(e)
    }

    /// When `e` may record a `'checked` error, it goes to a temporary and the range
    /// aborts right after an error.
    fn operand(&mut self, e: &Expr) -> String {
        let x = self.expr(e);
        if !self.has_checked(e) {
            return x;
        }
        let t = self.tmp();
        self.line_out(&format!("const {} {t} = {x};", spell::ty(e.ty)));
        self.abort_if_failed();
        t
    }

    fn abort_if_failed(&mut self) {
        self.line_out("if (bz_e.code) goto bz_abort;");
    }

    fn store_stmt(
        &mut self,
        s: &Stmt,
        arr: ArrId,
        index: &[Expr],
        value: &Expr,
        op: Option<AtomicOp>,
    ) {
        let at = crate::printer::store_at(s);
        self.store(s as *const Stmt as usize, (arr, at), index, value, op)
    }

    /// A plain counted loop when the step is a positive constant (so that the C++
    /// compiler can count and unroll it).
    fn for_header(&mut self, l: &ForLoop) {
        let (step, id, v, t) = (l.step, l.id, &l.v, &l.t);
        let positive = matches!(step.kind, ExprKind::Const(Const::Int(x)) if x > 0)
            || matches!(step.kind, ExprKind::Const(Const::Float(x)) if x > 0.0);
        if positive {
            self.line_out(&format!(
                "for ({v} = bz_lo{id}; {v} <= bz_hi{id}; {v} += bz_st{id}) {{"
            ));
        } else {
            self.line_out(&format!(
                "for ({v} = bz_lo{id}; (({t})0 < bz_st{id}) ? ({v} <= bz_hi{id}) : (bz_hi{id} <= {v}); {v} += bz_st{id}) {{"
            ));
        }
    }

    // Kernels with barriers run by loop fission, which splits the body at them.
    fn barrier(&mut self) {}

    fn assert_stmt(&mut self, line: u32, cond: &Expr) {
        self.line_out("{");
        self.o.depth += 1;
        let c = self.operand(cond);
        self.line_out(&format!(
            "if (!({c})) {{ bz_e.code = 1; bz_e.line = {line}; goto bz_abort; }}"
        ));
        self.o.depth -= 1;
        self.line_out("}");
    }

    fn ret(&mut self) {
        let label = self.next.clone();
        self.line_out(&format!("goto {label};"))
    }

    // Shared allocations are loop fission's.
    fn alloc_shared_stmt(&mut self, _arr: ArrId, _dims: &[Expr], _zero: bool) {}

    fn alloc_local_stmt(&mut self, arr: ArrId, dims: &[Expr], fill: Fill) {
        self.alloc_local(arr, dims, fill)
    }

    fn call_stmt(&mut self, func: u32, args: &[Expr], outs: &[VarId]) {
        self.call(func, args, outs)
    }

    fn iteration(&mut self, s: &Stmt) {
        self.spend_iteration(s)
    }
}
