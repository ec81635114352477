//! KIR kernels compiled in memory to machine code through Cranelift: the CPU's first
//! native tier, ready in a millisecond or two where the C++ tier takes hundreds.
//!
//! [`compile`] turns a kernel into two functions with the C ABI of the native tier's
//! generated C++ (`blazar-native`'s `abi`: [`abi`] here spells the same layout), so the
//! native launcher binds arguments, splits work items over rayon, combines kernel
//! outputs and reports errors for both tiers in one place:
//!
//! - `run(call, lo, hi, partials, err) -> code` runs work items `lo..hi`: chunks of
//!   `call.chunk` consecutive threads in row-major order, one thread after another, the
//!   kernel body per thread (`gen`, `expr`, `memory`), kernel outputs combined per work
//!   item in thread order into `partials[item]`; the first error stops the range;
//! - `finish(partials, items, out)` folds the partials in item order and applies each
//!   output's final op (`finish`).
//!
//! A kernel whose accesses have range facts (`blazar_kir::affine`) gets a second, fast
//! copy of its body: a work item whose accesses are all in range (`proven`) runs it
//! without bounds checks or boundary modes, and a rank-1 element-wise float body runs
//! there four `f32` (two `f64`) threads at a time in SIMD strips (`strip`): stores,
//! whole-array reductions (vector accumulators), comparisons, `min`/`max`, `^` and
//! math functions (glibc's vector math library, `vmath`).
//!
//! The semantics are the SIMT interpreter's (`blazar-cpu`, the oracle): ints wrap, int
//! division and `mod` by 0 give 0, shifts follow the count, float `min`/`max` ignore a
//! NaN, `^` rounds once from f64, conversions are Rust's `as`; math functions call the
//! Rust functions the interpreter calls (`helpers`), so results are bit-identical,
//! except in strips that call the vector math library: within its 4 ulp of them, as
//! the C++ tier's loops ([`set_deterministic`] turns that off). What the tier does not
//! take ([`unsupported`]) runs where it ran before.

pub mod abi;
mod expr;
mod finish;
mod gen;
mod helpers;
mod memory;
mod proven;
mod strip;
mod support;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_strips;
mod vmath;

pub use support::unsupported;
pub use vmath::set_deterministic;

use blazar_kir::Kernel;
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use std::sync::OnceLock;

/// A kernel compiled to machine code: its two entry points, valid while it lives.
pub struct Compiled {
    module: Option<JITModule>,
    run: *const u8,
    finish: *const u8,
}

// SAFETY: the module is touched only when dropped (to free the code); the entry points
// are immutable machine code that any thread may call.
unsafe impl Send for Compiled {}
// SAFETY: as for `Send`: nothing in a `Compiled` is mutated after `compile` returns.
unsafe impl Sync for Compiled {}

impl Compiled {
    /// `int run(const Call*, i64 lo, i64 hi, u8* partials, Err* err)` (see [`abi`]).
    pub fn run_ptr(&self) -> *const u8 {
        self.run
    }

    /// `void finish(const u8* partials, i64 items, u8* out)` (see [`abi`]).
    pub fn finish_ptr(&self) -> *const u8 {
        self.finish
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the entry points are not called any more: whoever called them
            // held this `Compiled` alive for the call.
            unsafe { m.free_memory() };
        }
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled").finish_non_exhaustive()
    }
}

/// The host's instruction set, made once (with speed optimisation, no verifier).
fn isa() -> Result<&'static OwnedTargetIsa, String> {
    static ISA: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v).map_err(|e| format!("cranelift flag {k}: {e}"))
        };
        set(&mut flags, "opt_level", "speed")?;
        set(&mut flags, "enable_verifier", "false")?;
        set(&mut flags, "use_colocated_libcalls", "false")?;
        set(&mut flags, "is_pic", "false")?;
        let isa = cranelift_native::builder().map_err(|e| format!("cranelift: {e}"))?;
        isa.finish(settings::Flags::new(flags))
            .map_err(|e| format!("cranelift: {e}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Compiles kernel `k`; `param_offsets` gives the byte offset of each variable
/// parameter in the launch's parameter block (the launcher's layout). `Err` says why
/// the tier does not take the kernel (or, rarely, why Cranelift failed).
pub fn compile(k: &Kernel, param_offsets: &[usize]) -> Result<Compiled, String> {
    if let Some(why) = unsupported(k) {
        return Err(why);
    }
    if param_offsets.len() != k.params.len() {
        return Err("parameter offsets do not match the kernel".into());
    }
    let isa = isa()?.clone();
    let builder = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    let mut module = JITModule::new(builder);
    let run = gen::define_run(&mut module, k, param_offsets);
    let finish = run.and_then(|run| finish::define_finish(&mut module, k).map(|f| (run, f)));
    let (run, finish) = match finish {
        Ok(ids) => ids,
        Err(e) => {
            // SAFETY: nothing compiled in the module has been called.
            unsafe { module.free_memory() };
            return Err(e);
        }
    };
    if let Err(e) = module.finalize_definitions() {
        // SAFETY: as above.
        unsafe { module.free_memory() };
        return Err(format!("cranelift: {e}"));
    }
    let (run, finish) = (
        module.get_finalized_function(run),
        module.get_finalized_function(finish),
    );
    Ok(Compiled {
        module: Some(module),
        run,
        finish,
    })
}
