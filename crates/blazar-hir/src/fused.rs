//! Groups of consecutive statements that run as one fused whole-array region (found by
//! `passes::fuse_statements`, read by the interpreter's `fuse/group.rs`).

use crate::hir::Var;
use blazar_diagnostics::Span;
use std::collections::HashMap;

/// Consecutive plain assignments `v = e` of one block: every target but the last is an
/// intermediate (assigned once in the group, read only by later statements of the group,
/// mentioned nowhere else), so its value need not exist as an array: the interpreter
/// evaluates the whole group into one AIR region and materialises only the last value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusedGroup {
    /// Statements in the group (at least two), the first being the one of the key.
    pub len: u32,
    /// The span of the last statement: the block the interpreter runs is the one the
    /// pass looked at.
    pub last: Span,
    /// The intermediates, in statement order: the targets of all statements but the last.
    pub dead: Vec<Var>,
}

/// Every group of a program, by the span of its first statement.
pub type FusedGroups = HashMap<Span, FusedGroup>;
