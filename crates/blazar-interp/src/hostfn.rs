//! The compiled host tier for whole functions: the run-time half of the function
//! outliner (`passes::serialize_functions`).
//!
//! A host function whose body has a kernel form has a one-thread kernel
//! ([`blazar_hir::SerialFn`]). Under [`HostTier::Auto`] its calls start on the
//! interpreter, timed; once they have taken [`SWITCH_AFTER`] in all (at the first call
//! for a function with loops: one long call cannot move half-way), the kernel is
//! specialised for the arguments' types and the backend asked for compiled code
//! (`Backend::compiled_ready`; the CPU's JIT compiles in a millisecond or two). When it
//! is ready, the calls run it, timed too, and after [`TRIAL_CALLS`] of them the faster
//! tier keeps the function (a launch costs more than a one-line body takes on the
//! interpreter; with no interpreted call to compare, the compiled tier stays). [`HostTier::Compiled`] runs the
//! kernel from the first call on any backend; [`HostTier::Interp`], a debugger's hook or
//! no backend never do. A call whose arguments the kernel cannot take (a type kernels
//! cannot hold, a signature the specialiser refuses) runs on the interpreter.
//!
//! The kernel takes the iteration budget, the room of nested calls (`max_depth` less
//! the current depth: a recursive function's kernel calls itself, `blazar_kir::calls`,
//! and stops where the interpreter would, with its error) and the parameters as scalars
//! (arrays by reference, as serial loops take them), and gives the outputs, which the interpreter's epilogue of the call then
//! converts and checks as for an interpreted body. Its loops spend an iteration budget
//! (the run's step budget); a kernel that runs out reports the budget exhausted. An
//! error inside is located at the function's statement on the error's line; an index
//! out of range at the access that failed (the kernel's error record names its line
//! and column, `blazar_kir::Loc`). One that failed in a function the call reached (a
//! call the kernel inlined or makes) makes the interpreter run the call again when that
//! cannot change what it finds (no array written: [`replayable`]), so that the error
//! names the access and the calls that led to it, as an interpreted call's does. A kernel
//! with calls runs only as the C++ tier's code: a backend that cannot call declines it
//! before running anything and the function stays on the interpreter. Its calls spend
//! the budget too, one unit each, as the interpreter's calls spend a step (calls that
//! the kernel inlines do not). Ctrl-C stops a compiled call too: its loops and real
//! calls poll the process's interrupt flag every 65536 iterations or calls (one test
//! of the budget's low bits; the SIMT interpreter tests it at every iteration), and the
//! kernel's interrupt error is reported at the statement on its line, as an
//! interpreted loop reports it, the output printed before it kept.

use crate::error::{RunError, R};
use crate::interp::{Frame, Interp};
use crate::launch::Flat;
use crate::serial::{located_error, serial_plan, HostTier, SWITCH_AFTER};
use blazar_diagnostics::Span;
use blazar_hir::serial::STATE_BUDGET;
use blazar_hir::FnId;
use blazar_kir::{Kernel, Scalar};
use blazar_launch::{DirectCall, KValue, KernelError};
use blazar_passes::{ArgSig, Signature};
use blazar_runtime::Value;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Compiled calls timed before the faster tier is chosen for good.
pub const TRIAL_CALLS: u64 = 32;

/// A function's kernel for one call, and the call's flattened arguments.
type Launch = (Rc<Kernel>, Vec<Flat>);

/// Where a function's calls run now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The interpreter, for good (no kernel, refused, or slower compiled).
    Off,
    /// The interpreter, timed, until the kernel is asked for.
    Watch,
    /// The kernel, timed, for [`TRIAL_CALLS`] calls.
    Trial,
    /// The kernel.
    On,
}

