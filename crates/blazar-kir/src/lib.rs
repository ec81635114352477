//! KIR, the typed kernel IR: the one input of every backend.
//!
//! Kernels reach KIR specialised for one signature of argument types: every variable
//! has a concrete scalar or vector type, arrays carry element type, rank, space and
//! boundary modes, device functions are inlined, and control flow is structured.
//! `printer` shows a kernel as text (`blazar emit kir`); `verify` checks the typing
//! rules after every pass in debug builds; `visit` holds the walks passes and backends
//! share; `facts`, `affine` and `props` the analyses every backend reads.

pub mod affine;
pub mod alias;
pub mod calls;
pub mod cost;
pub mod facts;
pub mod fold;
pub mod ir;
pub mod printer;
pub mod props;
pub mod types;
pub mod uniform;
pub mod verify;
pub mod visit;

pub use ir::*;
pub use types::{ArrayTy, ReadMode, Scalar, Space, Ty, WriteMode};
