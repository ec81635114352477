//! KIR → CUDA C++ source: the pure half of the CUDA backend (no FFI, no GPU needed).
//!
//! [`generate`] prints one specialised kernel as an `extern "C" __global__` function
//! preceded by the fixed prelude (`crate::prelude`, then this dialect's `prelude_mem.rs`). The semantics are the
//! CPU executor's (`blazar-cpu`): boundary modes, linear indexing, wrapping integer
//! arithmetic with `x / 0 == 0`, saturating float-to-int casts, dynamic memory rules,
//! kernel outputs. The runtime side (`blazar-cuda`) compiles the source with NVRTC
//! (options [`NVRTC_OPTIONS`] plus `-arch=sm_XY`) and launches it as described by
//! [`Generated`]:
//!
//! - Grid: the kernel's `pos` has `rank` components; the LAST one is `threadIdx.x` /
//!   `blockIdx.x` (coalescing), the one before it `y`, then `z`. For rank 4, the first
//!   two components share `z` (`blockDim.z = block[0] * block[1]`, `gridDim.z =
//!   cnt[0] * cnt[1]`, split with `bz_space`). Block extents divide data extents,
//!   except under [`CodegenOptions::guard`] (ragged blocks, below).
//! - Parameters: see [`ParamLayout`]; an array is two C parameters, its data pointer
//!   (`__restrict__` under [`CodegenOptions::noalias`], `const` too when the kernel only
//!   reads it) and its extents `bz_ext` (`i32 d[4]`, left-padded with 1s to the KIR
//!   rank, then 1s); the kernel rebuilds `bz_arr<T> = { T* data; i32 dims[4]; }`.
//! - Coarsening ([`CodegenOptions::coarsen`] = R > 1): each thread runs R positions
//!   along `pos` component 0 (`blockIdx * R + r` in place of `blockIdx`), so the grid
//!   along that axis has `ceil(count / R)` blocks; positions past the extent are skipped.
//!   A kernel with outputs runs a chunk of consecutive block rows instead, as many as
//!   the grid leaves to each block (`ceil(rows / gridDim)`): any grid along that axis
//!   is correct, and the launcher gives it one wave of the GPU's resident blocks.
//! - Errors: a zeroed `bz_err` (4 × i32) in device memory; after synchronising, a
//!   non-zero `code` is the first error (see [`ErrorKind`]) at `.q` line `line`.
//! - Outputs: one device scalar per kernel output, initialised by the host to the
//!   identity of [`OutputLayout::combine`]; each block adds its partial atomically; the
//!   host then applies [`OutputLayout::finish`] exactly as the CPU executor does.

mod assemble;
mod barrier;
mod dialect;
mod kernel;
mod load_phase;
mod memory;
mod prefetch;
mod prelude_mem;
mod shared;
mod stop;
mod vector;

pub use blazar_kir::visit::{written_arrays, written_params};
pub use shared::dynamic_shared_bytes;

use blazar_kir::{AtomicOp, Expr, Kernel, Scalar};

/// NVRTC options the generated source needs (the caller adds `-arch=sm_XY`):
/// `-default-device` makes the lambdas of vector operations device code.
pub const NVRTC_OPTIONS: &[&str] = &["-std=c++17", "-default-device"];

