//! The launch contract: what the interpreter hands every backend, and the [`Backend`]
//! trait they implement.
//!
//! This crate sits below every backend (the CPU's SIMT interpreter and native tier, the
//! CUDA runtime) and below the interpreter, so that no backend depends on the
//! interpreter and the interpreter depends on no backend: the embedding program (the
//! CLI) builds a backend and hands it over. A launch is data: a specialised KIR kernel,
//! a [`LaunchPlan`], the flattened arguments ([`ArgVal`]), and the distinct arrays;
//! it returns the kernel's outputs ([`KValue`]) or a located [`KernelError`].

mod backend;
mod error;
mod notes;
mod plan;
mod value;

pub use backend::{
    with_host_arrays, ArrayOp, Backend, BackendRef, Chain, DirectCall, LaunchTiming,
};
pub use blazar_value::out_of_bounds_message;
pub use error::{KernelError, KernelErrorKind};
pub use notes::{note_compiled, set_compile_notes};
pub use plan::{ArgVal, ArrayArg, ExecOptions, LaunchPlan, INLINE_ITEMS};
pub use value::KValue;
