//! The native CPU tier: KIR kernels compiled to machine code through generated C++.
//!
//! [`try_launch`] mirrors [`blazar_cpu::launch`]: it asks `blazar_codegen_c::cpp`
//! whether it can run a kernel (`plan`) and for its C++ source (`generate`, the C++
//! dialect of the one C printer), compiles the source with the system C++ compiler into
//! a cached shared object and loads it (`compile`, with the prelude precompiled once
//! per toolchain under GCC: `pch`), and runs its work items in parallel (`launch`,
//! over the threads of `spread`). The results
//! are the CPU executor's, which stays the oracle: the same work items, the same
//! arithmetic, the same boundary modes, the same errors. The source depends on the
//! kernel and, for small last extents, on the launch's last extent (`blazar_codegen_c::cpp::MAX_FLAT`).
//! A kernel the tier cannot run (see `support`) is left to the interpreter, per kernel.

mod abi;
mod backend;
mod background;
mod children;
mod compile;
mod direct;
mod handoff;
mod jit;
mod launch;
mod pch;
mod spread;
mod toolchain;
mod trace;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_descend;
#[cfg(test)]
mod tests_fast;
#[cfg(test)]
mod tests_interleave;
#[cfg(test)]
mod tests_once;
#[cfg(test)]
mod tests_pch;
#[cfg(test)]
mod tests_selects;
#[cfg(test)]
mod tests_updates;

use blazar_codegen_c::cpp::{self as emit, self as support};
use blazar_kir::Kernel;
use blazar_launch::{
    ArgVal, ArrayArg, ExecOptions, KValue, KernelError, KernelErrorKind, LaunchPlan,
};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

pub use backend::CpuBackend;
pub use background::wait_for_compiles;
pub use handoff::{abandon_compiles, end_compiles, fill_cache, wait_requested};
pub use toolchain::{compiler_found, set_deterministic, FLAGS};

/// Which CPU tier runs kernels. The library default is the interpreter (no compiler is
/// ever run unless asked for); `blazar run` defaults to `Auto`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CpuTier {
    /// Native code when a C++ compiler works, else the interpreter.
    Auto,
    /// Always the SIMT interpreter.
    #[default]
    Interp,
    /// Native code; an error when no compiler works or generated code fails to build.
    /// Kernels the native tier does not support still run on the interpreter.
    Native,
    /// Only the JIT (`blazar-jit`): kernels it declines run on the interpreter.
    Jit,
}

/// Whether the native tier can compile code here (`Err` says why not).
pub fn available() -> Result<(), String> {
    toolchain::toolchain().map(|_| ())
}

/// Whether the toolchain was probed and does not work (never waits for the probe).
fn probe_failed() -> bool {
    matches!(toolchain::probed(), Some(Err(_)))
}

/// Why kernel `k` does not run natively (`None`: it does).
pub fn unsupported(k: &Kernel) -> Option<String> {
    support::plan(k).err()
}

/// The C++ source generated for kernel `k` (`None` when it is not supported).
pub fn source(k: &Kernel) -> Option<String> {
    support::plan(k).ok().map(|p| emit::generate(k, &p, None))
}

fn tier_error(message: String) -> KernelError {
    KernelError::new(
        0,
        KernelErrorKind::BadLaunch,
        format!("native CPU tier: {message}"),
    )
}

/// Runs kernel `k` natively over `plan`, like [`blazar_cpu::launch`]. `None`: not
/// handled here (an unsupported kernel or launch; without `strict`, also no compiler or
/// a build failure), so the caller runs the interpreter. With `strict` (the `native`
/// tier), a missing compiler or a build failure is an error.
pub fn try_launch(
    k: &Rc<Kernel>,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
    strict: bool,
) -> Option<Result<Vec<KValue>, KernelError>> {
    let tier = if strict {
        CpuTier::Native
    } else {
        CpuTier::Auto
    };
    try_launch_on(tier, k, plan, args, arrays, opts)
}