/// One function's tier and what was measured.
struct FnState {
    phase: Phase,
    why: Option<String>,
    interp: (u64, Duration),
    compiled: (u64, Duration),
    /// The kernel for the last call's signature.
    last: Option<(Signature, Rc<Kernel>)>,
    /// Watching: the interpreted calls after which the backend is asked (again) for
    /// the kernel; doubled at each answer "not yet", so that asking costs little.
    ask_at: u64,
    /// Trial: the compiled calls timed for the choice; the first (it may wait for its
    /// compile) is not.
    trial: (u64, Duration),
    warmed: bool,
    /// The body has a loop: its kernel is asked for at the first call (one long call
    /// cannot move to compiled code half-way, and the JIT compiles in a millisecond).
    loops: bool,
    /// The last kernel's compiled code, called directly (no launch) when its
    /// parameters are all values (`Backend::direct_call`).
    direct: Option<(Rc<Kernel>, Box<dyn DirectCall>)>,
}

/// Per function of the program, its tier (see the module documentation).
pub struct FnTiers {
    states: Vec<FnState>,
    forced: bool,
}

impl FnTiers {
    pub(crate) fn new(prog: &blazar_hir::Program, tier: HostTier, usable: bool) -> FnTiers {
        let states = (0..prog.functions.len() as FnId)
            .map(|id| {
                let body = &prog.functions[id as usize].body;
                let loops = has_loop(body);
                let (phase, why) = match prog.serial_fns.get(&id) {
                    Some(Ok(_)) if usable && tier == HostTier::Compiled => (Phase::On, None),
                    Some(Ok(_)) if usable && tier == HostTier::Auto => (Phase::Watch, None),
                    Some(Ok(_)) => (Phase::Off, Some("the interpreter was asked for".into())),
                    Some(Err(w)) => (Phase::Off, Some(w.clone())),
                    None => (Phase::Off, None),
                };
                FnState {
                    loops,
                    phase,
                    why,
                    interp: (0, Duration::ZERO),
                    compiled: (0, Duration::ZERO),
                    last: None,
                    ask_at: 0,
                    trial: (0, Duration::ZERO),
                    warmed: false,
                    direct: None,
                }
            })
            .collect();
        FnTiers {
            states,
            forced: tier == HostTier::Compiled,
        }
    }

    /// Whether calls of `id` run on the interpreter without anything to measure.
    #[inline]
    pub(crate) fn off(&self, id: FnId) -> bool {
        self.states
            .get(id as usize)
            .is_none_or(|s| s.phase == Phase::Off)
    }
}

impl<'p> Interp<'p> {
    /// Runs the body of user function `id` (its parameters in `frame`) on the tier its
    /// calls use now, leaving its outputs in `frame`.
    pub(crate) fn run_fn_body(&mut self, id: FnId, frame: &mut Frame, span: Span) -> R<()> {
        let st = &mut self.fn_tiers.states[id as usize];
        if st.phase == Phase::Watch
            && (st.loops || st.interp.1 > SWITCH_AFTER)
            && st.interp.0 >= st.ask_at
        {
            // Hot, or a function with loops: ask for the kernel (asking again after
            // twice as many calls while it compiles).
            st.ask_at = (st.interp.0 * 2).max(1);
            match self.fn_kernel(id, frame, true) {
                Ok(Some(_)) => self.fn_tiers.states[id as usize].phase = Phase::Trial,
                Ok(None) => {}
                Err(why) => {
                    let st = &mut self.fn_tiers.states[id as usize];
                    st.phase = Phase::Off;
                    st.why = Some(why);
                }
            }
        }
        let phase = self.fn_tiers.states[id as usize].phase;
        let timed = self.profile.is_some() || matches!(phase, Phase::Watch | Phase::Trial);
        let t0 = timed.then(Instant::now);
        let mut ran_compiled = false;
        if matches!(phase, Phase::Trial | Phase::On) {
            ran_compiled = self.call_compiled(id, frame, span)?;
        }
        if !ran_compiled {
            let prog = self.prog;
            self.exec_block(&prog.functions[id as usize].body, frame)?;
        }
        let Some(t0) = t0 else {
            return Ok(());
        };
        let took = t0.elapsed();
        let st = &mut self.fn_tiers.states[id as usize];
        if ran_compiled && phase == Phase::Trial {
            if st.warmed {
                st.trial.0 += 1;
                st.trial.1 += took;
            } else {
                st.warmed = true;
            }
        }
        let row = if ran_compiled {
            &mut st.compiled
        } else {
            &mut st.interp
        };
        row.0 += 1;
        row.1 += took;
        if phase == Phase::Trial && st.trial.0 >= TRIAL_CALLS {
            let per = |(n, t): (u64, Duration)| t.as_secs_f64() * 1e9 / n.max(1) as f64;
            let (i, c) = (per(st.interp), per(st.trial));
            // Without interpreted calls to compare with (a function with loops):
            // compiled.
            if c < i || st.interp.0 == 0 {
                st.phase = Phase::On;
            } else {
                st.phase = Phase::Off;
                st.why = Some(format!(
                    "a compiled call takes longer ({c:.0} ns) than an interpreted one ({i:.0} ns)"
                ));
            }
        }
        Ok(())
    }

