//! Run-time data of Blazar programs: values, arrays, operators, indexing and builtins.
//!
//! This crate is shared by the host interpreter and the backends. It does no parsing and
//! knows nothing of syntax; errors are [`RtError`] messages that the caller locates.

pub mod alloc;
pub mod aref;
pub mod array;
pub mod builtins;
pub mod cycles;
pub mod format;
pub mod index;
pub mod interrupt;
pub mod ops;
pub mod store;
mod teardown;
pub mod value;

pub use aref::{ArrRead, ArrWrite, ArrayRef, Meta};
pub use array::{Access, Array, Buffer, ElemType, Mode};
pub mod traffic;
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
