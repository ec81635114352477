//! Running plans (`plan.rs`): the interpreter's statement loop when nothing watches
//! the statements.
//!
//! Each step does what the general path (`exec.rs`, `assign.rs`) does with its
//! statement, in the same order: the run's position is recorded and a form's events
//! are served before every statement, every loop iteration counts a step (which also
//! sees Ctrl-C), and a scalar is stored in its variable's slot in place. A step whose
//! scalar form gives up runs its statement on the general path.

use crate::error::{At, Flow, R};
use crate::interp::{Frame, Interp};
use crate::num::{self, Num};
use crate::plan::{Block, Cond, Step, StepKind, MAX_ARGS, X};
use blazar_diagnostics::Span;
use blazar_hir::{BinOp, Stmt, Var};
use blazar_runtime::index;
use blazar_runtime::{ElemType, Value};
use std::mem::ManuallyDrop;
use std::rc::Rc;

impl<'p> Interp<'p> {
    /// The plan of `body`, built on its first run.
    #[inline]
    pub(crate) fn plan_of(&mut self, body: &'p [Stmt]) -> Rc<Block<'p>> {
        if let Some(b) = self.plans.get(body) {
            return b.clone();
        }
        let b = Rc::new(self.build_block(body, Span::default()));
        self.plans.insert(body, b.clone());
        b
    }

    pub(crate) fn run_block(&mut self, b: &Block<'p>, frame: &mut Frame) -> R<Flow> {
        for st in b.steps.iter() {
            // Where the run is, for a report when it cannot stop by itself (a signal
            // inside native code, memory that runs out, an internal error).
            blazar_runtime::interrupt::set_at(st.span.file.0, st.span.lo, st.span.hi);
            if self.ctx.ui.due() {
                self.ui_events(st.span)?;
            }
            let flow = self.run_step(st, frame)?;
            if flow != Flow::Normal {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    #[inline]
    fn run_step(&mut self, st: &Step<'p>, frame: &mut Frame) -> R<Flow> {
        match &st.kind {
            StepKind::Set { var, op, x, s } => {
                if let Some(n) = self.x_leaf(x, frame) {
                    if self.set_num(*var, *op, n, frame) {
                        return Ok(Flow::Normal);
                    }
                }
                self.exec_stmt(s, frame)
            }
            StepKind::Store {
                var,
                idx,
                op,
                x,
                at,
                vspan,
                s,
            } => {
                if self.store_num(*var, idx, *op, x, *at, *vspan, frame)? {
                    return Ok(Flow::Normal);
                }
                self.exec_stmt(s, frame)
            }
            StepKind::Call {
                var,
                func,
                args,
                at,
                s,
            } => {
                let mut nums = [Num::Real(0.0); MAX_ARGS];
                for (n, a) in nums.iter_mut().zip(args.iter()) {
                    match self.x(a, frame) {
                        Some(x) => *n = x,
                        None => return self.exec_stmt(s, frame),
                    }
                }
                let v = self.call_nums(*func, &nums[..args.len()], *at)?;
                self.write_var(*var, frame, v);
                Ok(Flow::Normal)
            }
            StepKind::Append { var, rest, at, s } => self.run_append(*var, rest, *at, s, frame),
            StepKind::If { arms, otherwise } => {
                for (c, b) in arms.iter() {
                    if self.plan_cond(c, frame)? {
                        return self.run_block(b, frame);
                    }
                }
                self.run_block(otherwise, frame)
            }
            StepKind::For {
                var,
                start,
                step,
                end,
                body,
            } => self.exec_for_range(*var, *start, *step, *end, body, frame),
            StepKind::While { cond, body } => {
                while self.plan_cond(cond, frame)? {
                    if let Some(f) = body.iterate(self, frame)? {
                        return Ok(f);
                    }
                }
                Ok(Flow::Normal)
            }
            StepKind::Repeat { body, cond } => loop {
                if let Some(f) = body.iterate(self, frame)? {
                    return Ok(f);
                }
                if self.plan_cond(cond, frame)? {
                    return Ok(Flow::Normal);
                }
            },
            StepKind::Break(n) => Ok(Flow::Break(*n)),
            StepKind::Continue(n) => Ok(Flow::Continue(*n)),
            StepKind::Return => Ok(Flow::Return),
            StepKind::Nop => Ok(Flow::Normal),
            StepKind::General(s) => self.exec_stmt(s, frame),
        }
    }

    /// What `cond` gives on the general path ([`Interp::cond`]).
    #[inline]
    fn plan_cond(&mut self, c: &Cond<'p>, frame: &mut Frame) -> R<bool> {
        if let Some(x) = &c.x {
            if let Some(n) = self.x(x, frame) {
                return Ok(n.truth());
            }
        }
        self.cond(c.e, frame)
    }

    /// Stores `n` (combined with the old value by `op`) in `var` as the general path's
    /// scalar assignment does; `false` when that path must do it.
    #[inline(always)]
    fn set_num(&mut self, var: Var, op: Option<BinOp>, n: Num, frame: &mut Frame) -> bool {
        let prec = self.prec;
        let Some(slot) = self.slot_mut(var, frame) else {
            return false;
        };
        match op {
            None => {
                num::store(slot, n);
                true
            }
            Some(op) => match slot
                .as_ref()
                .and_then(Num::of)
                .and_then(|old| num::binary(op, old, n, prec))
            {
                Some(new) => {
                    num::store(slot, new);
                    true
                }
                None => false,
            },
        }
    }

    /// `var[idx] = x` (or `op=`) of a numeric array's element, as the general path's
    /// `store_element` does it; `Ok(false)` when the general path must run the
    /// statement (nothing was changed).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn store_num(
        &mut self,
        var: Var,
        idx: &[X<'p>],
        op: Option<BinOp>,
        x: &X<'p>,
        at: Span,
        vspan: Span,
        frame: &mut Frame,
    ) -> R<bool> {
        let Some(n) = self.x(x, frame) else {
            return Ok(false);
        };
        let mut ints = [0i64; 4];
        for (k, a) in idx.iter().enumerate() {
            match self.x(a, frame).and_then(Num::coord) {
                Some(i) => ints[k] = i,
                None => return Ok(false),
            }
        }
        let Some(Value::Array(arr)) = self.var_ref(var, frame) else {
            return Ok(false);
        };
        if !arr
            .data
            .meta_host()
            .is_ok_and(|m| m.elem() != ElemType::Cell)
        {
            return Ok(false);
        }
        let ints = &ints[..idx.len()];
        let v = n.value();
        let stored = match op {
            Some(op) => {
                let old = index::get_scalar_index(arr, ints).at(at)?;
                let new = self.binary(op, &old, &v, vspan)?;
                index::set_scalar_index(arr, ints, &new)
            }
            None => index::set_scalar_index(arr, ints, &v),
        };
        stored.at(at)?;
        Ok(true)
    }

    /// The value of a scalar expression, or `None` where [`Interp::num`] gives up on
    /// the expression it was built from.
    pub(crate) fn x(&mut self, x: &X<'p>, frame: &Frame) -> Option<Num> {
        match x {
            X::Num(n) => Some(*n),
            X::Local(s) => Num::of(frame.locals.get(*s as usize)?.as_ref()?),
            X::Global(g) => Num::of(self.globals.get(*g as usize)?.as_ref()?),
            X::Bin(op, ab) => {
                let a = self.x_leaf(&ab.0, frame)?;
                let b = self.x_leaf(&ab.1, frame)?;
                num::binary(*op, a, b, self.prec)
            }
            X::Neg(a) => Some(match self.x(a, frame)? {
                Num::Real(v) => Num::Real(-v),
                Num::Int(v, t) => Num::Int(t.wrap(v.wrapping_neg()), t),
            }),
            X::Not(a) => Some(Num::Real(if self.x(a, frame)?.truth() { 0.0 } else { 1.0 })),
            X::Logic { and, ab, rhs } => {
                let a = self.x(&ab.0, frame)?;
                if a.truth() != *and {
                    // Decided by `a` (see `Interp::num`).
                    if !self.scalar_tree(rhs, frame) {
                        return None;
                    }
                    return Some(Num::Real(if *and { 0.0 } else { 1.0 }));
                }
                let b = self.x(&ab.1, frame)?;
                let op = if *and { BinOp::And } else { BinOp::Or };
                num::binary(op, a, b, self.prec)
            }
            X::Call { id, args, e } => self.x_call(*id, args, e.span, frame),
            X::Elem { var, idx } => self.x_elem(*var, idx, frame),
        }
    }

    /// [`Interp::x`] with its leaves inline (most operands are leaves).
    #[inline(always)]
    fn x_leaf(&mut self, x: &X<'p>, frame: &Frame) -> Option<Num> {
        match x {
            X::Num(n) => Some(*n),
            X::Local(s) => Num::of(frame.locals.get(*s as usize)?.as_ref()?),
            X::Global(g) => Num::of(self.globals.get(*g as usize)?.as_ref()?),
            x => self.x(x, frame),
        }
    }

    /// [`Interp::x`] of an element-wise builtin's call.
    #[inline(never)]
    fn x_call(&mut self, id: u32, args: &[X<'p>], span: Span, frame: &Frame) -> Option<Num> {
        // The arguments are scalars, which own nothing: no drop glue for them, nor for
        // a scalar result (`num::of_result`).
        let v = match args {
            [a] => {
                let a = ManuallyDrop::new([self.x(a, frame)?.value()]);
                self.call_builtin(id, &*a, span).ok()?
            }
            [a, b] => {
                let a = self.x(a, frame)?.value();
                let b = self.x(b, frame)?.value();
                let ab = ManuallyDrop::new([a, b]);
                self.call_builtin(id, &*ab, span).ok()?
            }
            _ => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.x(a, frame)?.value());
                }
                self.call_builtin(id, &vals, span).ok()?
            }
        };
        num::of_result(v)
    }

    /// [`Interp::x`] of an element of a numeric array (not a cell).
    #[inline(never)]
    fn x_elem(&mut self, var: Var, idx: &[X<'p>], frame: &Frame) -> Option<Num> {
        let mut ints = [0i64; 4];
        for (k, a) in idx.iter().enumerate() {
            ints[k] = self.x(a, frame)?.coord()?;
        }
        self.element_at(var, &ints[..idx.len()], frame)
    }
}

/// A loop's body: statements on the general path, or a plan.
pub(crate) trait LoopBody<'p> {
    /// Runs one iteration after counting its step; `Some(flow)` when the loop must
    /// stop with that flow.
    fn iterate(&self, it: &mut Interp<'p>, frame: &mut Frame) -> R<Option<Flow>>;
}

impl<'p> LoopBody<'p> for Block<'p> {
    #[inline(always)]
    fn iterate(&self, it: &mut Interp<'p>, frame: &mut Frame) -> R<Option<Flow>> {
        it.step(self.first)?;
        Ok(crate::exec::after_iteration(it.run_block(self, frame)?))
    }
}