    /// The kernel of function `id` for the arguments in `frame`: `Ok(None)` while the
    /// backend compiles it (when `ask`; forced runs do not wait), `Err` when it cannot
    /// be used for them.
    fn fn_kernel(&mut self, id: FnId, frame: &Frame, ask: bool) -> Result<Option<Launch>, String> {
        let prog = self.prog;
        let Some(Ok(plan)) = prog.serial_fns.get(&id) else {
            return Err("no kernel".into());
        };
        let kfn = plan.kernel;
        let f = &prog.functions[id as usize];
        let mut sig = Signature {
            args: vec![ArgSig::Scalar(Scalar::I64); 2],
            captures: vec![],
            rank: 1,
            outputs: vec![Scalar::I32, Scalar::I64],
            extents: vec![],
        };
        let budget = self.steps_left.saturating_sub(1).min(i64::MAX as u64) as i64;
        // How many calls may still nest inside (the interpreter's depth limit).
        let room = self.max_depth.saturating_sub(self.depth) as i64;
        let mut flat = vec![
            Flat::Value(KValue::Int(budget)),
            Flat::Value(KValue::Int(room)),
        ];
        let mut data = vec![Value::int(0), Value::int(0)];
        for p in &f.params {
            let Some(v) = frame.locals[p.slot as usize].as_ref() else {
                return Err(format!("`{}` has no value", p.name));
            };
            let s = self
                .host_arg(v, &mut flat)
                .map_err(|w| format!("`{}` is {w}", p.name))?;
            sig.args.push(s);
            data.push(v.clone());
        }
        // The outputs start at the lowest type and widen to what the body assigns.
        sig.outputs.extend(vec![Scalar::Bool; f.outputs.len()]);
        if let Some((s, k)) = &self.fn_tiers.states[id as usize].last {
            if *s == sig {
                return Ok(Some((k.clone(), flat)));
            }
        }
        let kernel = self
            .specialize_quiet(kfn, sig.clone(), &data)
            .ok_or("kernel code cannot express it for these types")?;
        if kernel.outputs.len() != 2 + f.outputs.len() {
            return Err("kernel outputs do not match the function".into());
        }
        if ask && !self.fn_tiers.forced {
            // A new signature: used once the backend has its compiled code.
            let Some(backend) = self.backend.clone() else {
                return Err("no backend".into());
            };
            let mut b = backend
                .0
                .try_borrow_mut()
                .map_err(|_| "the backend is busy".to_string())?;
            if !b.compiled_ready(&kernel, &serial_plan()) {
                return Ok(None);
            }
        }
        self.fn_tiers.states[id as usize].last = Some((sig, kernel.clone()));
        Ok(Some((kernel, flat)))
    }

