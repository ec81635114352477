//! From HIR to KIR: kernel specialisation and the KIR passes.
//!
//! [`specialize`] lowers one kernel function of the HIR for one signature of argument
//! types, and [`lower_region`] a whole-array expression of host code (an AIR region);
//! both then run the passes of [`PIPELINE`] in order, verifying the KIR after lowering
//! and after each pass in debug builds. [`set_dump_after`] shows a kernel's KIR after
//! one of them (`blazar emit kir --after PASS`, `blazar run --dump-after PASS`).

mod apply_rules;
mod builtins;
mod fold;
mod fuse_statements;
mod infer;
mod kernel_form;
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
mod lower_rec;
mod lower_region;
mod lower_scan;
mod lower_stmt;
mod lower_vec_alloc;
mod outline;
mod parallelize;
mod region_value;
mod serialize;
mod serialize_fn;
pub mod sig;

pub use apply_rules::apply_rules;
pub use fuse_statements::fuse_statements;
pub use lower_math::int_scalar;
pub use outline::Names;
pub use parallelize::parallelize;
pub use serialize::serialize;
pub use serialize_fn::{reachable, serialize_functions};
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

/// Every pass after lowering, in the order they run: `fold` (constant folding).
pub const PIPELINE: &[(&str, Pass)] = &[("fold", fold::fold)];

/// The stages whose KIR [`set_dump_after`] can show: lowering, then each pass.
pub fn stages() -> impl Iterator<Item = &'static str> {
    std::iter::once("lower").chain(PIPELINE.iter().map(|(n, _)| *n))
}

/// What to do with a kernel's KIR after a stage.
pub type Show = Box<dyn Fn(&Kernel)>;

type Dump = (String, Show);

thread_local! {
    static DUMP_AFTER: std::cell::RefCell<Option<Dump>> = const { std::cell::RefCell::new(None) };
}

/// From now on, on this thread, calls `show` with every kernel after stage `stage` (a
/// name of [`stages`]); `None` stops. `Err` names the stages when `stage` is none.
pub fn set_dump_after(dump: Option<(&str, Show)>) -> Result<(), String> {
    if let Some((stage, _)) = &dump {
        if !stages().any(|s| s == *stage) {
            let names: Vec<&str> = stages().collect();
            return Err(format!(
                "no pass `{stage}`: the stages are {}",
                names.join(", ")
            ));
        }
    }
    DUMP_AFTER.with(|d| *d.borrow_mut() = dump.map(|(s, f)| (s.to_string(), f)));
    Ok(())
}

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
    run_pipeline(lower::lower_kernel(env, func, sig)?)
}

/// Lowers the whole-array expression `region` to kernel `name` (its statement on
/// source `line`) and runs the pipeline, as [`specialize`] does for kernel functions.
pub fn lower_region(
    region: &blazar_air::Region,
    name: &str,
    line: u32,
    grid_stride: bool,
) -> Result<Kernel, Diagnostic> {
    run_pipeline(lower_region::lower_region(region, name, line, grid_stride))
}

/// Verifies freshly lowered `k`, then runs every pass of [`PIPELINE`] with the
/// verifier after each one.
fn run_pipeline(mut k: Kernel) -> Result<Kernel, Diagnostic> {
    after(&k, "lower")?;
    for (name, pass) in PIPELINE {
        pass(&mut k);
        // Facts read before the pass may no longer hold.
        k.facts = Default::default();
        after(&k, name)?;
    }
    Ok(k)
}

/// After stage `stage`: the verifier (debug builds) and the dump asked for.
fn after(k: &Kernel, stage: &str) -> Result<(), Diagnostic> {
    check(k, stage)?;
    DUMP_AFTER.with(|d| {
        if let Some((s, show)) = &*d.borrow() {
            if s == stage {
                show(k);
            }
        }
    });
    Ok(())
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
