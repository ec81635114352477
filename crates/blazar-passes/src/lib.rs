//! From HIR to KIR: kernel specialisation and the KIR passes.
//!
//! [`specialize`] lowers one kernel function of the HIR for one signature of argument
//! types, then runs the passes of [`PIPELINE`] in order, verifying the KIR after each
//! one in debug builds. [`lower_region`] lowers a whole-array expression of host code
//! (an AIR region) to a kernel.

mod apply_rules;
mod builtins;
mod infer;
mod loop_attrs;
mod loop_body;
mod loop_cache;
mod loop_deps;
mod loop_live;
mod lower;
mod lower_assign;
mod lower_call;
mod lower_expr;
mod lower_index;
mod lower_math;
mod lower_region;
mod lower_scan;
mod lower_stmt;
mod outline;
mod parallelize;
mod region_value;
pub mod sig;

pub use apply_rules::apply_rules;
pub use lower_math::int_scalar;
pub use lower_region::lower_region;
pub use outline::Names;
pub use parallelize::parallelize;
pub use sig::{ArgSig, Signature, NEEDS_EXTENTS};

use blazar_diagnostics::Diagnostic;
use blazar_hir::{FnId, Program};
use blazar_kir::Kernel;

/// Whether a kernel parameter name is one of the special coordinates (`pos`, ...),
/// which the launch provides instead of an argument.
pub fn is_special(name: &str) -> bool {
    lower::SPECIALS.iter().any(|(n, _)| *n == name)
}

/// The largest extent of a launch's index space along one dimension: `pos` and the
/// other coordinates are int32 in kernel code (`Lower::special_ty`), so a position
/// reaches 2^31 - 1 at most; a launch past that is an error, not positions that wrap.
pub const MAX_EXTENT: usize = 1 << 31;

/// A KIR pass: a verb over a kernel.
pub type Pass = fn(&mut Kernel);

/// Every pass after lowering, in the order they run.
pub const PIPELINE: &[(&str, Pass)] = &[];

/// Context the lowering needs from outside the HIR.
pub struct Env<'a> {
    pub prog: &'a Program,
    /// The name of a builtin function by id.
    pub builtin_name: &'a dyn Fn(u32) -> &'static str,
    /// `true` for 64-bit `scalar`.
    pub double: bool,
    /// The 1-based source line of a span (KIR statements carry lines).
    pub line_of: &'a dyn Fn(blazar_diagnostics::Span) -> u32,
}

/// Lowers kernel `func` for `sig` and runs the pipeline.
pub fn specialize(env: &Env, func: FnId, sig: &Signature) -> Result<Kernel, Diagnostic> {
    let mut k = lower::lower_kernel(env, func, sig)?;
    check(&k, "lower")?;
    for (name, pass) in PIPELINE {
        pass(&mut k);
        check(&k, name)?;
    }
    Ok(k)
}

fn check(k: &Kernel, after: &str) -> Result<(), Diagnostic> {
    if cfg!(debug_assertions) {
        if let Err(errs) = blazar_kir::verify::verify(k) {
            return Err(Diagnostic::global(format!(
                "internal error: KIR of kernel `{}` is invalid after `{after}`:\n  {}",
                k.name,
                errs.join("\n  ")
            )));
        }
    }
    Ok(())
}
