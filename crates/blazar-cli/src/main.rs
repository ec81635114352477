//! The `blazar` command: runs and checks Quasar programs.

mod bench;
mod cli;
mod debug;
mod device;
mod help;
mod multi;
mod oom;
mod races;
mod repl;
mod signals;
mod test_cmd;
mod ui;

/// The system allocator, recording refusals (`oom.rs`).
#[global_allocator]
static ALLOC: oom::Recording = oom::Recording;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A closed output pipe (`blazar emit kir prog.q | head -1`) ends the process quietly,
    // as it does other command-line tools, instead of failing a write.
    #[cfg(unix)]
    // SAFETY: restores the default action of one signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // A panic is a bug in Blazar; the user sees one line, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("blazar: internal error: {msg}{at} (this is a bug in Blazar; please report it)");
    }));
    let args = cli::Cli::parse();
    // Deeply recursive programs need a deep stack: run on a thread with 512 MiB.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || cli::main(args));
    let code = match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(101),
    };
    // Kernels still compiling in the background: a detached `blazar` finishes them
    // into the cache, so that the process ends now and the next run compiles nothing
    // (under `BLAZAR_WAIT_COMPILES=1`, this process waits for them instead).
    blazar_native::end_compiles(&this_program(), &[cli::FILL_CACHE]);
    code
}

/// This executable, for starting it again (`/proc/self/exe` still names it where its
/// file was replaced since it started).
fn this_program() -> std::path::PathBuf {
    let proc = std::path::PathBuf::from("/proc/self/exe");
    if std::fs::symlink_metadata(&proc).is_ok() {
        return proc;
    }
    std::env::current_exe().unwrap_or(proc)
}