/// Code generation settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodegenOptions {
    /// The `.q` file named in `#line` directives.
    pub file_name: String,
    /// Emit `#line N "file"` before statements (off: errors point at the C source).
    pub line_directives: bool,
    /// The block shape the source will be launched with, as CUDA's `(x, y, z)` extents,
    /// when known: the kernel then takes `blockDim` as constants and tells the compiler
    /// the range of `threadIdx`, so bounds checks on shared memory indexed by `blkpos`
    /// fold away. `None`: one source for every block shape.
    pub block: Option<[u32; 3]>,
    /// Positions per thread along `pos` component 0 (1: one). Only for kernels that
    /// cannot observe their block (see `blazar-cuda`'s `coarsen_factor`): each thread
    /// runs the body for R consecutive block rows, so neighbouring rows' loads are
    /// issued together and, with `noalias`, loaded once.
    pub coarsen: u32,
    /// 4: each thread runs 4 consecutive positions along the LAST `pos` component (the
    /// grid's x axis covers `ceil(count / 4)` threads), and loads of zero-extended
    /// global 4-byte arrays of the kernel's rank read aligned 4-element chunks, which
    /// neighbouring positions share (`cuda/vector.rs`). Only with a fixed `block`, no
    /// `guard`, no outputs, and when the caller promises that every such array has a
    /// last extent that is a multiple of 4 and a data pointer aligned to 16 bytes, and
    /// that the last extent of the index space is a multiple of `4 * block.x`. 1: off.
    pub vector: u32,
    /// No array the kernel writes is also passed as another parameter: array pointers
    /// are `__restrict__` (and read-only ones `const`), so loads can be reused across
    /// stores and read through the non-coherent cache.
    pub noalias: bool,
    /// The launch's grid may hold positions outside the index space: a ragged block
    /// (chosen for a kernel that cannot observe it) that does not divide the data
    /// extents, or a coarsened run past the end of component 0. Threads skip such
    /// positions. Without it, a coarsened run has no test between its positions, so
    /// the compiler can issue the loads of all of them before the first store.
    pub guard: bool,
    /// Every array parameter of the kernel's rank has exactly the index space's
    /// extents (an image filtered into an image of its size): the kernel reads those
    /// extents from the index space, so with an exact grid the bounds checks of
    /// components that `pos` indexes unshifted fold away. Only with a fixed `block`.
    pub same_extents: bool,
    /// Kernel outputs are also handed to the host through page-locked memory the GPU
    /// writes ([`ParamLayout::Mirror`]): the last block to finish copies the launch's
    /// error record and accumulators there, then the launch's sequence number, which
    /// the host polls for (no copy and no stream wait on the read-back's path). Only
    /// for kernels with outputs.
    pub mirror: bool,
}

impl Default for CodegenOptions {
    fn default() -> Self {
        CodegenOptions {
            file_name: "kernel.q".into(),
            line_directives: true,
            block: None,
            coarsen: 1,
            vector: 1,
            noalias: false,
            guard: false,
            same_extents: false,
            mirror: false,
        }
    }
}

/// The CUDA source of one kernel and how to launch it.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// Prelude plus kernel: one NVRTC compilation unit.
    pub source: String,
    /// The `extern "C" __global__` function name.
    pub entry: String,
    /// Every C parameter, in order: the KIR parameters, then the hidden ones.
    pub params: Vec<ParamLayout>,
    /// Shared memory of the kernel when it is known at compile time (static
    /// `__shared__` arrays only); `None` when some shared array has run-time extents:
    /// the launcher computes the dynamic size with [`dynamic_shared_bytes`].
    pub shared_bytes: Option<usize>,
    /// Shared arrays with run-time extents, carved from `extern __shared__` memory.
    pub dynamic_shared: Vec<DynShared>,
    /// Kernel outputs, in KIR order (each has a hidden parameter).
    pub outputs: Vec<OutputLayout>,
    /// The kernel allocates dynamic memory and takes a `bz_pool` parameter.
    pub uses_pool: bool,
    /// Positions per thread along `pos` component 0, as generated: the asked-for
    /// [`CodegenOptions::coarsen`] where the kernel allows it, else 1. The grid along
    /// that axis has `ceil(count / coarsen)` blocks; with outputs and `coarsen > 1`, at
    /// most that many (each block runs its share of the block rows, see
    /// [`Generated::chunked`]).
    pub coarsen: u32,
    /// Positions per thread along the last `pos` component, as generated: 4 where
    /// [`CodegenOptions::vector`] asked for it and the kernel allows it, else 1. The
    /// grid's x axis then has `count / (4 * block.x)` blocks.
    pub vector: u32,
    /// The kernel can record an error (an assert that may fail, a `'checked` access,
    /// a shared or dynamic allocation that may not fit): its launches read the error
    /// record back. Asserts and shared extents that the fixed block decides do not
    /// count ([`CodegenOptions::block`]).
    pub can_fail: bool,
}

impl Generated {
    /// Each block of the grid's component-0 axis runs a chunk of consecutive block rows,
    /// `ceil(rows / gridDim)` of them (a coarsened kernel with outputs): the launcher may
    /// give that axis any number of blocks from 1 to `ceil(rows / coarsen)`.
    pub fn chunked(&self) -> bool {
        self.coarsen > 1 && !self.outputs.is_empty()
    }
}

