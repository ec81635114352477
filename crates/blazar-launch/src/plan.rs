//! The launch plan and the arguments of one launch: what the interpreter hands a backend.

use crate::KValue;

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

/// Launches of at most this many work items run on the calling thread, on every CPU
/// backend (a thread pool costs more than it saves there).
pub const INLINE_ITEMS: usize = 8;

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
    pub buf: &'a mut blazar_value::Buffer,
}

/// Executor settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecOptions {
    /// Worker threads; 0 uses the current rayon pool.
    pub threads: usize,
}
