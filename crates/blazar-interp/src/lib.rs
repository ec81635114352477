//! The host interpreter: loads a program, resolves it and runs its HIR.
//!
//! [`load`] reads a file and its imports (the only I/O of the front end happens here),
//! [`check`] parses and resolves, and [`run`] executes host code, calling the runtime
//! for array operations and builtins. Whole-array expressions over large arrays run as
//! fused kernels (`fuse`) on the backend that runs `parallel_do`.

mod access_at;
mod assign;
mod call;
mod coerce;
mod dims;
mod embed;
mod error;
mod eval;
mod events;
mod exec;
mod fuse;
mod hook;
mod hostfn;
mod interp;
mod intrinsics;
mod launch;
mod launch_values;
mod load;
mod loops;
mod num;
mod plan;
mod plan_append;
mod plan_build;
mod plan_run;
mod precheck;
mod profile;
mod scalar;
mod sched;
mod serial;
mod source;
pub mod stdlib;
mod typeof_;

pub use blazar_launch::{ArrayOp, Backend, BackendRef};
pub use embed::{CallError, Module};
pub use error::RunError;
pub use hook::{HostFrame, HostHook, HostHookRef, HostStop};
pub use interp::{Frame, Interp, Options};
pub use launch_values::kernel_line_span;
pub use load::{check, diagnose, load, lower_hinted, splice_imports_of, Loaded};
pub use loops::LOOP_MIN;
pub use serial::HostTier;

use blazar_diagnostics::Diagnostic;
use blazar_runtime::builtins::Ctx;

/// Runs a loaded, error-free program. Returns the run-time error, if any, as a
/// diagnostic located in the program.
pub fn run(loaded: &Loaded, ctx: Ctx, opts: Options) -> Result<(), Diagnostic> {
    run_collect(loaded, ctx, opts).0
}

/// Runs a program with [`Options::profile`] and returns, with its result, the profile
/// tables to print after its output (`None` when not profiling).
pub fn run_profiled(
    loaded: &Loaded,
    ctx: Ctx,
    opts: Options,
) -> (Result<(), Diagnostic>, Option<String>) {
    let mut it = Interp::new(&loaded.program, &loaded.sources, ctx, opts);
    let result = it.run_program();
    // Figures are written (and listed) whether or not the program failed; a failure to
    // write them is the run's error when the program itself succeeded.
    let figures = blazar_runtime::builtins::figure::finish(&mut it.ctx);
    it.flush();
    it.note_functions();
    let tables = it.profile.as_ref().map(|p| p.render());
    let result = match (result, figures) {
        (Ok(()), Err(e)) => Err(Diagnostic::global(e.message)),
        (r, _) => r.map_err(|e| e.into_diagnostic()),
    };
    (result, tables)
}

/// Runs a program and also returns every kernel specialisation it launched, in the
/// order of their first launch (for `blazar emit kir`).
pub fn run_collect(
    loaded: &Loaded,
    ctx: Ctx,
    opts: Options,
) -> (Result<(), Diagnostic>, Vec<blazar_kir::Kernel>) {
    let mut it = Interp::new(&loaded.program, &loaded.sources, ctx, opts);
    let result = it.run_program();
    it.flush();
    let kernels = it.kernels.in_order();
    (result.map_err(|e| e.into_diagnostic()), kernels)
}

/// Runs a program and also returns every AIR region its whole-array expressions formed,
/// each with the name of its kernel, in the order they were first lowered (for
/// `blazar emit air`).
pub fn run_regions(
    loaded: &Loaded,
    ctx: Ctx,
    opts: Options,
) -> (Result<(), Diagnostic>, Vec<(String, blazar_air::Region)>) {
    let mut it = Interp::new(&loaded.program, &loaded.sources, ctx, opts);
    let result = it.run_program();
    it.flush();
    let regions = std::mem::take(&mut it.fused.regions);
    (result.map_err(|e| e.into_diagnostic()), regions)
}
