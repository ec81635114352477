//! AIR, the array-level IR: a whole-array expression of host code as one [`Region`].
//!
//! A region is a tree of element-wise nodes ([`Node`]) over its inputs (arrays and
//! scalars the host evaluated) and constants, typed with the host's rules
//! (LANGUAGE.md §3/§4: int arithmetic stays int, `/` and `^` give reals, every real
//! result has the program precision, comparisons give 0/1 reals). Building a region
//! *is* fusion: a chain of operations becomes one region, so one kernel reads each
//! input once and writes only the result. [`Builder`] applies the typing rules
//! (`rules`), inserting explicit casts so that every node computes in one KIR type;
//! `blazar_passes::lower_region` turns a region into a KIR kernel. A region is keyed
//! by its structure, the element types and ranks of its inputs and which of their
//! extents are 1 (never their sizes), so a loop compiles each statement once.
//! `printer` shows a region as text (`blazar emit air`); `verify` checks its structure
//! (the interpreter runs it on every new region in debug builds).

mod builder;
pub mod printer;
mod region;
mod rules;
pub mod verify;

pub use blazar_ops::Binary;
pub use builder::{Arg, Builder, Finished, JoinKind, NodeRef, ScalarArg, MAX_NODES};
pub use printer::print_region;
pub use region::{Along, Axis, Input, Join, JoinPart, Node, NodeKind, Reduce, Region};
pub use rules::Prec;
pub use verify::verify;
