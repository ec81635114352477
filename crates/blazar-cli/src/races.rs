//! `blazar run --check-races`: the race detector's findings as located diagnostics.
//!
//! Every kernel runs on the SIMT interpreter under `blazar_cpu::RaceDetector`
//! (`blazar_cpu::RaceBackend`). After the run, each race (one per kernel, array and
//! pair of source lines) becomes a warning located at the later access, with a note at
//! the earlier one, both threads' positions, the element and how often it was seen.
//! `--check-races` exits as the program does (races are warnings);
//! `--check-races=error` makes them errors and the exit status 1 when any is found.

use blazar_cpu::observe::{AccessKind, MemSpace, Thread};
use blazar_cpu::{Race, RaceDetector};
use blazar_diagnostics::{Diagnostic, FileId, Severity, Span};
use blazar_interp::Loaded;
use clap::ValueEnum;

/// How kernels are scheduled on the interpreter (`--schedule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Schedule {
    /// Blocks in order, threads of a block in lock step (deterministic).
    Serial,
    /// Blocks, and the threads of kernels without blocks, in a random order drawn
    /// from `--seed` (reproducible).
    Random,
}

/// The seed of a schedule: `Some` under `--schedule random`.
pub fn seed_of(schedule: Schedule, seed: u64) -> Option<u64> {
    (schedule == Schedule::Random).then_some(seed)
}

/// How races are reported.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum RaceMode {
    /// Warnings; the exit status is the program's.
    Warn,
    /// Errors; exit status 1 when a race is found.
    Error,
}

fn verb(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Read => "read",
        AccessKind::Write => "written",
        AccessKind::Atomic => "updated atomically",
    }
}

fn list(v: &[impl std::fmt::Display]) -> String {
    let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(","))
}

fn who(t: &Thread) -> String {
    format!(
        "thread pos={} (blkpos={}, blkidx={})",
        list(&t.pos),
        list(&t.blkpos),
        list(&t.blkidx)
    )
}

/// The span of source line `line` of kernel `kernel` (the main file when the kernel
/// is generated, as for whole-array expressions).
fn line_span(loaded: &Loaded, kernel: &str, line: u32) -> Option<Span> {
    let main = Span::new(FileId(0), 0, 0);
    blazar_interp::kernel_line_span(&loaded.program, &loaded.sources, kernel, line, main)
}

/// One race as a diagnostic.
pub fn diagnostic(r: &Race, loaded: &Loaded, mode: RaceMode) -> Diagnostic {
    let space = match r.space {
        MemSpace::Global => "global",
        MemSpace::Shared => "shared",
    };
    let by = if r.first.thread.blkidx == r.second.thread.blkidx {
        "by different threads with no syncthreads between"
    } else {
        "by threads of different blocks"
    };
    let message = format!(
        "data race on {space} array `{}` in kernel `{}`: element {} {} at line {} and {} at \
         line {} {by}",
        r.array,
        r.kernel,
        list(&r.element),
        verb(r.first.kind),
        r.first.line,
        verb(r.second.kind),
        r.second.line,
    );
    let at = line_span(loaded, &r.kernel, r.second.line);
    let mut d = match at {
        Some(s) => Diagnostic::warning(s, message),
        None => {
            let mut d = Diagnostic::global(message);
            d.severity = Severity::Warning;
            d
        }
    };
    if mode == RaceMode::Error {
        d.severity = Severity::Error;
    }
    let first = format!("{} by {}", verb(r.first.kind), who(&r.first.thread));
    match line_span(loaded, &r.kernel, r.first.line) {
        Some(s) => d = d.with_related(s, format!("first {first}")),
        None => d = d.with_note(format!("first {first} at line {}", r.first.line)),
    }
    d = d.with_note(format!(
        "then {} by {}",
        verb(r.second.kind),
        who(&r.second.thread)
    ));
    if r.count > 1 {
        d = d.with_note(format!(
            "{} conflicting pairs of accesses like this one",
            r.count
        ));
    }
    let same_block = r.first.thread.blkidx == r.second.thread.blkidx;
    let kinds = (r.first.kind, r.second.kind);
    let rmw = r.first.line == r.second.line
        && matches!(
            kinds,
            (AccessKind::Read, AccessKind::Write | AccessKind::Atomic)
        );
    d = d.with_note(if rmw {
        "a read-modify-write by several threads: an atomic update (`a[i] += v`) makes it one \
         indivisible step"
    } else if kinds == (AccessKind::Write, AccessKind::Write) && r.first.line == r.second.line {
        "several threads write one element: which value remains is undefined on a GPU"
    } else if same_block {
        "a `syncthreads` between the two accesses would order them"
    } else {
        "the threads are in different blocks, which no barrier orders: use an atomic \
         operation or separate launches"
    });
    d
}

/// Prints the races of a run on stderr; whether any was an error.
pub fn report(det: &RaceDetector, loaded: &Loaded, mode: RaceMode) -> bool {
    let races = det.races();
    if races.is_empty() {
        return false;
    }
    let ds: Vec<Diagnostic> = races.iter().map(|r| diagnostic(r, loaded, mode)).collect();
    use std::io::Write;
    let _ = std::io::stdout().flush();
    eprint!("{}", blazar_diagnostics::render_all(&ds, &loaded.sources));
    eprintln!(
        "blazar: {} data race{} found",
        races.len(),
        if races.len() == 1 { "" } else { "s" }
    );
    mode == RaceMode::Error
}
