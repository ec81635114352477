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
mod launch;
mod local;
mod math;
mod memory;
mod ops;
mod program;
mod specials;
mod values;

#[cfg(test)]
mod tests;

pub use compile::kernel_aliases;
pub use launch::launch;
pub use values::KValue;

/// How a kernel is laid over its index space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchPlan {
    /// Rank of the index space (1 to 4).
    pub rank: u8,
    /// Extent of the index space per dimension (first `rank` entries; dim 0 slowest).
    pub data_dims: [usize; 4],
    /// Block extents; each divides the matching data extent (in the plans of the
    /// program and the CPU; a GPU plan for a kernel that cannot observe its block may be
    /// ragged, see `blazar-cuda`'s `gpu_plan`).
    pub block_dims: [usize; 4],
    /// Run the work items on the calling thread, in order (`serial_do`).
    pub serial: bool,
    /// The program gave the block shape (`[[data dims], [block dims]]`); otherwise it is
    /// the default shape, and a backend may pick its own for kernels that cannot
    /// observe it (no block specials, shared memory or barriers).
    pub block_given: bool,
}

/// One kernel argument, in the order of the kernel's parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgVal {
    /// A scalar or vector value bound to a variable.
    Value(KValue),
    /// An array: an index into the `arrays` slice of [`launch`].
    Array(usize),
}

/// A global array passed to a kernel. Several parameters may name the same one.
#[derive(Debug)]
pub struct ArrayArg<'a> {
    pub dims: Vec<usize>,
    pub buf: &'a mut blazar_runtime::Buffer,
}

/// Executor settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecOptions {
    /// Worker threads; 0 uses the current rayon pool.
    pub threads: usize,
}

/// A run-time error of a kernel, located at a `.q` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError {
    pub line: u32,
    pub kind: KernelErrorKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelErrorKind {
    AssertFailed,
    OutOfBounds,
    OutOfMemory,
    Divergence,
    /// An allocation with a negative extent.
    BadSize,
    /// The launch does not fit the kernel (plan, arguments, or an unsupported form).
    BadLaunch,
}

impl KernelError {
    pub fn new(line: u32, kind: KernelErrorKind, message: impl Into<String>) -> Self {
        KernelError {
            line,
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn bad_launch(message: impl Into<String>) -> Self {
        KernelError::new(0, KernelErrorKind::BadLaunch, message)
    }
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "{} (line {})", self.message, self.line)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for KernelError {}
