//! The JIT tier (`blazar-jit`): kernels compiled in memory through Cranelift in a
//! millisecond or two, run by the same launcher as the C++ tier's libraries.
//!
//! Each kernel is compiled once per process, on its first launch, from a per-thread
//! memo keyed like `prepared`'s (the memo keeps its kernels alive, so their addresses
//! stay unique). A kernel the JIT declines, or that the C++ tier's support plan (whose
//! parameter layout the launcher uses) does not take, is remembered as such.

use crate::abi::{FinishFn, RunFn};
use crate::launch::{self, Entry};
use blazar_codegen_c::cpp as support;
use blazar_kir::Kernel;
use blazar_launch::{ArgVal, ArrayArg, ExecOptions, KValue, KernelError, LaunchPlan};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// A kernel compiled by the JIT, with the plan its parameters are laid out by.
pub(crate) struct Jitted {
    plan: support::Plan,
    code: blazar_jit::Compiled,
}

impl Jitted {
    /// The plan its parameters are laid out by.
    pub(crate) fn plan(&self) -> &support::Plan {
        &self.plan
    }

    pub(crate) fn entry(&self) -> Entry {
        // SAFETY: `blazar_jit` compiles `run` and `finish` with exactly these C
        // signatures (its `abi` module spells the layout of `crate::abi`, which a test
        // checks); the code lives as long as `self`.
        unsafe {
            Entry {
                run: std::mem::transmute::<*const u8, RunFn>(self.code.run_ptr()),
                finish: std::mem::transmute::<*const u8, FinishFn>(self.code.finish_ptr()),
            }
        }
    }
}

/// Kernel `k` compiled by the JIT (`None`: declined), compiled on first use.
pub(crate) fn jitted(k: &Rc<Kernel>) -> Option<Arc<Jitted>> {
    type Memo = HashMap<usize, (Rc<Kernel>, Option<Arc<Jitted>>)>;
    thread_local! {
        static MEMO: RefCell<Memo> = RefCell::new(HashMap::new());
    }
    let key = Rc::as_ptr(k) as usize;
    if let Some(j) = MEMO.with(|m| m.borrow().get(&key).map(|(_, j)| j.clone())) {
        return j;
    }
    let start = std::time::Instant::now();
    let j = match support::plan(k) {
        Ok(plan) if !plan.blocky => {
            blazar_jit::compile(k, &plan.param_offsets).map(|code| Arc::new(Jitted { plan, code }))
        }
        Ok(_) => Err("barriers or shared memory".to_string()),
        Err(e) => Err(e),
    };
    if std::env::var_os("BLAZAR_JIT_STATS").is_some() {
        // For measurements: one line per kernel, on stderr.
        match &j {
            Ok(_) => eprintln!(
                "blazar: jit: {} compiled in {:.3} ms",
                k.name,
                start.elapsed().as_secs_f64() * 1e3
            ),
            Err(e) => eprintln!("blazar: jit: {} declined: {e}", k.name),
        }
    }
    let j = j.ok();
    MEMO.with(|m| m.borrow_mut().insert(key, (k.clone(), j.clone())));
    j
}

/// Runs `k` on the JIT tier; `None` when it declines the kernel or the launch.
pub(crate) fn try_launch(
    k: &Rc<Kernel>,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
) -> Option<Result<Vec<KValue>, KernelError>> {
    let j = jitted(k)?;
    launch::run(j.entry(), k, &j.plan, plan, args, arrays, opts)
}
