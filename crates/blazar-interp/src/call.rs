//! Calls: user functions (with overloads, defaults, typed parameters and several
//! outputs), closures, builtins, intrinsics, class constructors and typed constructors.

use crate::error::{At, Flow, RunError, R};
use crate::interp::{Frame, Interp};
use blazar_diagnostics::Span;
use blazar_hir::{Callee, Expr, FnId, FnKind, Var};
use blazar_runtime::builtins;
use blazar_runtime::{Closure, FuncRef, Object, Value};
use std::cell::RefCell;
use std::rc::Rc;

impl<'p> Interp<'p> {
    /// Calls `callee` and returns up to `nout` results (at least one when the function
    /// has any).
    pub fn eval_call(
        &mut self,
        callee: &'p Callee,
        args: &'p [Expr],
        nout: usize,
        frame: &mut Frame,
        span: Span,
    ) -> R<Vec<Value>> {
        match callee {
            Callee::Intrinsic(i) => {
                return self
                    .intrinsic(*i, args, frame, span)
                    .map(|v| v.into_iter().collect())
            }
            Callee::TypeCtor(t) => {
                let vals = self.eval_args(args, frame)?;
                return crate::coerce::construct_typed(t, &vals, self.prec)
                    .at(span)
                    .map(|v| vec![v]);
            }
            _ => {}
        }
        let vals = self.eval_args(args, frame)?;
        let fval = match callee {
            Callee::Value(e) => Some(self.eval(e, frame)?),
            _ => None,
        };
        // Under a host hook the caller's locals stay readable while the call runs.
        let traced = self.host_hook.is_some();
        if traced {
            self.calls.push(crate::hook::CallRec {
                func: frame.func,
                at: span,
                locals: frame.locals.clone(),
            });
        }
        let r = self.call_resolved(callee, vals, fval, nout, frame, span);
        if traced {
            self.calls.pop();
        }
        r
    }

    /// The call of `eval_call` once its arguments (and a called value) are evaluated.
    fn call_resolved(
        &mut self,
        callee: &'p Callee,
        vals: Vec<Value>,
        fval: Option<Value>,
        nout: usize,
        frame: &mut Frame,
        span: Span,
    ) -> R<Vec<Value>> {
        match callee {
            Callee::Group(g) => self.call_group(*g, vals, nout, span),
            Callee::Nested { func, captures } => {
                let caps = captures
                    .iter()
                    .map(|v| self.read_capture(*v, frame, span))
                    .collect::<R<Vec<_>>>()?;
                self.call_user(*func, caps, vals, nout, span)
            }
            Callee::SelfCall(func) => {
                let f = &self.prog.functions[*func as usize];
                let caps = f
                    .capture_slots
                    .iter()
                    .map(|s| self.read_capture(Var::Local(*s), frame, span))
                    .collect::<R<Vec<_>>>()?;
                self.call_user(*func, caps, vals, nout, span)
            }
            Callee::Builtin(b) => {
                let r = self.call_builtin_n(*b, &vals, nout, span);
                self.give_vals(vals);
                r
            }
            Callee::Class(c) => self.construct_class(*c, vals, span).map(|v| vec![v]),
            Callee::Value(_) => {
                let f = fval.expect("evaluated by eval_call");
                self.call_value(&f, vals, nout, span)
            }
            Callee::Intrinsic(_) | Callee::TypeCtor(_) => unreachable!("handled above"),
        }
    }

    pub fn eval_args(&mut self, args: &'p [Expr], frame: &mut Frame) -> R<Vec<Value>> {
        let mut out = self.take_vals(args.len());
        for a in args {
            out.push(self.eval(a, frame)?);
        }
        Ok(out)
    }

    fn read_capture(&self, v: Var, frame: &Frame, span: Span) -> R<Value> {
        match self.var_ref(v, frame) {
            Some(x) => Ok(x.clone()),
            None => Err(RunError::new(
                span,
                format!(
                    "variable `{}` is captured before it is assigned",
                    self.var_name(v, frame)
                ),
            )),
        }
    }