    /// Runs function `id`'s kernel for the parameters in `frame` and puts its outputs
    /// there: `false` when the kernel cannot take these arguments (the caller runs the
    /// body on the interpreter).
    fn call_compiled(&mut self, id: FnId, frame: &mut Frame, span: Span) -> R<bool> {
        let (kernel, flat) = match self.fn_kernel(id, frame, true) {
            Ok(Some(x)) => x,
            Ok(None) => return Ok(false),
            Err(why) => {
                let st = &mut self.fn_tiers.states[id as usize];
                st.why = Some(why);
                if !self.fn_tiers.forced {
                    st.phase = Phase::Off;
                }
                return Ok(false);
            }
        };
        let budget = match flat.first() {
            Some(Flat::Value(KValue::Int(b))) => *b,
            _ => 0,
        };
        let prog = self.prog;
        let f = &prog.functions[id as usize];
        let sources = self.sources;
        let max_depth = self.max_depth;
        // A backend that cannot run calls declined before running anything.
        let declined = std::cell::Cell::new(false);
        // Its functions' calls and loops spent the rest of the step budget.
        let exhausted = std::cell::Cell::new(false);
        // An index out of range at an access outside the function's own body (in a
        // function the call reached), which the kernel names by line and column only.
        let out_of_bounds = std::cell::Cell::new(false);
        let fail = |e: KernelError| {
            if e.message == blazar_kir::calls::NOT_COMPILED_MESSAGE {
                declined.set(true);
            }
            if e.message == blazar_kir::calls::BUDGET_MESSAGE {
                exhausted.set(true);
            }
            if e.kind == blazar_launch::KernelErrorKind::OutOfBounds
                && crate::access_at::access_at(sources, &f.body, e.line, e.col).is_none()
            {
                out_of_bounds.set(true);
            }
            if e.message == blazar_kir::calls::CALL_DEPTH_MESSAGE {
                // As the interpreter words it, at the call that would go deeper.
                let at = call_on_line(prog, sources, e.line).unwrap_or(span);
                return RunError::new(
                    at,
                    format!("too many nested calls (more than {max_depth}): runaway recursion?"),
                );
            }
            located_error(sources, e, &f.body, f.span)
        };
        let ran = match self.direct(id, &kernel, &flat) {
            Some(r) => r.map_err(fail),
            None => self.run_kernel_mapped(&kernel, &serial_plan(), flat, "function", span, &fail),
        };
        let outs = match ran {
            Ok(outs) => outs,
            Err(_) if declined.get() => {
                let st = &mut self.fn_tiers.states[id as usize];
                st.why = Some(blazar_kir::calls::NOT_COMPILED_MESSAGE.into());
                st.phase = Phase::Off;
                return Ok(false);
            }
            Err(_) if exhausted.get() => {
                let all = self.steps_left;
                return self.spend(all, span).map(|()| true);
            }
            Err(_) if out_of_bounds.get() && replayable(prog, id) => {
                // The call changed nothing the interpreter would see: it runs the call
                // again and reports the access that fails inside the function the call
                // reached, with the calls that led there, as an interpreted call does.
                return Ok(false);
            }
            Err(e) => return Err(e),
        };
        let int = |v: &KValue| match v {
            KValue::Int(i) => *i,
            KValue::Bool(b) => *b as i64,
            KValue::Float(x) => *x as i64,
            _ => 0,
        };
        let state = int(&outs[0]);
        let left = int(&outs[1]).max(0);
        if state == STATE_BUDGET {
            let all = self.steps_left;
            self.spend(all, span)?;
        }
        self.spend((budget - left).max(0) as u64, span)?;
        for (j, o) in f.outputs.iter().enumerate() {
            let ty = kernel.outputs[2 + j].ty;
            let v = crate::launch::kvalue_to_value(outs[2 + j].clone(), ty, self.prec);
            frame.locals[o.slot as usize] = Some(v);
        }
        Ok(true)
    }

