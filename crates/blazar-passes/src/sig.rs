//! Kernel signatures: the types of the values a kernel is launched with.
//!
//! A kernel is compiled once per signature (the interpreter caches kernels by it).
//! Function-typed arguments are part of the signature: the function is inlined.

use blazar_hir::FnId;
use blazar_kir::{ArrayTy, Scalar};

/// The type of one launch argument (or captured value).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArgSig {
    Scalar(Scalar),
    Vector(Scalar, u8),
    Array(ArrayTy),
    /// A device function (closure): its id and the signatures of its captured values.
    Func(FnId, Vec<ArgSig>),
    /// A cell of arrays of one type (`vec[mat]`) with its element count.
    ArrayList(ArrayTy, u32),
}

/// The argument signature of one launch: ordinary arguments (in the kernel's parameter
/// order, special parameters excluded), then the kernel's captured values, then the
/// rank of the index space.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signature {
    pub args: Vec<ArgSig>,
    pub captures: Vec<ArgSig>,
    pub rank: u8,
    /// For kernels made from host loops: the types of the accumulators before the loop.
    /// An output of undeclared type then starts at this type and widens to hold every
    /// value accumulated into it (`total = 0; total += x[i]` sums reals). Empty for
    /// `parallel_do`, whose undeclared outputs are `scalar`.
    pub outputs: Vec<Scalar>,
    /// Per ordinary argument, the dims of an array argument, for kernels that index
    /// with `:` (the whole extent, a fixed-length vector); empty otherwise. A kernel
    /// compiled without them asks for them with [`NEEDS_EXTENTS`].
    pub extents: Vec<Vec<u32>>,
}

/// The message of the error a kernel using `:` gives when compiled without
/// [`Signature::extents`]: the launcher retries with them.
pub const NEEDS_EXTENTS: &str =
    "`:` in kernel code needs the extents of the array it indexes, known at the launch";
