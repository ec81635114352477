//! The interpreter state: the program, the global variables, the call stack depth and
//! the runtime context; and the entry point that runs the script and `main()`.

use crate::error::{Flow, RunError, R};
use blazar_diagnostics::{SourceMap, Span};
use blazar_hir::{Program, Var};
use blazar_runtime::builtins::Ctx;
use blazar_runtime::{Prec, Value};

/// Options of a run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The deepest chain of user function calls before an error (stack safety).
    pub max_depth: usize,
    /// Loop iterations, calls and kernel positions allowed before an error; 0 means no
    /// limit (fuzzing uses a budget so that every run ends).
    pub max_steps: u64,
    /// Where kernels run (the embedding program chooses: the CPU backend, CUDA, or a
    /// chain of them); `None` makes every kernel launch an error.
    pub backend: Option<crate::BackendRef>,
    /// Whole-array expressions over at least this many elements run as fused kernels;
    /// `None` takes the backend's choice (`Backend::fuse_min`), `Some(usize::MAX)`
    /// keeps them all on the host.
    pub fuse_min: Option<usize>,
    /// Time every kernel launch and count host↔device copies per line (`--profile`).
    pub profile: bool,
    /// Set (to the signal's number) by a signal handler the embedding program installs:
    /// the run stops at its next loop iteration or call with a located error.
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    /// Called before every host statement (the debugger).
    pub host_hook: Option<crate::hook::HostHookRef>,
    /// Which tier runs the host loops that can run as serial kernels (`--host-tier`).
    pub host_tier: crate::serial::HostTier,
}

pub struct Interp<'p> {
    pub prog: &'p Program,
    pub sources: &'p SourceMap,
    /// Kernels specialised so far, by function and signature, in launch order.
    pub kernels: crate::launch::KernelCache,
    pub backend: Option<crate::BackendRef>,
    /// The backend keeps arrays on a device, so host reads may surface device faults.
    pub device_arrays: bool,
    /// See [`Options::fuse_min`]; kernels of whole-array expressions by region.
    pub fuse_min: usize,
    pub fused: crate::fuse::FusedCache,
    /// What `--profile` measures, when on.
    pub profile: Option<crate::profile::Profile>,
    /// See [`Options::interrupt`].
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    pub globals: Vec<Option<Value>>,
    pub ctx: Ctx,
    pub prec: Prec,
    pub depth: usize,
    pub max_depth: usize,
    /// Steps left before the budget of [`Options::max_steps`] runs out.
    pub steps_left: u64,
    /// See [`Options::host_hook`].
    pub host_hook: Option<crate::hook::HostHookRef>,
    /// With a host hook: the calls under way, each with its caller's locals, so that
    /// a stop can show the call stack (`crate::hook::HostStop::frames`).
    pub(crate) calls: Vec<crate::hook::CallRec>,
    /// See [`Options::host_tier`].
    pub host_tier: crate::serial::HostTier,
    /// Emptied vectors kept for the next call (locals of frames; arguments and results),
    /// so that a call of a user function allocates nothing on the heap.
    pub(crate) spare_locals: Vec<Vec<Option<Value>>>,
    pub(crate) spare_vals: Vec<Vec<Value>>,
    /// A form's callbacks are running (`events.rs`): events wait for them to end.
    pub(crate) in_callbacks: bool,
    /// Work between statements beyond the form's check: a host hook, the profiler,
    /// device arrays or fused statement groups (`exec_block_watched`). Fixed for the
    /// run: the fields it sums up are not changed after [`Interp::new`].
    pub(crate) watched: bool,
    /// Nodes [`Interp::num`] may still look at in the expression it evaluates.
    pub(crate) num_left: u32,
    /// Which tier runs each user function's calls (`hostfn.rs`).
    pub(crate) fn_tiers: crate::hostfn::FnTiers,
    /// The plans of the bodies run so far (`plan.rs`).
    pub(crate) plans: crate::plan::Plans<'p>,
}

/// The most emptied vectors of each kind kept for reuse (deep recursion frees the rest).
pub(crate) const SPARE: usize = 64;

/// The local variables of one function activation.
pub struct Frame {
    pub locals: Vec<Option<Value>>,
    pub func: blazar_hir::FnId,
}

