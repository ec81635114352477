//! The CPU executor for KIR: a lane-chunked (SIMT) interpreter over rayon.
//!
//! [`launch`] compiles a [`blazar_kir::Kernel`] into a flat register program
//! (`compile`), then runs it over the index space of a [`LaunchPlan`] (`launch`). Each
//! work item is a vector of lanes (one per thread): a whole block for kernels with
//! barriers or shared memory, a chunk of consecutive threads otherwise. Every
//! instruction runs over all lanes of a work item under an execution mask (`exec`);
//! global arrays are accessed through atomic views so that parallel work items never
//! race (`memory`); per-thread dynamic memory comes from a per-work-item pool
//! (`local`).

mod compile;
mod exec;
mod interleave;
mod launch;
mod local;
mod math;
mod memory;
pub mod observe;
mod ops;
mod program;
pub mod races;
mod specials;
mod values;
mod view;

#[cfg(test)]
mod tests;

pub(crate) use blazar_launch::{
    ArgVal, ArrayArg, ExecOptions, KernelError, KernelErrorKind, LaunchPlan,
};
pub use launch::{launch, INLINE_ITEMS};
pub use observe::{launch_observed, launch_scheduled, Observer};
pub use races::{Race, RaceBackend, RaceDetector};
