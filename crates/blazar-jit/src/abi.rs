//! The launch ABI that compiled code reads: byte offsets in the launcher's `#[repr(C)]`
//! records (`blazar-native`'s `abi::{GArr, Call, Err}`, whose tests check that they
//! agree with these).

/// `GArr`: `{ data: *mut u8, len: i64, rank: i64, dims: [i64; 8] }`.
pub const GARR_SIZE: i32 = 88;
pub const GARR_DATA: i32 = 0;
pub const GARR_DIMS: i32 = 24;

/// `Call`: `{ arrs, params, stop, kd: [i64; 4], kb: [i64; 4], total, items, chunk, sig }`.
pub const CALL_ARRS: i32 = 0;
pub const CALL_PARAMS: i32 = 8;
pub const CALL_STOP: i32 = 16;
pub const CALL_KD: i32 = 24;
pub const CALL_KB: i32 = 56;
pub const CALL_TOTAL: i32 = 88;
pub const CALL_CHUNK: i32 = 104;
/// `sig`: the process's interrupt flag (a `usize`, non-zero once a signal asked the run
/// to stop), which an outlined host function's loops poll.
pub const CALL_SIG: i32 = 112;

/// `Err`: `{ code: i32, line: i32, item: i64, a: u64, b: i64, c: i64, pos: i64 }`.
pub const ERR_CODE: i32 = 0;
pub const ERR_LINE: i32 = 4;
pub const ERR_ITEM: i32 = 8;
pub const ERR_A: i32 = 16;
pub const ERR_B: i32 = 24;
pub const ERR_C: i32 = 32;

/// Bytes reserved per output partial (the largest scalar).
pub const PARTIAL_BYTES: i64 = 16;

/// Error codes (the native tier's): an assertion failed; a `'checked` index was
/// outside (`a` index, `b` dimension, `c` extent).
pub const ASSERT: i32 = 1;
pub const OUT_OF_BOUNDS: i32 = 2;
/// A signal asked the run to stop (`a` the flag's value: the signal's number).
pub const INTERRUPTED: i32 = 11;
