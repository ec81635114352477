//! Error codes of `bz_err::code`, as the generated C++ records them and the launcher
//! (`blazar-native`) reports them.

pub const ASSERT: i32 = 1;
pub const OUT_OF_BOUNDS: i32 = 2;
pub const ALLOC_TOO_LARGE: i32 = 3;
pub const POOL_EXHAUSTED: i32 = 4;
/// A negative extent: `a` the extent, `b` the builtin (`blazar_kir::ALLOC_BUILTINS`).
pub const NEGATIVE_EXTENT: i32 = 5;
pub const SHARED_TOO_LARGE: i32 = 7;
/// A thread that skipped a barrier reached another one (`line` the barrier).
pub const DIVERGENCE: i32 = 8;
/// A call of a function would nest deeper than the kernel's room (`blazar_kir::calls`).
pub const CALL_DEPTH: i32 = 9;
/// The functions of a kernel ran out of its iteration budget (`blazar_kir::calls`).
pub const BUDGET: i32 = 10;
/// A signal asked the run to stop (`a` the signal's number): an outlined host
/// function's loops and calls poll the process's flag (`bz_call::sig`).
pub const INTERRUPTED: i32 = 11;
