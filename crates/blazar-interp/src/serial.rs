//! The compiled host tier: the run-time half of the serial-loop outliner.
//!
//! `passes::serialize` replaced a `for` or `while` loop that stays serial by a
//! [`SerialLoop`]: a one-thread kernel that runs at most a budget of iterations, and the
//! loop as written. Under [`HostTier::Auto`] the loop starts on the interpreter; once
//! it has run for [`SWITCH_AFTER`], the kernel is specialised for the types its
//! variables hold then, and the backend is asked whether it has compiled code for it
//! (`Backend::compiled_ready`, which starts the compile). When it has, the rest of the
//! loop runs as kernel launches of growing chunks, each resuming from the variables
//! the previous one left; between chunks the host checks Ctrl-C and the step budget.
//! [`HostTier::Compiled`] launches the kernel from the first iteration on any backend;
//! [`HostTier::Interp`] never does. A loop whose kernel cannot be used (a variable
//! without a value or of a type kernels cannot hold, a body the specialiser refuses)
//! runs on the interpreter, and `--profile` says why.

use crate::error::{Flow, RunError, R};
use crate::interp::{Frame, Interp};
use crate::launch::Flat;
use blazar_hir::serial::{STATE_BROKE, STATE_BUDGET};
use blazar_hir::{SerialHead, SerialLoop, StmtKind, Var};
use blazar_kir::{Kernel, Scalar};
use blazar_launch::{KValue, KernelError, LaunchPlan};
use blazar_passes::{ArgSig, Signature};
use blazar_runtime::{IntTy, Mode, Value};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Which tier runs host loops the serial-loop outliner accepted (`--host-tier`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HostTier {
    /// The interpreter first; compiled code once the loop has run a while and the
    /// backend has compiled its kernel.
    #[default]
    Auto,
    /// Always the interpreter.
    Interp,
    /// The kernel from the first iteration, on any backend (testing the tier).
    Compiled,
}

/// How long a loop runs on the interpreter before its kernel is asked for.
pub const SWITCH_AFTER: Duration = Duration::from_millis(2);

/// Interpreter steps (statements of loop bodies, all loops nested in the loop
/// counted) between two looks at the clock: a loop whose iterations are long (a
/// sweep over a matrix) looks after each iteration, a short one every few hundred.
const CHECK_EVERY: u64 = 256;

/// The wall time a chunk of compiled iterations aims at (Ctrl-C is seen between
/// chunks).
const CHUNK_TIME: Duration = Duration::from_millis(50);

/// The first chunk's iterations.
const FIRST_CHUNK: i64 = 1 << 12;

/// A serial loop's kernel, specialised, with what a launch needs.
struct Ready {
    kernel: Rc<Kernel>,
    /// The scalar type of each argument of [`SerialLoop::args`] (`None`: an array).
    arg_types: Vec<Option<Scalar>>,
    /// Arrays passed `'checked` with writes outside skipped (the host's default mode).
    arrays: Vec<Option<blazar_kir::ArrayTy>>,
}

/// The range of a `for` loop: start, step, iterations.
#[derive(Clone, Copy)]
struct Range {
    start: i64,
    step: i64,
    count: i64,
}

impl<'p> Interp<'p> {
    /// Runs a loop the serial-loop outliner accepted, on the tier the run asks for.
    pub(crate) fn exec_serial(&mut self, p: &'p SerialLoop, frame: &mut Frame) -> R<Flow> {
        let whole = std::slice::from_ref(&*p.serial);
        if self.host_tier == HostTier::Interp || self.host_hook.is_some() || self.backend.is_none()
        {
            return self.exec_block(whole, frame);
        }
        let forced = self.host_tier == HostTier::Compiled;
        let line = self.sources.line_of(p.serial.span) as u32;
        match (&p.head, &p.serial.kind) {
            (SerialHead::For { .. }, StmtKind::ForRange { var, body, .. }) => {
                let Some(r) = self.serial_range(p, frame)? else {
                    self.note_loop(line, 0, 0, Some("its range is not of 32-bit integers"));
                    return self.exec_block(whole, frame);
                };
                let mut k = 0i64;
                let mut cur = r.start;
                let started = Instant::now();
                let mut look = self.steps_left;
                let mut ready = None;
                let mut why = None;
                while k < r.count {
                    if forced || self.clock_due(&mut look, started) {
                        match self.serial_ready(p, frame, forced) {
                            Ok(Some(x)) => {
                                ready = Some(x);
                                break;
                            }
                            Ok(None) => {}
                            Err(w) => {
                                why = Some(w);
                                if forced {
                                    break;
                                }
                            }
                        }
                        if why.is_some() {
                            // Refused for good: the rest runs on the interpreter.
                            break;
                        }
                    }
                    self.write_var(*var, frame, Value::Int(cur, IntTy::I32));
                    if let Some(f) = self.serial_step(body, frame, p)? {
                        self.note_loop(line, k as u64 + 1, 0, why.as_deref());
                        return Ok(f);
                    }
                    cur += r.step;
                    k += 1;
                }
                let interpreted = k as u64;
                let Some(ready) = ready else {
                    // The rest on the interpreter.
                    while k < r.count {
                        self.write_var(*var, frame, Value::Int(cur, IntTy::I32));
                        if let Some(f) = self.serial_step(body, frame, p)? {
                            self.note_loop(line, k as u64 + 1, 0, why.as_deref());
                            return Ok(f);
                        }
                        cur += r.step;
                        k += 1;
                    }
                    self.note_loop(line, k as u64, 0, why.as_deref());
                    return Ok(Flow::Normal);
                };
                let last = r.start + (r.count - 1) * r.step;
                let compiled = self.serial_chunks(p, &ready, frame, Some((cur, r.step, last)))?;
                self.note_loop(line, interpreted, compiled, None);
                Ok(Flow::Normal)
            }
            (SerialHead::While, StmtKind::While { cond, body }) => {
                let started = Instant::now();
                let mut look = self.steps_left;
                let mut k = 0u64;
                let mut why = None;
                let mut ready = None;
                loop {
                    if why.is_none() && (forced || self.clock_due(&mut look, started)) {
                        match self.serial_ready(p, frame, forced) {
                            Ok(Some(x)) => {
                                ready = Some(x);
                                break;
                            }
                            Ok(None) => {}
                            Err(w) => why = Some(w),
                        }
                    }
                    if !self.cond(cond, frame)? {
                        break;
                    }
                    k += 1;
                    if let Some(f) = self.serial_step(body, frame, p)? {
                        self.note_loop(line, k, 0, why.as_deref());
                        return Ok(f);
                    }
                }
                let compiled = match ready {
                    Some(ready) => self.serial_chunks(p, &ready, frame, None)?,
                    None => 0,
                };
                self.note_loop(line, k, compiled, why.as_deref());
                Ok(Flow::Normal)
            }
            _ => self.exec_block(whole, frame),
        }
    }

    /// Whether the loop has run on the interpreter for [`SWITCH_AFTER`]: the clock is
    /// read once [`CHECK_EVERY`] steps were spent since the last look (`look`: the
    /// step budget left then).
    fn clock_due(&self, look: &mut u64, started: Instant) -> bool {
        if look.saturating_sub(self.steps_left) < CHECK_EVERY {
            return false;
        }
        *look = self.steps_left;
        started.elapsed() > SWITCH_AFTER
    }

    /// One iteration on the interpreter: `Some(flow)` when the loop stops.
    fn serial_step(
        &mut self,
        body: &'p [blazar_hir::Stmt],
        frame: &mut Frame,
        p: &SerialLoop,
    ) -> R<Option<Flow>> {
        self.step(body.first().map_or(p.serial.span, |s| s.span))?;
        Ok(match self.exec_block(body, frame)? {
            Flow::Normal | Flow::Continue(0) => None,
            Flow::Break(0) => Some(Flow::Normal),
            Flow::Break(n) => Some(Flow::Break(n - 1)),
            Flow::Continue(n) => Some(Flow::Continue(n - 1)),
            Flow::Return => Some(Flow::Return),
        })
    }

    /// The `for` loop's range when it is of integers a kernel's int32 counter holds.
    fn serial_range(&mut self, p: &'p SerialLoop, frame: &mut Frame) -> R<Option<Range>> {
        let SerialHead::For {
            start, step, end, ..
        } = &p.head
        else {
            return Ok(None);
        };
        let a = self.eval(start, frame)?;
        let st = match step {
            Some(e) => self.eval(e, frame)?,
            None => Value::int(1),
        };
        let b = self.eval(end, frame)?;
        let (Value::Int(a, _), Value::Int(st, _), Some(b)) = (&a, &st, b.as_f64()) else {
            return Ok(None);
        };
        let (a, st) = (*a, *st);
        if st == 0 || !b.is_finite() {
            return Ok(None);
        }
        let n = ((b - a as f64) / st as f64).floor() + 1.0;
        let n = if n < 0.0 { 0.0 } else { n };
        let last = a as f64 + (n - 1.0).max(0.0) * st as f64;
        let lim = i32::MAX as f64;
        if n > lim || last.abs() + (st as f64).abs() > lim || (a as f64).abs() > lim {
            return Ok(None);
        }
        Ok(Some(Range {
            start: a,
            step: st,
            count: n as i64,
        }))
    }

    /// The loop's kernel for the variables' current types: `Ok(None)` while the
    /// backend compiles it (unless `forced`), `Err` when it cannot be used at all.
    fn serial_ready(
        &mut self,
        p: &SerialLoop,
        frame: &Frame,
        forced: bool,
    ) -> Result<Option<Ready>, String> {
        let is_for = matches!(p.head, SerialHead::For { .. });
        let name = |v: Var| var_name(self.prog, frame.func, v);
        let mut sig = Signature {
            args: vec![ArgSig::Scalar(Scalar::I32); if is_for { 4 } else { 1 }],
            captures: vec![],
            rank: 1,
            outputs: vec![Scalar::I32; if is_for { 3 } else { 2 }],
            extents: vec![],
        };
        let mut data = vec![Value::int(0); sig.args.len()];
        let mut arg_types = Vec::new();
        let mut arrays = Vec::new();
        for &v in &p.args {
            let Some(val) = self.var_ref(v, frame).cloned() else {
                return Err(format!("`{}` has no value before the loop", name(v)));
            };
            let mut flat = Vec::new();
            let s = match &val {
                Value::Array(_) => match self.host_arg(&val, &mut flat) {
                    Ok(ArgSig::Array(t)) => {
                        arg_types.push(None);
                        arrays.push(Some(t));
                        ArgSig::Array(t)
                    }
                    _ => return Err(format!("`{}` is an array kernels cannot take", name(v))),
                },
                Value::Int(..) | Value::Real(_) | Value::Complex(_) => {
                    let s = match self.host_arg(&val, &mut flat) {
                        Ok(ArgSig::Scalar(s)) => s,
                        _ => return Err(format!("`{}` cannot be passed", name(v))),
                    };
                    arg_types.push(Some(s));
                    arrays.push(None);
                    ArgSig::Scalar(s)
                }
                v2 => {
                    return Err(format!(
                        "`{}` holds a {}, which kernel code cannot",
                        name(v),
                        v2.kind_name()
                    ))
                }
            };
            sig.args.push(s);
            data.push(val);
        }
        for &v in &p.outputs {
            let t = if p.temps.contains(&v) {
                Scalar::Bool
            } else {
                match self.var_ref(v, frame) {
                    Some(Value::Int(_, t)) => crate::launch::scalar_of(*t),
                    Some(Value::Real(_)) => self.serial_float(),
                    Some(Value::Complex(_)) => {
                        if self.prec == blazar_runtime::Prec::Double {
                            Scalar::C64
                        } else {
                            Scalar::C32
                        }
                    }
                    Some(x) => {
                        return Err(format!(
                            "`{}` is assigned a {} in the loop",
                            name(v),
                            x.kind_name()
                        ))
                    }
                    None => return Err(format!("`{}` has no value before the loop", name(v))),
                }
            };
            sig.outputs.push(t);
        }
        let Some(mut kernel) = self.specialize_quiet(p.kernel, sig.clone(), &data) else {
            return Err("kernel code cannot express it for these types".into());
        };
        // A variable the loop widens (`s = 0`, then `s = 0.5*s + 1`) is passed in as
        // the type it gets: the kernel is specialised again so that every chunk takes
        // and gives the same types.
        let base = if is_for { 4 } else { 1 };
        let obase = if is_for { 3 } else { 2 };
        let mut widened = false;
        for (i, &v) in p.args.iter().enumerate() {
            if let Some(j) = p.outputs.iter().position(|&o| o == v) {
                let out = kernel.outputs[obase + j].ty;
                if let ArgSig::Scalar(s) = &mut sig.args[base + i] {
                    if *s != out {
                        *s = out;
                        arg_types[i] = Some(out);
                        widened = true;
                    }
                }
            }
        }
        if widened {
            kernel = self
                .specialize_quiet(p.kernel, sig, &data)
                .ok_or("kernel code cannot express it for these types")?;
        }
        if kernel.outputs.len() != obase + p.outputs.len() {
            return Err("kernel outputs do not match the loop".into());
        }
        let ready = Ready {
            kernel,
            arg_types,
            arrays,
        };
        if forced {
            return Ok(Some(ready));
        }
        let Some(backend) = self.backend.clone() else {
            return Err("no backend".into());
        };
        let mut b = backend
            .0
            .try_borrow_mut()
            .map_err(|_| "the backend is busy".to_string())?;
        Ok(b.compiled_ready(&ready.kernel, &serial_plan())
            .then_some(ready))
    }

    /// A host value passed to a host-tier kernel (a serial loop's or a function's):
    /// its signature entry, its flattened values pushed on `flat`. An array in the
    /// host's default mode is passed `'checked` with writes outside skipped, as the
    /// host treats it.
    pub(crate) fn host_arg(&self, val: &Value, flat: &mut Vec<Flat>) -> Result<ArgSig, String> {
        match val {
            Value::Array(a) => {
                let mut a = a.clone();
                let default = a.mode.mode == Mode::Default;
                if default {
                    a.mode.mode = Mode::Checked;
                }
                match self.arg_sig(&Value::Array(a), None, flat)? {
                    ArgSig::Array(mut t) => {
                        if default {
                            t.write = blazar_kir::WriteMode::Skip;
                        }
                        Ok(ArgSig::Array(t))
                    }
                    _ => Err("an array kernels cannot take".into()),
                }
            }
            Value::Int(..) | Value::Real(_) | Value::Complex(_) => self.arg_sig(val, None, flat),
            v => Err(format!(
                "a {}, which kernel code cannot hold",
                v.kind_name()
            )),
        }
    }

    fn serial_float(&self) -> Scalar {
        if self.prec == blazar_runtime::Prec::Double {
            Scalar::F64
        } else {
            Scalar::F32
        }
    }

    /// Runs the rest of the loop as kernel launches of growing chunks; `range` is the
    /// next counter value, the step and the last value of a `for` loop. Returns the
    /// iterations run.
    fn serial_chunks(
        &mut self,
        p: &SerialLoop,
        ready: &Ready,
        frame: &mut Frame,
        range: Option<(i64, i64, i64)>,
    ) -> R<u64> {
        let span = p.serial.span;
        let mut next = range.map_or(0, |r| r.0);
        let mut budget = FIRST_CHUNK;
        let mut total = 0u64;
        let obase = if range.is_some() { 3 } else { 2 };
        loop {
            let mut flat = vec![Flat::Value(KValue::Int(budget))];
            if let Some((_, st, last)) = range {
                for x in [next, st, last] {
                    flat.push(Flat::Value(KValue::Int(x)));
                }
            }
            for (i, &v) in p.args.iter().enumerate() {
                let val = self.var_ref(v, frame).cloned();
                match (val, ready.arg_types[i], &ready.arrays[i]) {
                    (Some(Value::Array(mut a)), None, Some(_)) => {
                        if a.mode.mode == Mode::Default {
                            a.mode.mode = Mode::Checked;
                        }
                        flat.push(Flat::Array(a));
                    }
                    (Some(val), Some(s), _) => flat.push(Flat::Value(kvalue_as(&val, s))),
                    _ => {
                        return Err(RunError::new(
                            span,
                            "internal error: a serial loop's variable changed kind",
                        ))
                    }
                }
            }
            let t0 = Instant::now();
            let sources = self.sources;
            let fail = |e: KernelError| serial_error(sources, e, &p.serial);
            let outs =
                self.run_kernel_mapped(&ready.kernel, &serial_plan(), flat, "loop", span, &fail)?;
            let elapsed = t0.elapsed();
            let int = |v: &KValue| match v {
                KValue::Int(i) => *i,
                KValue::Bool(b) => *b as i64,
                KValue::Float(f) => *f as i64,
                _ => 0,
            };
            let state = int(&outs[0]);
            let count = int(&outs[1]).max(0);
            if range.is_some() {
                next = int(&outs[2]);
            }
            if count > 0 {
                for (j, &v) in p.outputs.iter().enumerate() {
                    let o = ready.kernel.outputs[obase + j].ty;
                    let val = crate::launch::kvalue_to_value(outs[obase + j].clone(), o, self.prec);
                    self.write_var(v, frame, val);
                }
            }
            total += count as u64;
            if count > 0 {
                self.spend(count as u64, span)?;
            }
            if state != STATE_BUDGET {
                let _ = state == STATE_BROKE;
                return Ok(total);
            }
            // Ctrl-C and the step budget, between chunks.
            self.step(span)?;
            let per = elapsed.as_secs_f64() / budget.max(1) as f64;
            let want = if per > 0.0 {
                (CHUNK_TIME.as_secs_f64() / per) as i64
            } else {
                budget * 8
            };
            budget = want.clamp(1, (budget * 8).min(i32::MAX as i64));
        }
    }

    /// Records which tier ran the loop of `line` (for `--profile`).
    fn note_loop(&mut self, line: u32, interpreted: u64, compiled: u64, why: Option<&str>) {
        if let Some(prof) = self.profile.as_mut() {
            prof.host_loop(line, interpreted, compiled, why);
        }
    }
}

/// One thread, in order.
pub(crate) fn serial_plan() -> LaunchPlan {
    LaunchPlan {
        rank: 1,
        data_dims: [1, 1, 1, 1],
        block_dims: [1, 1, 1, 1],
        serial: true,
        block_given: false,
    }
}

/// A host scalar as a kernel value of type `s`.
fn kvalue_as(v: &Value, s: Scalar) -> KValue {
    let (re, im) = match v {
        Value::Int(i, _) if s.is_int() => return KValue::Int(*i),
        Value::Int(i, _) => (*i as f64, 0.0),
        Value::Real(x) => (*x, 0.0),
        Value::Complex(z) => (z.re, z.im),
        _ => (0.0, 0.0),
    };
    if s.is_complex() {
        KValue::Complex(re, im)
    } else if s.is_int() || s == Scalar::Bool {
        KValue::Int(re as i64)
    } else {
        KValue::Float(re)
    }
}

/// The name of host variable `v` of function `func`.
fn var_name(prog: &blazar_hir::Program, func: blazar_hir::FnId, v: Var) -> String {
    match v {
        Var::Local(s) => prog.functions[func as usize]
            .local_names
            .get(s as usize)
            .cloned(),
        Var::Global(g) => prog.global_names.get(g as usize).cloned(),
    }
    .unwrap_or_default()
}

/// A serial kernel's error, located as the interpreter locates it: at the element
/// access that failed (an index out of range), else at the statement on its line.
fn serial_error(
    sources: &blazar_diagnostics::SourceMap,
    e: KernelError,
    lp: &blazar_hir::Stmt,
) -> Box<RunError> {
    located_error(sources, e, std::slice::from_ref(lp), lp.span)
}

/// A host-tier kernel's error, located at the statement of `block` on the error's line,
/// else at `fallback`. An index out of range is located at the access that failed (the
/// kernel's record names its column); where a kernel could not name it, at the first
/// element access of that statement.
pub(crate) fn located_error(
    sources: &blazar_diagnostics::SourceMap,
    e: KernelError,
    block: &[blazar_hir::Stmt],
    fallback: blazar_diagnostics::Span,
) -> Box<RunError> {
    use blazar_launch::KernelErrorKind;
    let stmt = (e.line > 0)
        .then(|| crate::loops::stmt_on_line(sources, block, e.line))
        .flatten();
    let access = match e.kind {
        KernelErrorKind::OutOfBounds => crate::access_at::access_at(sources, block, e.line, e.col),
        _ => None,
    };
    let at = match (&e.kind, stmt, access) {
        (_, _, Some(a)) => a,
        // A record without the access's column: the statement's first access.
        (KernelErrorKind::OutOfBounds, Some(s), None) => {
            let mut first = None;
            for x in blazar_hir::visit::own_exprs(s) {
                blazar_hir::visit::each_expr(x, &mut |y| {
                    if first.is_none() && matches!(y.kind, blazar_hir::ExprKind::Index { .. }) {
                        first = Some(y.span);
                    }
                });
            }
            first.unwrap_or(s.span)
        }
        (_, Some(s), None) => s.span,
        _ => fallback,
    };
    let what = match e.kind {
        KernelErrorKind::AssertFailed => "assertion failed".to_string(),
        _ => e.message,
    };
    RunError::new(at, what)
}
