//! Notes for the user about work that is not the program's: a kernel compiled on its
//! first launch (`blazar run --verbose`, the interactive session). Off unless the
//! embedding program turns them on; printed on stderr, so program output is unchanged.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static ON: AtomicBool = AtomicBool::new(false);

/// Turns the notes on or off (for the whole process).
pub fn set_compile_notes(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

/// Reports that `kernel` was compiled for `target` in `took` (a cache hit is not a
/// compile and is not reported).
pub fn note_compiled(kernel: &str, target: &str, took: Duration) {
    if ON.load(Ordering::Relaxed) {
        eprintln!(
            "blazar: note: compiled kernel `{kernel}` for {target} in {:.2} s",
            took.as_secs_f64()
        );
    }
}
