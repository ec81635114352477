//! The host interpreter: loads a program, resolves it and runs its HIR.
//!
//! [`load`] reads a file and its imports (the only I/O of the front end happens here),
//! [`check`] parses and resolves, and [`run`] executes host code, calling the runtime
//! for array operations and builtins.

mod assign;
mod call;
mod coerce;
mod error;
mod eval;
mod exec;
mod interp;
mod intrinsics;
mod load;
mod typeof_;

pub use error::RunError;
pub use interp::{Interp, Options};
pub use load::{check, load, Loaded};

use blazar_diagnostics::Diagnostic;
use blazar_runtime::builtins::Ctx;

/// Runs a loaded, error-free program. Returns the run-time error, if any, as a
/// diagnostic located in the program.
pub fn run(loaded: &Loaded, ctx: Ctx, opts: Options) -> Result<(), Diagnostic> {
    let mut it = Interp::new(&loaded.program, ctx, opts);
    let result = it.run_program();
    it.flush();
    result.map_err(|e| e.into_diagnostic())
}
