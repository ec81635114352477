//! Host loops that run as serial kernels: what the serial-loop outliner
//! (`passes::serialize`) puts in place of a `for` or `while` loop that cannot run in
//! parallel but whose body kernel code can express (the compiled host tier).
//!
//! The generated kernel runs on one thread and takes an iteration budget, so the host
//! runs the loop in chunks: it may start on the interpreter and move to the kernel when
//! that is compiled, and it checks Ctrl-C between chunks. The plan keeps the loop as
//! written, which the interpreter runs whenever the kernel cannot be used.

use crate::hir::{Expr, FnId, Stmt, Var};

/// A `for` or `while` loop run in chunks by a one-thread kernel.
#[derive(Clone, Debug)]
pub struct SerialLoop {
    /// The generated `__kernel__` function. Its ordinary parameters are the iteration
    /// budget, then (for a `for` loop) the next value of the counter, the step and the
    /// last value, then one value per variable of [`SerialLoop::args`]. Its outputs are
    /// the state ([`STATE_BUDGET`], [`STATE_DONE`] or [`STATE_BROKE`]), the iterations
    /// run, (for a `for` loop) the counter's next value, then one value per variable of
    /// [`SerialLoop::outputs`].
    pub kernel: FnId,
    /// The loop's header.
    pub head: SerialHead,
    /// Host variables whose values the loop reads at entry, in parameter order.
    pub args: Vec<Var>,
    /// Host variables the loop assigns whole, in output order.
    pub outputs: Vec<Var>,
    /// Variables the loop assigns before reading them in every iteration (its loop
    /// variable, temporaries): they need no value at entry, and are written back only
    /// when at least one iteration ran.
    pub temps: Vec<Var>,
    /// The loop as written, run when the kernel cannot be used.
    pub serial: Box<Stmt>,
}

/// The header of a serial loop.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum SerialHead {
    /// `for var = start..step..end`: the range is evaluated once by the host.
    For {
        var: Var,
        start: Expr,
        step: Option<Expr>,
        end: Expr,
    },
    /// `while cond`: the condition is evaluated in the kernel before every iteration.
    While,
}

/// A host function whose whole body kernel code can express, outlined as a one-thread
/// kernel (`passes::serialize_functions`): the interpreter specialises it for the types
/// of a call's arguments and runs it instead of the body (see `blazar_interp::hostfn`).
#[derive(Clone, Debug)]
pub struct SerialFn {
    /// The generated `__kernel__` function. Its parameters are a budget of loop
    /// iterations (int64; iterations of every loop of the body counted), then one per
    /// parameter of the function, in order. Its outputs are the state ([`STATE_DONE`],
    /// or [`STATE_BUDGET`] when the budget ran out and the call cannot be finished), the
    /// iterations left of the budget, then one per output of the function.
    pub kernel: FnId,
}

/// The kernel stopped because its iteration budget ran out: call it again.
pub const STATE_BUDGET: i64 = 0;
/// The loop ended normally.
pub const STATE_DONE: i64 = 1;
/// A `break` left the loop.
pub const STATE_BROKE: i64 = 2;