    /// Runs `kernel` (function `id`'s) by a direct call of its compiled code when all
    /// its arguments are values and the backend has the code: `None` when a launch
    /// must run it.
    fn direct(
        &mut self,
        id: FnId,
        kernel: &Rc<Kernel>,
        flat: &[Flat],
    ) -> Option<Result<Vec<KValue>, KernelError>> {
        if self.profile.is_some() {
            // `--profile` times launches (and a GPU's events): the launch path.
            return None;
        }
        let mut args = Vec::with_capacity(flat.len());
        for f in flat {
            match f {
                Flat::Value(v) => args.push(v.clone()),
                Flat::Array(_) => return None,
            }
        }
        let st = &mut self.fn_tiers.states[id as usize];
        if !matches!(&st.direct, Some((k, _)) if Rc::ptr_eq(k, kernel)) {
            let backend = self.backend.clone()?;
            let mut b = backend.0.try_borrow_mut().ok()?;
            let d = b.direct_call(kernel)?;
            st.direct = Some((kernel.clone(), d));
        }
        let (_, d) = st.direct.as_mut()?;
        Some(d.call(&args))
    }

    /// `--profile`: each function's calls and time per tier, and why it stayed on the
    /// interpreter.
    pub(crate) fn note_functions(&mut self) {
        let Some(prof) = self.profile.as_mut() else {
            return;
        };
        for (id, st) in self.fn_tiers.states.iter().enumerate() {
            if st.interp.0 == 0 && st.compiled.0 == 0 {
                continue;
            }
            let f = &self.prog.functions[id];
            let line = self.sources.line_of(f.span) as u32;
            let why = match (&st.why, kernel_form(self.prog, id as FnId), st.phase) {
                (Some(w), _, _) => w.as_str(),
                (None, false, _) => "no kernel form (a lambda, a closure or the script)",
                (None, true, Phase::Watch) => "its calls took less than 2 ms in all",
                _ => "-",
            };
            prof.host_fn(
                line,
                &f.name,
                st.interp,
                st.compiled,
                (st.phase == Phase::Off || st.compiled.0 == 0).then_some(why),
            );
        }
    }
}

/// The span of the first call of a user function on source line `line` (where a
/// compiled call that would nest too deep is reported).
fn call_on_line(
    prog: &blazar_hir::Program,
    sources: &blazar_diagnostics::SourceMap,
    line: u32,
) -> Option<Span> {
    use blazar_hir::{Callee, ExprKind};
    let mut found = None;
    for f in &prog.functions {
        blazar_hir::visit::each_expr_in(&f.body, &mut |x| {
            if let ExprKind::Call {
                callee: Callee::SelfCall(_) | Callee::Group(_) | Callee::Nested { .. },
                ..
            } = &x.kind
            {
                if found.is_none() && sources.line_of(x.span) as u32 == line {
                    found = Some(x.span);
                }
            }
        });
        if found.is_some() {
            break;
        }
    }
    found
}

/// Whether a failed compiled call of function `id` may run again on the interpreter
/// with the same result: neither it nor a function it calls writes an element of an
/// array (kernel code has no other effect the host sees, and draws no random numbers).
fn replayable(prog: &blazar_hir::Program, id: FnId) -> bool {
    use blazar_hir::StmtKind as S;
    fn writes(body: &[blazar_hir::Stmt]) -> bool {
        body.iter().any(|s| {
            match &s.kind {
                S::Assign { target, .. } if !target.path.is_empty() => return true,
                S::MultiAssign { targets, .. } if targets.iter().any(|t| !t.path.is_empty()) => {
                    return true
                }
                _ => {}
            }
            blazar_hir::visit::blocks(s).into_iter().any(writes)
        })
    }
    blazar_passes::reachable(prog, id)
        .into_iter()
        .all(|f| !writes(&prog.functions[f as usize].body))
}

/// Whether the function outliner gave function `id` a kernel.
fn kernel_form(prog: &blazar_hir::Program, id: FnId) -> bool {
    matches!(prog.serial_fns.get(&id), Some(Ok(_)))
}

/// Whether `body` holds a loop (of any kind, at any depth).
fn has_loop(body: &[blazar_hir::Stmt]) -> bool {
    use blazar_hir::StmtKind as S;
    body.iter().any(|s| {
        matches!(
            s.kind,
            S::ForRange { .. } | S::While { .. } | S::Repeat { .. } | S::Serial(_) | S::Parallel(_)
        ) || blazar_hir::visit::blocks(s).into_iter().any(has_loop)
    })
}
