//! Calls of functions that are not inlined: the only way a kernel holds recursion.
//!
//! Device functions are inlined into the kernel that calls them. A host function that
//! calls itself (directly or through others) cannot be: when the compiled host tier
//! runs it as a one-thread kernel, each function of the call cycle is lowered once per
//! signature of argument types into a [`Func`] of the kernel's table ([`Calls`]), and
//! [`crate::StmtKind::Call`] runs one. A function has scalar and vector parameters and
//! outputs only (no arrays, no kernel outputs, no specials), and variables of its own:
//! its body is a [`Kernel`] whose `vars` are the function's and whose `body` reads its
//! parameters and leaves its outputs in variables.
//!
//! Calls nest at most [`Calls::room`] deep (a variable of the calling kernel, so that
//! the host passes how many frames its own stack has left); the call that would go
//! deeper fails with [`CALL_DEPTH_MESSAGE`] at its line, as the interpreter stops
//! runaway recursion. The functions spend the kernel's iteration budget
//! ([`Calls::budget`]) as the interpreter spends its step budget: one unit per call and
//! per iteration of their loops; the unit that would leave it negative fails with
//! [`BUDGET_MESSAGE`] (the host reports the run's step budget exhausted). Backends that cannot call (the SIMT interpreter, the JIT, CUDA)
//! decline kernels whose table is not empty ([`has_calls`]).

use crate::ir::{Kernel, VarId};

/// The functions a kernel calls without inlining them, and how deep calls may nest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calls {
    pub funcs: Vec<Func>,
    /// A variable of the kernel (an `i64` parameter) holding how many calls may nest;
    /// `None`: [`DEFAULT_ROOM`].
    pub room: Option<VarId>,
    /// A variable of the kernel (`i64`) holding the iteration budget left, which the
    /// kernel's own loops spend and its functions spend with it (see the module
    /// documentation); `None`: the functions' loops and calls are not counted.
    pub budget: Option<VarId>,
}

/// One function lowered for one signature.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    /// The function's variables (`vars`) and statements (`body`); its other fields are
    /// empty.
    pub kernel: Kernel,
    /// The variables of `kernel` bound to the arguments, in order.
    pub params: Vec<VarId>,
    /// The variables of `kernel` whose values the call gives back, in order.
    pub outputs: Vec<VarId>,
}

/// How many calls nest when a kernel does not say.
pub const DEFAULT_ROOM: i64 = 2000;

/// The message of a call that would nest deeper than the room allows.
pub const CALL_DEPTH_MESSAGE: &str = "too many nested calls";

/// The message of a kernel whose functions ran out of its iteration budget.
pub const BUDGET_MESSAGE: &str = "the iteration budget of the kernel is exhausted";

/// The message of a backend that cannot run calls (the SIMT interpreter) when it is
/// handed a kernel with some: the host runs the function on its own interpreter.
pub const NOT_COMPILED_MESSAGE: &str = "calls of functions (recursion) run only as compiled code";

/// Whether kernel `k` calls functions (only backends that implement calls take it).
pub fn has_calls(k: &Kernel) -> bool {
    !k.calls.funcs.is_empty()
}
