//! `BLAZAR_TIER_TRACE`: one line on stderr per kernel launch on the CPU, naming the
//! tier that ran it (the C++ library, the JIT's code, or the SIMT interpreter) and its
//! wall time. For measurements: on a program's first run it tells which repetitions of
//! a statement ran on which tier while the C++ compiled in the background.

use std::sync::OnceLock;
use std::time::Instant;

/// Which code ran a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ran {
    Cpp,
    Jit,
    Interp,
}

impl Ran {
    fn word(self) -> &'static str {
        match self {
            Ran::Cpp => "c++",
            Ran::Jit => "jit",
            Ran::Interp => "interp",
        }
    }
}

/// Whether the trace is on (read once per process).
pub(crate) fn on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("BLAZAR_TIER_TRACE").is_some_and(|v| v != "0"))
}

/// Prints the line of one launch of `kernel` that started at `start`.
pub(crate) fn note(kernel: &str, ran: Ran, start: Instant) {
    eprintln!(
        "blazar: tier: {kernel} {} {:.3} ms",
        ran.word(),
        start.elapsed().as_secs_f64() * 1e3
    );
}