/// How one C parameter is passed (by value, with the C ABI's size and alignment).
#[derive(Clone, Debug, PartialEq)]
pub enum ParamLayout {
    /// KIR parameter `index` bound to a scalar variable.
    Scalar { index: usize, ty: Scalar },
    /// KIR parameter `index` bound to a vector variable: `bz_v<T, len>` (an array).
    Vector { index: usize, elem: Scalar, len: u8 },
    /// KIR parameter `index` bound to a global array: its data pointer `T*`.
    ArrayData { index: usize, elem: Scalar },
    /// The extents of the array of KIR parameter `index`: `bz_ext` = `i32 d[4]`, padded
    /// with 1s in front to `rank`, then 1s (16 bytes, align 4). Follows its `ArrayData`.
    ArrayExtents { index: usize, rank: u8 },
    /// `bz_space` (32 bytes): `dims[4]`, `block[4]` of the index space, kernel rank.
    Space,
    /// `bz_err*`: the error record (32 bytes: code, line, a, b, then the failing
    /// position's key, inverted, and a lock; zeroed between launches).
    ErrorRecord,
    /// `T*`: the accumulator of kernel output `index`.
    Output { index: usize, ty: Scalar },
    /// `bz_pool` (24 bytes): `{ u8* base; u64 cap; u64* top; }`, `*top` zeroed.
    Pool,
    /// `bz_mirror` (16 bytes, [`CodegenOptions::mirror`]): `{ u32* host; u32 seq; u32
    /// words; }`: the device address of page-locked host memory, the launch's sequence
    /// number (not 0) and the 32-bit words of the error record and accumulators to copy.
    /// The last block writes the words at `host[4..]`, then `seq` at `host[0]`; it
    /// counts finished blocks in the record's last word (`bz_err::pad`, left at 0).
    Mirror,
}

impl ParamLayout {
    /// `(size, align)` in bytes under the CUDA C ABI.
    pub fn size_align(&self) -> (usize, usize) {
        let elem = |s: Scalar| match s {
            Scalar::C32 => (8, 8),
            Scalar::C64 => (16, 16),
            s => (s.size(), s.size()),
        };
        match self {
            ParamLayout::Scalar { ty, .. } => elem(*ty),
            ParamLayout::Vector { elem: e, len, .. } => {
                let (s, a) = elem(*e);
                (s * *len as usize, a)
            }
            ParamLayout::Pool => (24, 8),
            ParamLayout::Mirror => (16, 8),
            ParamLayout::ArrayData { .. } => (8, 8),
            ParamLayout::ArrayExtents { .. } => (16, 4),
            ParamLayout::Space => (32, 4),
            ParamLayout::ErrorRecord | ParamLayout::Output { .. } => (8, 8),
        }
    }
}

/// A shared array whose extents are computed at run time.
#[derive(Clone, Debug, PartialEq)]
pub struct DynShared {
    pub arr: u32,
    pub elem_size: usize,
    /// The KIR extents (usually of `blkdim`, constants and scalar parameters).
    pub dims: Vec<Expr>,
}

/// How a kernel output is accumulated on the device and finished on the host.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputLayout {
    pub name: String,
    pub ty: Scalar,
    /// The op of the per-block partials and the device atomic (`-=` sums, `/=` and
    /// `^=` multiply); the host initialises the accumulator to its identity.
    pub combine: AtomicOp,
    /// The KIR op: the host applies `-=` → `0 - acc`, `/=` → `1 / acc`, `^=` → 1.
    pub finish: AtomicOp,
}

/// Kinds of device-side errors (the low byte of `bz_err::code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    AssertFailed = 1,
    /// `code >> 8` is the dimension, `a` the index, `b` the extent.
    OutOfBounds = 2,
    /// `a` is the size asked for, `b` the limit.
    OutOfMemory = 3,
    /// An allocation with a negative extent: `a` the extent, `b` the builtin
    /// (`blazar_kir::ALLOC_BUILTINS`).
    NegativeExtent = 5,
}

impl ErrorKind {
    /// Decodes a non-zero `bz_err::code` into its kind and (for bounds) dimension.
    pub fn decode(code: i32) -> Option<(ErrorKind, u32)> {
        let kind = match code & 0xff {
            1 => ErrorKind::AssertFailed,
            2 => ErrorKind::OutOfBounds,
            3 => ErrorKind::OutOfMemory,
            5 => ErrorKind::NegativeExtent,
            _ => return None,
        };
        Some((kind, (code as u32) >> 8))
    }
}

/// Generates the CUDA source of kernel `k` (assumed to pass `blazar_kir::verify`).
pub fn generate(k: &Kernel, opts: &CodegenOptions) -> Generated {
    kernel::generate(k, opts)
}
