//! Run-time data of Blazar programs: values, arrays, operators, indexing and builtins.
//!
//! This crate is shared by the host interpreter and the backends. It does no parsing and
//! knows nothing of syntax; errors are [`RtError`] messages that the caller locates. The
//! values themselves (arrays, buffers, element types, the shared store) are
//! `blazar-value`'s, re-exported here under their old paths.

pub mod builtins;
pub mod format;
pub mod index;
pub mod interrupt;
pub mod ops;
pub mod ui;

pub use blazar_value::{alloc, aref, array, cycles, store, traffic, value};
pub use blazar_value::{rt_bail, with_buffer, RtError, RtResult};

pub use aref::{ArrRead, ArrWrite, ArrayRef, Meta};
pub use array::{Access, Array, Buffer, ElemType, Mode};
pub use blazar_value::Text;
pub use store::{take_device_fault, DeviceCopy, Residency, Store};
pub use value::{Closure, FuncRef, IntTy, Object, Prec, Value};
