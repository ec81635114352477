//! Name resolution: turns the AST into the HIR that the interpreter runs.
//!
//! [`lower_program`] resolves every name of a program to a variable slot, a function or
//! a builtin, computes what closures capture, checks loop labels and written types, and
//! returns all problems as diagnostics.

pub mod attr_args;
mod builtin_types;
pub mod check;
mod check_paren_index;
mod check_run;
mod collect;
mod const_dims;
mod exist_rule;
pub mod fused;
mod hints;
pub mod hir;
mod infer;
mod lower;
mod lower_expr;
mod lower_rule;
mod lower_stmt;
mod named;
mod named_overload;
pub mod parallel;
mod scope;
pub mod serial;
pub mod types;
pub mod visit;

/// The local type inference of expressions (hover in the language server).
pub use builtin_types::builtin_result;
pub use check::check_program;
pub use fused::{FusedGroup, FusedGroups};
pub use hints::Hints;
pub use hir::*;
pub use infer::{expr_type, expr_type_with, BuiltinName};
pub use lower::{lower_program, lower_program_hinted, lower_program_with};
pub use parallel::{CachedKernel, IndexForm, LoopDecision, LoopLevel, LoopReport, ParallelLoop};
pub use serial::{SerialFn, SerialHead, SerialLoop};
pub use types::{IntKind, Ty};