/// [`try_launch`] on `tier`. The tiers in order: `auto` runs a kernel's C++ library
/// once it is ready (loaded, or in the disk cache), else the JIT's code (compiled now,
/// in a millisecond or two) while the C++ compiles in the background; `native` only
/// the C++ (compiled now); `jit` only the JIT. `None`: the interpreter runs it.
pub fn try_launch_on(
    tier: CpuTier,
    k: &Rc<Kernel>,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
) -> Option<Result<Vec<KValue>, KernelError>> {
    let strict = tier == CpuTier::Native;
    match tier {
        CpuTier::Interp => return None,
        CpuTier::Jit => return jit_launch(k, plan, args, arrays, opts),
        CpuTier::Auto | CpuTier::Native => {}
    }
    let start = std::time::Instant::now();
    let prepared = match prepared(k, launch::last_extent(plan, k.rank as usize), strict) {
        Prepared::Unsupported | Prepared::Building(..) | Prepared::Failed(_) if !strict => {
            return jit_launch(k, plan, args, arrays, opts)
        }
        Prepared::Unsupported | Prepared::Building(..) => return None,
        Prepared::Failed(e) => return Some(Err(tier_error(format!("kernel {}: {e}", k.name)))),
        Prepared::Ready(kplan, lib) => (kplan, lib),
    };
    let entry = launch::Entry {
        run: prepared.1.run,
        finish: prepared.1.finish,
    };
    let r = launch::run(entry, k, &prepared.0, plan, args, arrays, opts);
    if trace::on() && r.is_some() {
        trace::note(&k.name, trace::Ran::Cpp, start);
    }
    r
}

/// [`jit::try_launch`], traced (`BLAZAR_TIER_TRACE`).
fn jit_launch(
    k: &Rc<Kernel>,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
) -> Option<Result<Vec<KValue>, KernelError>> {
    let start = std::time::Instant::now();
    let r = jit::try_launch(k, plan, args, arrays, opts);
    if trace::on() && r.is_some() {
        trace::note(&k.name, trace::Ran::Jit, start);
    }
    r
}

/// Runs `k` on the SIMT interpreter (the fallback of every tier), traced
/// (`BLAZAR_TIER_TRACE`).
pub(crate) fn interp_launch(
    k: &Rc<Kernel>,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
) -> Result<Vec<KValue>, KernelError> {
    let start = std::time::Instant::now();
    let r = blazar_cpu::launch(k, plan, args, arrays, opts);
    if trace::on() {
        trace::note(&k.name, trace::Ran::Interp, start);
    }
    r
}

/// Kernel `k`'s compiled code on `tier` now, for direct calls of one thread
/// ([`blazar_launch::Backend::direct_call`]): the C++ library when it is ready (never
/// waiting for it), else, where the tier allows, the JIT's. `None`: a launch runs it.
pub fn direct_call(tier: CpuTier, k: &Rc<Kernel>) -> Option<Box<dyn blazar_launch::DirectCall>> {
    let serial = LaunchPlan {
        rank: 1,
        data_dims: [1, 1, 1, 1],
        block_dims: [1, 1, 1, 1],
        serial: true,
        block_given: false,
    };
    // Never waits for the toolchain's probe: until it is known, `prepared` says
    // `Building` and the JIT's code runs.
    if matches!(tier, CpuTier::Auto | CpuTier::Native) && !probe_failed() {
        if let Prepared::Ready(kplan, lib) =
            prepared(k, launch::last_extent(&serial, k.rank as usize), false)
        {
            let entry = launch::Entry {
                run: lib.run,
                finish: lib.finish,
            };
            let d = direct::Direct::new(k, entry, &kplan, direct::Keep::Library(lib))?;
            return Some(Box::new(d));
        }
    }
    if matches!(tier, CpuTier::Auto | CpuTier::Jit) {
        let j = jit::jitted(k)?;
        let entry = j.entry();
        let plan = j.plan().clone();
        let d = direct::Direct::new(k, entry, &plan, direct::Keep::Jit(j))?;
        return Some(Box::new(d));
    }
    None
}

