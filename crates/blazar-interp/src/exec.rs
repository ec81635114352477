//! Execution of statements: assignment, control flow, loops, `match` and `print`.

use crate::error::{At, Flow, RunError, R};
use crate::interp::{Frame, Interp};
use crate::plan_run::LoopBody;
use blazar_diagnostics::Span;
use blazar_hir::{Expr, Stmt, StmtKind, Var};
use blazar_runtime::{format, IntTy, Value};

impl<'p> Interp<'p> {
    pub fn exec_block(&mut self, body: &'p [Stmt], frame: &mut Frame) -> R<Flow> {
        if self.watched {
            return self.exec_block_watched(body, frame);
        }
        // Nothing but a form's page asks for work between statements: the body runs
        // as its plan (`plan.rs`), built on its first run.
        let plan = self.plan_of(body);
        self.run_block(&plan, frame)
    }

    /// [`Interp::exec_block`] under the debugger's hook, the profiler, device arrays
    /// (whose faults surface between statements) or fused statement groups.
    #[inline(never)]
    fn exec_block_watched(&mut self, body: &'p [Stmt], frame: &mut Frame) -> R<Flow> {
        // Statements a fused group ran (`fuse/group.rs`) are not run again.
        let mut ran = 0;
        for (i, s) in body.iter().enumerate() {
            if ran > 0 {
                ran -= 1;
                continue;
            }
            // Where the run is, for a report when it cannot stop by itself (a signal
            // inside native code, memory that runs out, an internal error).
            blazar_runtime::interrupt::set_at(s.span.file.0, s.span.lo, s.span.hi);
            // A form's page reported a change, or a callback waits to run.
            if self.ctx.ui.due() {
                self.ui_events(s.span)?;
            }
            if let Some(h) = self.host_hook.clone() {
                let at = crate::hook::HostStop {
                    interp: self,
                    frame,
                    span: s.span,
                };
                h.0.borrow_mut().stmt(&at);
            }
            let flow = match self.exec_fused_group(&body[i..], frame)? {
                Some(n) => {
                    ran = n - 1;
                    Flow::Normal
                }
                None => self.exec_stmt(s, frame)?,
            };
            if self.profile.is_some() {
                self.charge_copies(s.span);
            }
            if self.device_arrays {
                // A device fault that surfaced while this statement read device data.
                if let Some(m) = blazar_runtime::take_device_fault() {
                    return Err(RunError::new(s.span, m));
                }
            }
            if flow != Flow::Normal {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    /// Charges the copies counted since the last statement to the line of `span`.
    fn charge_copies(&mut self, span: Span) {
        let t = blazar_runtime::traffic::take();
        if !t.is_empty() {
            let line = self.sources.line_of(span) as u32;
            if let Some(p) = self.profile.as_mut() {
                p.copies(line, t);
            }
        }
    }

    pub fn cond(&mut self, e: &'p Expr, frame: &mut Frame) -> R<bool> {
        if let Some(n) = self.num(e, frame) {
            return Ok(n.truth());
        }
        let v = self.eval(e, frame)?;
        match v {
            Value::Int(i, _) => Ok(i != 0),
            Value::Real(x) => Ok(x != 0.0),
            v => v.truthy().ok_or_else(|| {
                RunError::new(
                    e.span,
                    format!("a {} cannot be used as a condition", v.kind_name()),
                )
            }),
        }
    }

    pub(crate) fn exec_stmt(&mut self, s: &'p Stmt, frame: &mut Frame) -> R<Flow> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval_discard(e, frame)?;
            }
            StmtKind::Assign {
                target,
                op,
                value,
                ty,
            } => self.exec_assign(target, *op, value, ty.as_ref(), frame)?,
            StmtKind::MultiAssign { targets, value } => {
                self.exec_multi_assign(targets, value, frame, s.span)?
            }
            StmtKind::Attribute { name, args, .. } if name == "sched" => {
                self.sched(args, s.span)?
            }
            StmtKind::Declare { .. } | StmtKind::Attribute { .. } => {}
            StmtKind::Parallel(p) => return self.exec_parallel(p, frame),
            StmtKind::Serial(p) => return self.exec_serial(p, frame),
            StmtKind::Rewritten(r) => {
                let mut holds = true;
                for (e, t) in &r.checks {
                    let v = self.eval(e, frame)?;
                    if !crate::typeof_::type_of(self.prog, &v).conforms_to(t) {
                        holds = false;
                        break;
                    }
                }
                if let (true, Some(c)) = (holds, &r.cond) {
                    holds = self.cond(c, frame)?;
                }
                let s = if holds { &r.replaced } else { &r.original };
                return self.exec_block(std::slice::from_ref(s), frame);
            }
            StmtKind::If { arms, otherwise } => {
                for (c, b) in arms {
                    if self.cond(c, frame)? {
                        return self.exec_block(b, frame);
                    }
                }
                return self.exec_block(otherwise, frame);
            }
            StmtKind::ForRange {
                var,
                start,
                step,
                end,
                body,
            } => {
                let body = Stmts {
                    body,
                    at: start.span.to(end.span),
                };
                return self.exec_for_range(*var, start, step.as_ref(), end, &body, frame);
            }
            StmtKind::ForEach { var, iter, body } => {
                let v = self.eval(iter, frame)?;
                let items: Vec<Value> = match &v {
                    Value::Array(a) => {
                        let a = a.borrow();
                        (0..a.len()).map(|i| a.get_value(i)).collect()
                    }
                    v if v.is_scalar() => vec![v.clone()],
                    v => {
                        return Err(RunError::new(
                            iter.span,
                            format!("cannot iterate over a {}", v.kind_name()),
                        ))
                    }
                };
                let body = Stmts { body, at: s.span };
                for item in items {
                    self.write_var(*var, frame, item);
                    if let Some(f) = body.iterate(self, frame)? {
                        return Ok(f);
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let body = Stmts { body, at: s.span };
                while self.cond(cond, frame)? {
                    if let Some(f) = body.iterate(self, frame)? {
                        return Ok(f);
                    }
                }
            }
            StmtKind::Repeat { body, cond } => {
                let body = Stmts { body, at: s.span };
                loop {
                    if let Some(f) = body.iterate(self, frame)? {
                        return Ok(f);
                    }
                    if self.cond(cond, frame)? {
                        break;
                    }
                }
            }
            StmtKind::Break(n) => return Ok(Flow::Break(*n)),
            StmtKind::Continue(n) => return Ok(Flow::Continue(*n)),
            StmtKind::Return => return Ok(Flow::Return),
            StmtKind::Match { scrutinee, arms } => {
                let v = self.eval(scrutinee, frame)?;
                for (pat, body) in arms {
                    let hit = match pat {
                        None => true,
                        Some(p) => {
                            let pv = self.eval(p, frame)?;
                            values_equal(&v, &pv)
                        }
                    };
                    if hit {
                        return self.exec_block(body, frame);
                    }
                }
            }
            StmtKind::Print(args) => {
                // Written value by value, a large array in blocks (its whole text is
                // never held).
                let fail = |e: std::io::Error| match e.kind() {
                    std::io::ErrorKind::Interrupted => RunError::new(s.span, e.to_string()),
                    _ => RunError::new(s.span, format!("cannot write output: {e}")),
                };
                let vals = args
                    .iter()
                    .map(|a| self.eval(a, frame))
                    .collect::<R<Vec<_>>>()?;
                for v in &vals {
                    format::write_value_to(&mut self.ctx.out, v, self.prec).map_err(fail)?;
                }
                self.ctx.out.write_all(b"\n").map_err(fail)?;
            }
        }
        Ok(Flow::Normal)
    }

    /// A `for` loop over a range of numbers, its body on the general path or a plan.
    pub(crate) fn exec_for_range<B: LoopBody<'p> + ?Sized>(
        &mut self,
        var: Var,
        start: &'p Expr,
        step: Option<&'p Expr>,
        end: &'p Expr,
        body: &B,
        frame: &mut Frame,
    ) -> R<Flow> {
        let a = self.eval(start, frame)?;
        let st = match step {
            Some(e) => self.eval(e, frame)?,
            None => Value::int(1),
        };
        let b = self.eval(end, frame)?;
        let span = start.span.to(end.span);
        if let (Value::Int(a, _), Value::Int(st, _), Some(b)) = (&a, &st, b.as_f64()) {
            let (a, st) = (*a, *st);
            if st == 0 {
                return Err(RunError::new(span, "the step of a for loop cannot be zero"));
            }
            let mut i = a;
            while (st > 0 && (i as f64) <= b) || (st < 0 && (i as f64) >= b) {
                // The loop variable is overwritten in place.
                if let Some(slot) = self.slot_mut(var, frame) {
                    crate::num::store(slot, crate::num::Num::Int(i, IntTy::I32));
                }
                if let Some(f) = body.iterate(self, frame)? {
                    return Ok(f);
                }
                i += st;
            }
            return Ok(Flow::Normal);
        }
        let num = |v: &Value, what: &str| {
            v.as_f64().ok_or_else(|| {
                format!(
                    "the {what} of a for loop must be a number, not a {}",
                    v.kind_name()
                )
            })
        };
        let a = num(&a, "start")
            .map_err(blazar_runtime::RtError::new)
            .at(span)?;
        let st = num(&st, "step")
            .map_err(blazar_runtime::RtError::new)
            .at(span)?;
        let b = num(&b, "end")
            .map_err(blazar_runtime::RtError::new)
            .at(span)?;
        if st == 0.0 || !st.is_finite() {
            return Err(RunError::new(
                span,
                "the step of a for loop must be a non-zero number",
            ));
        }
        // Count iterations up front so that accumulated rounding cannot add or drop one.
        let n = ((b - a) / st + 1e-9).floor();
        if n >= 0.0 {
            for k in 0..=(n as i64) {
                let x = self.prec.round(a + k as f64 * st);
                self.write_var(var, frame, Value::Real(x));
                if let Some(f) = body.iterate(self, frame)? {
                    return Ok(f);
                }
            }
        }
        Ok(Flow::Normal)
    }
}

/// A loop body on the general path: its statements, and where an empty one counts its
/// steps.
pub(crate) struct Stmts<'p> {
    pub body: &'p [Stmt],
    pub at: Span,
}

impl<'p> LoopBody<'p> for Stmts<'p> {
    /// Every iteration costs a step, even of an empty body, so the step budget also
    /// stops `repeat until false` and `while true end`.
    #[inline]
    fn iterate(&self, it: &mut Interp<'p>, frame: &mut Frame) -> R<Option<Flow>> {
        it.step(self.body.first().map_or(self.at, |s| s.span))?;
        Ok(after_iteration(it.exec_block(self.body, frame)?))
    }
}

/// How a loop goes on after an iteration that ended with `flow`: `Some(flow)` when it
/// must stop with that flow.
#[inline(always)]
pub(crate) fn after_iteration(flow: Flow) -> Option<Flow> {
    match flow {
        Flow::Normal | Flow::Continue(0) => None,
        Flow::Break(0) => Some(Flow::Normal),
        Flow::Break(n) => Some(Flow::Break(n - 1)),
        Flow::Continue(n) => Some(Flow::Continue(n - 1)),
        Flow::Return => Some(Flow::Return),
    }
}

/// Equality used by `match`: numbers by value, strings by text.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => x == y,
        _ => match (a.as_complex(), b.as_complex()) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}
