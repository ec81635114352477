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
pub mod store;
mod teardown;
pub mod traffic;
pub mod value;

pub use aref::{ArrRead, ArrWrite, ArrayRef, Meta};
pub use array::{Access, Array, Buffer, ElemType, Mode};
pub use store::{take_device_fault, DeviceCopy, Residency, Store};
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
