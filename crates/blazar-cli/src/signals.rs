//! Ctrl-C and SIGTERM: the run stops at its next loop iteration or call (a located
//! error), its output is flushed, and `blazar` exits with 130 or 143 as a shell does.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const SIGINT: usize = 2;
const SIGTERM: usize = 15;

/// Installs the handlers; the flag holds the number of the signal that arrived (0:
/// none). If a handler cannot be installed the signal keeps its default action.
pub fn install() -> Arc<AtomicUsize> {
    let flag = Arc::new(AtomicUsize::new(0));
    for sig in [SIGINT, SIGTERM] {
        let _ = signal_hook::flag::register_usize(sig as i32, flag.clone(), sig);
    }
    flag
}

/// The exit status for a run a signal stopped, or `None`.
pub fn exit_code(flag: &AtomicUsize) -> Option<ExitCode> {
    match flag.load(Ordering::Relaxed) {
        0 => None,
        sig => Some(ExitCode::from(128 + sig as u8)),
    }
}