    /// Calls a function value.
    pub fn call_value(
        &mut self,
        f: &Value,
        args: Vec<Value>,
        nout: usize,
        span: Span,
    ) -> R<Vec<Value>> {
        let Value::Func(c) = f else {
            return Err(RunError::new(
                span,
                match f {
                    Value::Array(_) | Value::Str(_) => format!(
                        "cannot call a value of type {}: Quasar indexes with brackets, \
                         `A[i, j]`, not MATLAB's parentheses `A(i, j)`, and indices start at 0",
                        f.kind_name()
                    ),
                    _ => format!("cannot call a value of type {}", f.kind_name()),
                },
            ));
        };
        match c.func {
            FuncRef::User(id) => {
                // A closure made by an earlier input of the interactive session whose
                // captured names now mean something else.
                let slots = self
                    .prog
                    .functions
                    .get(id as usize)
                    .map(|f| f.capture_slots.len());
                if !c.captures.is_empty() && slots.is_some_and(|n| n != c.captures.len()) {
                    return Err(RunError::new(
                        span,
                        "this function value no longer matches its function (the names \
                         it captured changed meaning)",
                    ));
                }
                self.call_user(id, c.captures.clone(), args, nout, span)
            }
            // A builtin bound to values (a figure handle's methods) takes them first.
            FuncRef::Builtin(b) if !c.captures.is_empty() => {
                let mut all = c.captures.clone();
                all.extend(args);
                self.call_builtin_n(b, &all, nout, span)
            }
            FuncRef::Builtin(b) => self.call_builtin_n(b, &args, nout, span),
        }
    }

    pub fn call_builtin(&mut self, id: u32, args: &[Value], span: Span) -> R<Value> {
        let b = builtins::get(id);
        if args.len() < b.min_args || args.len() > b.max_args {
            let expected = if b.min_args == b.max_args {
                format!("{}", b.min_args)
            } else if b.max_args == usize::MAX {
                format!("at least {}", b.min_args)
            } else {
                format!("{} to {}", b.min_args, b.max_args)
            };
            return Err(RunError::new(
                span,
                format!(
                    "`{}` takes {expected} arguments, got {}",
                    b.name,
                    args.len()
                ),
            ));
        }
        b.call(&mut self.ctx, args).at(span)
    }

    /// Calls a builtin for `nout` results: builtins with several outputs
    /// (`[s, idx] = sort(x)`) give them when more than one is asked for.
    pub fn call_builtin_n(
        &mut self,
        id: u32,
        args: &[Value],
        nout: usize,
        span: Span,
    ) -> R<Vec<Value>> {
        if nout != 1 {
            if let Some((f, most)) = builtins::multi(builtins::get(id).name) {
                let b = builtins::get(id);
                if nout > most {
                    return Err(RunError::new(
                        span,
                        format!(
                            "`{}` gives at most {most} outputs, {nout} asked for",
                            b.name
                        ),
                    ));
                }
                if args.len() < b.min_args || args.len() > b.max_args {
                    return self.call_builtin(id, args, span).map(|v| vec![v]);
                }
                return f(&mut self.ctx, args, nout).at(span);
            }
        }
        let v = self.call_builtin(id, args, span)?;
        let mut out = self.take_vals(1);
        out.push(v);
        Ok(out)
    }

    /// Offers a whole-array operation to the backend; `None` when the host runs it.
    pub fn device_op(&self, op: crate::ArrayOp, args: &[&Value]) -> Option<Result<Value, String>> {
        let b = self.backend.as_ref()?;
        if !args.iter().any(|v| matches!(v, Value::Array(_))) {
            return None;
        }
        let args: Vec<Value> = args.iter().map(|v| (*v).clone()).collect();
        b.0.try_borrow_mut().ok()?.array_op(op, &args)
    }

    pub(crate) fn call_group(
        &mut self,
        g: u32,
        args: Vec<Value>,
        nout: usize,
        span: Span,
    ) -> R<Vec<Value>> {
        let group = &self.prog.groups[g as usize];
        if group.members.len() == 1 {
            return self.call_user(group.members[0], Vec::new(), args, nout, span);
        }
        for &m in &group.members {
            if self.accepts(m, &args) {
                return self.call_user(m, Vec::new(), args, nout, span);
            }
        }
        let kinds: Vec<String> = args
            .iter()
            .map(|a| crate::typeof_::type_of(self.prog, a).to_string())
            .collect();
        Err(RunError::new(
            span,
            format!(
                "no overload of `{}` takes arguments of types ({})",
                group.name,
                kinds.join(", ")
            ),
        ))
    }

    /// Whether function `id` can be called with `args` without a conversion error.
    fn accepts(&self, id: FnId, args: &[Value]) -> bool {
        let f = &self.prog.functions[id as usize];
        let required = f.params.iter().filter(|p| p.default.is_none()).count();
        if args.len() < required || args.len() > f.params.len() {
            return false;
        }
        f.params.iter().zip(args).all(|(p, a)| match &p.ty {
            None => true,
            Some(t) => crate::typeof_::type_of(self.prog, a).conforms_to(&t.ty),
        })
    }