/// Why the JIT tier declines kernel `k` (`None`: it takes it).
pub fn jit_unsupported(k: &Kernel) -> Option<String> {
    blazar_jit::unsupported(k)
}

/// Whether kernel `k` has native code for `plan` now; queues its compile in the
/// background when it has not been asked for yet ([`blazar_launch::Backend::compiled_ready`]).
pub fn compiled_ready(k: &Rc<Kernel>, plan: &LaunchPlan) -> bool {
    if probe_failed() {
        return false;
    }
    matches!(
        prepared(k, launch::last_extent(plan, k.rank as usize), false),
        Prepared::Ready(..)
    )
}

/// Says once per process (on stderr, unless `BLAZAR_QUIET` is set) that the default
/// tier runs a kernel on the interpreter because its native code could not be built,
/// as `blazar run` says when there is no compiler at all.
pub(crate) fn note_fallback(kernel: &str, why: &str) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    if std::env::var_os("BLAZAR_QUIET").is_some() {
        return;
    }
    ONCE.call_once(|| {
        let why = why.lines().next().unwrap_or("");
        eprintln!(
            "blazar: note: kernel `{kernel}` runs on the interpreter, several times slower \
             than compiled code: its native code could not be built ({why}); \
             `--cpu-tier native` makes this an error"
        );
    });
}

/// A kernel made ready for one last extent: its plan and loaded library, or why not,
/// or its source while a background thread compiles it.
#[derive(Clone)]
enum Prepared {
    Unsupported,
    Failed(String),
    Building(Rc<support::Plan>, Rc<String>),
    Ready(Rc<support::Plan>, Arc<compile::Library>),
}

/// The kernel prepared for `last`, from a per-thread memo: generating and hashing the
/// C++ source costs tens of microseconds, too much for every launch of a small kernel.
/// The memo keeps its kernels alive, so their addresses stay unique while remembered.
/// With `wait` the compiler runs now; otherwise a kernel not yet compiled is queued for
/// a background thread (`background`) and reported as `Building` until it is ready.
fn prepared(k: &Rc<Kernel>, last: Option<i64>, wait: bool) -> Prepared {
    type Memo = HashMap<(usize, Option<i64>), (Rc<Kernel>, Prepared)>;
    thread_local! {
        static MEMO: RefCell<Memo> = RefCell::new(HashMap::new());
    }
    let key = (Rc::as_ptr(k) as usize, last);
    let known = MEMO.with(|m| m.borrow().get(&key).map(|(_, p)| p.clone()));
    let p = match known {
        Some(Prepared::Building(kplan, src)) => ready(kplan, src, wait),
        Some(p) => return p,
        None => match support::plan(k) {
            Err(_) => Prepared::Unsupported,
            Ok(kplan) => {
                let src = emit::generate(k, &kplan, last);
                ready(Rc::new(kplan), Rc::new(src), wait)
            }
        },
    };
    MEMO.with(|m| m.borrow_mut().insert(key, (k.clone(), p.clone())));
    p
}

/// The library of `src`: compiled now with `wait`, else taken when the background
/// compile has finished.
fn ready(kplan: Rc<support::Plan>, src: Rc<String>, wait: bool) -> Prepared {
    if wait {
        return match compile::load(&src) {
            Ok(lib) => Prepared::Ready(kplan, lib),
            Err(e) => Prepared::Failed(e),
        };
    }
    match background::load_or_queue(&src) {
        background::Ready::Loaded(lib) => Prepared::Ready(kplan, lib),
        background::Ready::Building => Prepared::Building(kplan, src),
        background::Ready::Failed(e) => Prepared::Failed(e),
    }
}
