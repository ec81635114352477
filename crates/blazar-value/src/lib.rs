//! Run-time values of Blazar programs: scalars, strings, functions, objects and arrays
//! (element types, buffers, shapes), the store an array's references share with the
//! device copy a backend keeps of it, and the memory rules every value obeys (bounded
//! allocation, cycle collection, iterative teardown).
//!
//! This is the data half of the launch contract: `blazar-launch` hands arrays of this
//! crate to every backend, and `blazar-runtime` computes on them (operators, indexing,
//! builtins). It depends on nothing of Blazar's.

pub mod alloc;
pub mod aref;
pub mod array;
pub mod cycles;
pub mod pool;
pub mod store;
mod teardown;
pub mod text;
pub mod traffic;
pub mod value;

pub use aref::{ArrRead, ArrWrite, ArrayRef, Meta};
pub use array::{Access, Array, Buffer, ElemType, Mode};
pub use store::{take_device_fault, DeviceCopy, Residency, Store};
pub use text::Text;
pub use value::{Closure, FuncRef, IntTy, Object, Prec, Value};

/// A run-time error message; the interpreter attaches the source location.
#[derive(Clone, Debug, PartialEq)]
pub struct RtError {
    pub message: String,
}

impl RtError {
    pub fn new(message: impl Into<String>) -> RtError {
        RtError {
            message: message.into(),
        }
    }
}

pub type RtResult<T> = Result<T, RtError>;

/// Returns early with an [`RtError`] built from a format string.
#[macro_export]
macro_rules! rt_bail {
    ($($arg:tt)*) => { return Err($crate::RtError::new(format!($($arg)*))) };
}

/// The message of an index outside dimension `dim` (of extent `n`), on the host and in
/// kernels of every backend. One past the end is most often a loop written 1-based, as
/// in MATLAB: the message then says that indices start at 0.
pub fn out_of_bounds_message(i: i64, dim: usize, n: usize) -> String {
    if n > 0 && i == n as i64 {
        format!(
            "index {i} is out of bounds for dimension {dim} of size {n} (indices start at 0: \
             the last is {}, and a loop over the dimension is `for i = 0..{}`)",
            n - 1,
            n - 1
        )
    } else {
        format!("index {i} is out of bounds for dimension {dim} of size {n}")
    }
}