    /// Calls user function `id` with its captured values and arguments.
    pub fn call_user(
        &mut self,
        id: FnId,
        captures: Vec<Value>,
        args: Vec<Value>,
        nout: usize,
        span: Span,
    ) -> R<Vec<Value>> {
        let prog = self.prog;
        // A function value from another program (an earlier input of the interactive
        // session) whose definition has since been replaced.
        let Some(f) = prog.functions.get(id as usize) else {
            return Err(RunError::new(
                span,
                "this function value's function no longer exists (its definition was replaced)",
            ));
        };
        if f.kind == FnKind::Kernel {
            return Err(RunError::new(
                span,
                format!(
                    "kernel function `{}` cannot be called directly; launch it with parallel_do",
                    f.name
                ),
            ));
        }
        if args.len() > f.params.len() {
            return Err(RunError::new(
                span,
                format!(
                    "`{}` takes {} arguments, got {}",
                    f.name,
                    f.params.len(),
                    args.len()
                ),
            ));
        }
        let mut frame = self.enter(f, id, span)?;
        for (slot, v) in f.capture_slots.iter().zip(captures) {
            frame.locals[*slot as usize] = Some(v);
        }
        let nargs = args.len();
        let mut args = args;
        for (p, v) in f.params.iter().zip(args.drain(..)) {
            frame.locals[p.slot as usize] = Some(self.param_value(f, p, v, span)?);
        }
        self.give_vals(args);
        self.run_call(id, f, nargs, nout, frame, span)
    }

    /// Calls user function `id` with real or int scalar arguments, one for each of its
    /// parameters (a function without captures, not a kernel), for its first result:
    /// what [`Interp::call_user`] and then `eval` give, without vectors of arguments.
    pub(crate) fn call_nums(&mut self, id: FnId, args: &[crate::num::Num], span: Span) -> R<Value> {
        let prog = self.prog;
        let f = &prog.functions[id as usize];
        let mut frame = self.enter(f, id, span)?;
        for (p, n) in f.params.iter().zip(args) {
            frame.locals[p.slot as usize] = Some(self.param_value(f, p, n.value(), span)?);
        }
        let mut out = self.run_call(id, f, args.len(), 1, frame, span)?;
        if out.is_empty() {
            return Err(RunError::new(span, "this call returns no value"));
        }
        let v = out.swap_remove(0);
        self.give_vals(out);
        Ok(v)
    }

    /// The frame of a call of `f` (a reused one when there is), after the depth check
    /// and the call's step.
    #[inline]
    fn enter(&mut self, f: &blazar_hir::Function, id: FnId, span: Span) -> R<Frame> {
        if self.depth >= self.max_depth {
            return Err(RunError::new(
                span,
                format!(
                    "too many nested calls (more than {}): runaway recursion?",
                    self.max_depth
                ),
            ));
        }
        self.step(span)?;
        // A frame of an earlier call, emptied, when there is one.
        let mut locals = self.spare_locals.pop().unwrap_or_default();
        locals.resize(f.n_locals as usize, None);
        Ok(Frame { locals, func: id })
    }

    /// An argument converted to its parameter's declared type.
    #[inline]
    fn param_value(
        &self,
        f: &blazar_hir::Function,
        p: &blazar_hir::Param,
        v: Value,
        span: Span,
    ) -> R<Value> {
        match &p.ty {
            Some(t) => crate::coerce::coerce(v, t, self.prec).map_err(|m| {
                RunError::new(
                    span,
                    format!("argument `{}` of `{}`: {}", p.name, f.name, m.message),
                )
            }),
            None => Ok(v),
        }
    }

    /// Runs the body of a call whose frame holds its arguments; keeps the frame for
    /// reuse and adds the call to the stack of an error from inside it.
    fn run_call(
        &mut self,
        id: FnId,
        f: &blazar_hir::Function,
        nargs: usize,
        nout: usize,
        mut frame: Frame,
        span: Span,
    ) -> R<Vec<Value>> {
        self.depth += 1;
        let mut result = self.call_body(id, nargs, nout, &mut frame, span);
        self.depth -= 1;
        if self.spare_locals.len() < crate::interp::SPARE {
            frame.locals.clear();
            self.spare_locals.push(std::mem::take(&mut frame.locals));
        }
        if let Err(e) = &mut result {
            // A failure inside the body: the call stack grows one frame on the way out
            // (errors of the call itself are already located at it).
            if e.span != span && span != Span::default() {
                e.add_frame(span, self.call_note(&f.name, span));
            }
        }
        result
    }

    /// `` `f` was called here: f(x + 1) `` for a call at `span`.
    fn call_note(&self, name: &str, span: Span) -> String {
        let file = self.sources.get(span.file);
        let text = file
            .text
            .get(span.lo as usize..span.hi as usize)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let text = if text.chars().count() > 60 {
            format!("{}...", text.chars().take(57).collect::<String>())
        } else {
            text
        };
        let who = if name.is_empty() || name.starts_with('<') || name.contains("lambda") {
            "a lambda".to_string()
        } else {
            format!("`{name}`")
        };
        format!("{who} was called here: {text}")
    }

