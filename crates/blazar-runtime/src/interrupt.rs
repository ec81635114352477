//! The signal that asks a run to stop (Ctrl-C, SIGTERM, SIGHUP), for code that runs
//! long without returning to the interpreter: the kernels of the SIMT interpreter test
//! it at every loop iteration, compiled host functions (the JIT's and the C++ tier's
//! code, through [`flag_ptr`]) every 65536 iterations or calls, builtins that read or build without bound (`load`,
//! `csvread`) between blocks. The embedding program's signal handler sets it (to the
//! signal's number; 0: none) and clears it when a stopped input is over (the REPL).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

static FLAG: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// The process's flag, which signal handlers set and [`pending`] reads.
pub fn flag() -> Arc<AtomicUsize> {
    FLAG.get_or_init(|| Arc::new(AtomicUsize::new(0))).clone()
}

/// The address of the process's flag, for compiled code to poll (the flag lives as
/// long as the process).
pub fn flag_ptr() -> *const AtomicUsize {
    Arc::as_ptr(FLAG.get_or_init(|| Arc::new(AtomicUsize::new(0))))
}

/// The number of the signal that asked the run to stop, if one did.
#[inline]
pub fn pending() -> Option<usize> {
    match FLAG.get()?.load(Ordering::Relaxed) {
        0 => None,
        sig => Some(sig),
    }
}

/// The message of a run stopped by signal `sig`: `stopped here by SIGINT (Ctrl-C)`.
pub fn message(sig: usize) -> String {
    let name = match sig {
        1 => "SIGHUP",
        2 => "SIGINT (Ctrl-C)",
        15 => "SIGTERM",
        _ => "a signal",
    };
    format!("stopped here by {name}")
}

/// An error (for a builtin to return) when a signal asked the run to stop.
pub fn check() -> crate::RtResult<()> {
    match pending() {
        Some(sig) => Err(crate::RtError::new(message(sig))),
        None => Ok(()),
    }
}

/// The statement the interpreter runs now, for a report when the run cannot stop by
/// itself: (file, lo) packed, and hi.
static AT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(u64::MAX);
static AT_HI: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Records that the statement at `lo..hi` of source file `file` runs now.
#[inline]
pub fn set_at(file: u32, lo: u32, hi: u32) {
    AT.store((file as u64) << 32 | lo as u64, Ordering::Relaxed);
    AT_HI.store(hi, Ordering::Relaxed);
}

/// The statement recorded last by [`set_at`]: (file, lo, hi).
pub fn at() -> Option<(u32, u32, u32)> {
    let v = AT.load(Ordering::Relaxed);
    (v != u64::MAX).then(|| ((v >> 32) as u32, v as u32, AT_HI.load(Ordering::Relaxed)))
}
