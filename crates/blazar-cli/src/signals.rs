//! Ctrl-C, SIGTERM and SIGHUP: the run stops at its next loop iteration or call (a
//! located error; kernels of the SIMT interpreter at their next loop iteration, long
//! builtins between blocks), its output is flushed, and `blazar` exits with 130, 143 or
//! 129 as a shell does.
//!
//! Compiled host functions (the JIT's and the C++ tier's code) test it every 65536
//! loop iterations or calls. Code that never tests it (a parallel native-tier kernel, a
//! device synchronisation)
//! cannot stop there; for `blazar run` a watchdog thread ([`watchdog`]) then flushes
//! the program's output itself, says where the run was, and ends the process.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

const SIGHUP: usize = 1;
const SIGINT: usize = 2;
const SIGTERM: usize = 15;

/// How long a run may take to stop by itself after a signal before the watchdog ends
/// the process.
const GRACE: Duration = Duration::from_millis(500);

/// Installs the handlers; the flag (the process's, `blazar_runtime::interrupt`) holds
/// the number of the signal that arrived (0: none). If a handler cannot be installed
/// the signal keeps its default action.
pub fn install() -> Arc<AtomicUsize> {
    let flag = blazar_runtime::interrupt::flag();
    for sig in [SIGHUP, SIGINT, SIGTERM] {
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

/// The program's output, shared with the watchdog so that it can flush what the
/// program printed.
#[derive(Clone)]
pub struct SharedOut(Arc<Mutex<Box<dyn Write + Send>>>);

impl SharedOut {
    pub fn new(out: Box<dyn Write + Send>) -> SharedOut {
        SharedOut(Arc::new(Mutex::new(out)))
    }

    /// Flushes, waiting at most `wait` for a writer that holds the output.
    pub fn flush_within(&self, wait: Duration) {
        let start = Instant::now();
        loop {
            match self.0.try_lock() {
                Ok(mut o) => {
                    let _ = o.flush();
                    return;
                }
                Err(TryLockError::Poisoned(p)) => {
                    let _ = p.into_inner().flush();
                    return;
                }
                Err(TryLockError::WouldBlock) if start.elapsed() < wait => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(TryLockError::WouldBlock) => return,
            }
        }
    }
}

impl Write for SharedOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut o) => o.write(buf),
            Err(p) => p.into_inner().write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self.0.lock() {
            Ok(mut o) => o.write_all(buf),
            Err(p) => p.into_inner().write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.0.lock() {
            Ok(mut o) => o.flush(),
            Err(p) => p.into_inner().flush(),
        }
    }
}

/// Starts the watchdog of a run: once a signal has waited [`GRACE`] without the run
/// stopping, it flushes `out`, reports the signal at the statement that runs (a kernel
/// launch, a builtin call; `sources` locate it) and exits with 128 + the signal.
/// Setting the returned flag (the run is over) ends it.
pub fn watchdog(
    flag: Arc<AtomicUsize>,
    out: SharedOut,
    sources: blazar_diagnostics::SourceMap,
) -> Arc<AtomicBool> {
    let over = Arc::new(AtomicBool::new(false));
    let done = over.clone();
    let _ = std::thread::Builder::new()
        .name("blazar-signals".into())
        .spawn(move || {
            let mut since: Option<Instant> = None;
            loop {
                std::thread::sleep(Duration::from_millis(20));
                if done.load(Ordering::Relaxed) {
                    return;
                }
                let sig = flag.load(Ordering::Relaxed);
                if sig == 0 {
                    since = None;
                    continue;
                }
                if since.get_or_insert_with(Instant::now).elapsed() < GRACE
                    || done.load(Ordering::Relaxed)
                {
                    continue;
                }
                out.flush_within(Duration::from_millis(200));
                let _ = std::io::stdout().flush();
                report_here(&sources, &blazar_runtime::interrupt::message(sig));
                blazar_native::abandon_compiles();
                // `_exit`: the main thread is still inside native code; exit handlers
                // (C++ destructors of loaded kernels) must not run under it.
                unsafe { libc::_exit(128 + sig as i32) };
            }
        });
    over
}

/// Reports `message` as an error at the statement the interpreter runs now
/// (`blazar_runtime::interrupt::at`), located with `sources`.
pub fn report_here(sources: &blazar_diagnostics::SourceMap, message: &str) {
    let at =
        blazar_runtime::interrupt::at().filter(|&(f, _, _)| (f as usize) < sources.files().len());
    match at {
        Some((file, lo, hi)) => {
            let span = blazar_diagnostics::Span::new(
                blazar_diagnostics::FileId(file),
                lo as usize,
                hi as usize,
            );
            let d = blazar_diagnostics::Diagnostic::error(span, message);
            eprint!("{}", blazar_diagnostics::render(&d, sources));
        }
        None => eprintln!("blazar: error: {message}"),
    }
}