    fn call_body(
        &mut self,
        id: FnId,
        nargs: usize,
        nout: usize,
        frame: &mut Frame,
        span: Span,
    ) -> R<Vec<Value>> {
        let f = &self.prog.functions[id as usize];
        for p in &f.params[nargs..] {
            match &p.default {
                Some(d) => {
                    let v = self.eval(d, frame)?;
                    frame.locals[p.slot as usize] = Some(v);
                }
                None => {
                    return Err(RunError::new(
                        span,
                        format!("missing argument `{}` of `{}`", p.name, f.name),
                    ));
                }
            }
        }
        if self.fn_tiers.off(id) && self.profile.is_none() {
            match self.exec_block(&f.body, frame)? {
                Flow::Normal | Flow::Return => {}
                Flow::Break(_) | Flow::Continue(_) => {}
            }
        } else {
            // The compiled host tier may run it (`hostfn.rs`).
            self.run_fn_body(id, frame, span)?;
        }
        if let Some(r) = &f.result {
            // A statement body that ends with a call returns what the call returns:
            // nothing, from a function without outputs (as a callback often ends).
            if let blazar_hir::ExprKind::Call { callee, args } = &r.kind {
                let out = self.eval_call(callee, args, nout.max(1), frame, r.span)?;
                if out.is_empty() && nout > 0 {
                    return Err(RunError::new(r.span, "this call returns no value"));
                }
                return Ok(out);
            }
            return Ok(vec![self.eval(r, frame)?]);
        }
        let want = nout.max(1).min(f.outputs.len());
        let mut out = self.take_vals(want);
        for o in &f.outputs[..want] {
            match frame.locals[o.slot as usize].take() {
                Some(v) => out.push(match &o.ty {
                    Some(t) => crate::coerce::coerce(v, t, self.prec).map_err(|m| {
                        RunError::new(
                            o.span,
                            format!("output `{}` of `{}`: {}", o.name, f.name, m.message),
                        )
                    })?,
                    None => v,
                }),
                None => {
                    if nout == 0 {
                        break;
                    }
                    return Err(RunError::new(
                        span,
                        format!("output `{}` of `{}` was never assigned", o.name, f.name),
                    ));
                }
            }
        }
        Ok(out)
    }

    pub fn make_closure(
        &mut self,
        func: FnId,
        captures: &[Var],
        frame: &Frame,
        span: Span,
    ) -> R<Value> {
        let caps = captures
            .iter()
            .map(|v| self.read_capture(*v, frame, span))
            .collect::<R<Vec<_>>>()?;
        Ok(Value::Func(Rc::new(Closure {
            func: FuncRef::User(func),
            captures: caps,
        })))
    }

    pub fn func_value(&mut self, callee: &Callee, span: Span) -> R<Value> {
        let func = match callee {
            Callee::Group(g) => FuncRef::User(self.prog.groups[*g as usize].members[0]),
            Callee::Builtin(b) => FuncRef::Builtin(*b),
            Callee::SelfCall(id) => FuncRef::User(*id),
            _ => {
                return Err(RunError::new(
                    span,
                    "this function cannot be used as a value",
                ))
            }
        };
        Ok(Value::Func(Rc::new(Closure {
            func,
            captures: Vec::new(),
        })))
    }

    fn construct_class(&mut self, c: u32, args: Vec<Value>, span: Span) -> R<Value> {
        let class = &self.prog.classes[c as usize];
        if args.len() > class.fields.len() {
            return Err(RunError::new(
                span,
                format!(
                    "`{}` has {} fields, got {} values",
                    class.name,
                    class.fields.len(),
                    args.len()
                ),
            ));
        }
        let mut obj = Object {
            class: Some(Rc::from(class.name.as_str())),
            fields: Vec::new(),
        };
        for (i, (name, ty)) in class.fields.iter().enumerate() {
            let v = match args.get(i) {
                Some(v) => crate::coerce::coerce(
                    v.clone(),
                    &blazar_hir::Annot {
                        ty: ty.clone(),
                        mode: None,
                        is_const: false,
                    },
                    self.prec,
                )
                .map_err(|m| {
                    RunError::new(
                        span,
                        format!("field `{name}` of `{}`: {}", class.name, m.message),
                    )
                })?,
                None => crate::coerce::default_value(ty, self.prec),
            };
            obj.fields.push((Rc::from(name.as_str()), v));
        }
        Ok(Value::Object(Rc::new(RefCell::new(obj))))
    }
}