impl<'p> Interp<'p> {
    pub fn new(prog: &'p Program, sources: &'p SourceMap, ctx: Ctx, opts: Options) -> Interp<'p> {
        let prec = ctx.prec;
        let mut it = Interp {
            prog,
            sources,
            kernels: Default::default(),
            device_arrays: opts
                .backend
                .as_ref()
                .is_some_and(|b| b.0.try_borrow().is_ok_and(|b| b.keeps_arrays())),
            fuse_min: opts.fuse_min.unwrap_or_else(|| {
                opts.backend
                    .as_ref()
                    .and_then(|b| b.0.try_borrow().ok().map(|b| b.fuse_min()))
                    .unwrap_or(usize::MAX)
            }),
            fused: crate::fuse::FusedCache::new(
                opts.backend
                    .as_ref()
                    .is_none_or(|b| b.0.try_borrow().is_ok_and(|b| b.grid_stride_reductions())),
            ),
            interrupt: opts.interrupt.clone(),
            profile: opts.profile.then(|| {
                let device = opts
                    .backend
                    .as_ref()
                    .and_then(|b| {
                        let mut b = b.0.try_borrow_mut().ok()?;
                        b.set_profiling(true);
                        Some(b.name())
                    })
                    .unwrap_or("none");
                crate::profile::Profile::new(device)
            }),
            backend: opts.backend.clone(),
            globals: vec![None; prog.global_names.len()],
            ctx,
            prec,
            depth: 0,
            max_depth: if opts.max_depth == 0 {
                2000
            } else {
                opts.max_depth
            },
            steps_left: if opts.max_steps == 0 {
                u64::MAX
            } else {
                opts.max_steps
            },
            host_hook: opts.host_hook.clone(),
            calls: Vec::new(),
            host_tier: opts.host_tier,
            spare_locals: Vec::new(),
            spare_vals: Vec::new(),
            in_callbacks: false,
            watched: false,
            num_left: 0,
            fn_tiers: crate::hostfn::FnTiers::new(
                prog,
                opts.host_tier,
                opts.backend.is_some() && opts.host_hook.is_none(),
            ),
            plans: Default::default(),
        };
        it.watched = it.host_hook.is_some()
            || it.profile.is_some()
            || it.device_arrays
            || (!prog.fused.is_empty() && it.fuse_min != usize::MAX);
        it
    }

    /// Runs the top-level statements, then `main()` if the program defines it.
    pub fn run_program(&mut self) -> R<()> {
        let script = &self.prog.functions[self.prog.script as usize];
        let mut frame = Frame {
            locals: Vec::new(),
            func: self.prog.script,
        };
        match self.exec_block(&script.body, &mut frame)? {
            Flow::Normal | Flow::Return => {}
            Flow::Break(_) | Flow::Continue(_) => {}
        }
        if let Some(main) = self.prog.main {
            self.call_user(main, Vec::new(), Vec::new(), 0, Span::default())?;
        }
        // A form's callbacks still queued, and its page while it stays open.
        let end = script.body.last().map_or(Span::default(), |s| s.span);
        self.ui_finish(end)
    }

    /// Counts one step (a loop iteration or a call) against the budget.
    #[inline(always)]
    pub fn step(&mut self, span: Span) -> R<()> {
        self.steps_left -= 1;
        if self.steps_left == 0 {
            return Err(RunError::new(
                span,
                "the step budget of this run is exhausted",
            ));
        }
        if let Some(sig) = &self.interrupt {
            let sig = sig.load(std::sync::atomic::Ordering::Relaxed);
            if sig != 0 {
                return Err(RunError::new(span, interrupt_message(sig)));
            }
        }
        Ok(())
    }

    /// Counts `n` steps at once: a kernel launch spends one per position, so a budget
    /// also bounds kernel work (loops inside kernels are not counted).
    pub fn spend(&mut self, n: u64, span: Span) -> R<()> {
        if n >= self.steps_left {
            self.steps_left = 1;
            return Err(RunError::new(
                span,
                "the step budget of this run is exhausted",
            ));
        }
        self.steps_left -= n;
        Ok(())
    }

    /// An empty vector for arguments or results (a reused one when there is).
    #[inline]
    pub(crate) fn take_vals(&mut self, cap: usize) -> Vec<Value> {
        match self.spare_vals.pop() {
            Some(v) => v,
            None => Vec::with_capacity(cap.max(2)),
        }
    }

    /// Keeps a vector of arguments or results for reuse (its values are dropped).
    #[inline]
    pub(crate) fn give_vals(&mut self, mut v: Vec<Value>) {
        if self.spare_vals.len() < SPARE && v.capacity() <= 16 {
            v.clear();
            self.spare_vals.push(v);
        }
    }

    pub fn flush(&mut self) {
        let _ = self.ctx.out.flush();
    }

    #[inline]
    pub fn read_var(&self, var: Var, frame: &Frame, span: Span) -> R<Value> {
        let slot = match var {
            Var::Local(s) => frame.locals.get(s as usize),
            Var::Global(g) => self.globals.get(g as usize),
        };
        match slot {
            Some(Some(v)) => Ok(v.clone()),
            _ => Err(RunError::new(
                span,
                format!(
                    "variable `{}` is used before it is assigned",
                    self.var_name(var, frame)
                ),
            )),
        }
    }

    #[inline]
    pub fn var_ref<'a>(&'a self, var: Var, frame: &'a Frame) -> Option<&'a Value> {
        match var {
            Var::Local(s) => frame.locals.get(s as usize).and_then(|v| v.as_ref()),
            Var::Global(g) => self.globals.get(g as usize).and_then(|v| v.as_ref()),
        }
    }

    /// The slot of a variable (`None` for a slot outside the frame, which cannot be).
    #[inline(always)]
    pub(crate) fn slot_mut<'a>(
        &'a mut self,
        var: Var,
        frame: &'a mut Frame,
    ) -> Option<&'a mut Option<Value>> {
        match var {
            Var::Local(s) => frame.locals.get_mut(s as usize),
            Var::Global(g) => self.globals.get_mut(g as usize),
        }
    }

    #[inline]
    pub fn write_var(&mut self, var: Var, frame: &mut Frame, v: Value) {
        match var {
            Var::Local(s) => {
                if let Some(slot) = frame.locals.get_mut(s as usize) {
                    *slot = Some(v);
                }
            }
            Var::Global(g) => {
                if let Some(slot) = self.globals.get_mut(g as usize) {
                    *slot = Some(v);
                }
            }
        }
    }

    /// The name of a variable, for messages.
    pub fn var_name(&self, var: Var, frame: &Frame) -> String {
        let names = match var {
            Var::Global(_) => &self.prog.global_names,
            Var::Local(_) => &self.prog.functions[frame.func as usize].local_names,
        };
        let (Var::Global(i) | Var::Local(i)) = var;
        names.get(i as usize).cloned().unwrap_or_default()
    }
}

use std::io::Write as _;

/// The error a run stops with when signal `sig` arrived.
pub fn interrupt_message(sig: usize) -> String {
    blazar_runtime::interrupt::message(sig)
}
