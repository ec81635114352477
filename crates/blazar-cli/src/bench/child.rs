//! Running one benchmark program as a child process and reading what it printed.
//!
//! Every program of the benchmark protocol (a `kernel.q` under `blazar run`, a compiled
//! reference, a CuPy script) prints one `rep: <ms> ms` line per timed repetition and one
//! `checksum: <value>` line on stdout. A Blazar child may also print, on stderr, a line
//! `stats: compiled=N cached=M compile_ms=X` (when `BLAZAR_STATS=1` is set): how many
//! kernel specialisations it compiled, how many it took from the cache, and the time spent
//! compiling, which is never part of the timed repetitions.

use super::report::{median, Side, Stats};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Most stderr lines of a successful child kept to be shown under its row.
const MAX_EXTRA: usize = 3;

/// What a finished child printed.
pub(super) struct Output {
    pub(super) stdout: String,
    pub(super) stderr: String,
    pub(super) success: bool,
}

/// Runs a program to completion (or the time limit) and reads its `rep:`, `checksum:` and
/// `stats:` lines.
pub(super) fn measure(cmd: &mut Command, limit: Duration) -> Side {
    match run_limited(cmd, limit) {
        Ok(out) => {
            let side = parse_output(&out);
            if out.success {
                if side.ms.is_some() && side.reps < 5 {
                    eprintln!(
                        "  warning: {:?} printed only {} repetitions (want at least 5)",
                        cmd.get_program(),
                        side.reps
                    );
                }
            } else {
                let why = out
                    .stderr
                    .lines()
                    .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("stats:"))
                    .unwrap_or("failed")
                    .trim()
                    .to_string();
                eprintln!("  {:?} failed: {why}", cmd.get_program());
            }
            side
        }
        Err(e) => Side {
            note: Some(e),
            ..Side::default()
        },
    }
}

/// The [`Side`] of a finished child: the median repetition (none when it failed or
/// printed no `rep:` line, with a note saying which), its checksum and compile stats.
pub(super) fn parse_output(out: &Output) -> Side {
    let mut reps = Vec::new();
    let mut checksum = None;
    for line in out.stdout.lines().map(str::trim) {
        if let Some(ms) = line
            .strip_prefix("rep:")
            .and_then(|r| r.trim().strip_suffix("ms"))
        {
            if let Ok(v) = ms.trim().parse::<f64>() {
                reps.push(v);
            }
        } else if let Some(v) = line.strip_prefix("checksum:") {
            checksum = parse_number(v.trim());
        }
    }
    let mut stats = None;
    let mut extra = Vec::new();
    for line in out.stderr.lines().map(str::trim).filter(|l| !l.is_empty()) {
        match parse_stats(line) {
            Some(s) => stats = Some(s),
            None if extra.len() < MAX_EXTRA => extra.push(line.to_string()),
            None => {}
        }
    }
    let note = if !out.success {
        Some("failed".to_string())
    } else if reps.is_empty() {
        Some("no rep: lines".to_string())
    } else {
        None
    };
    let spread = reps
        .iter()
        .fold(None, |acc: Option<(f64, f64)>, &v| match acc {
            None => Some((v, v)),
            Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
        })
        .filter(|_| note.is_none());
    Side {
        ms: if note.is_none() {
            Some(median(&mut reps))
        } else {
            None
        },
        spread,
        reps: if note.is_none() { reps.len() } else { 0 },
        checksum,
        note,
        stats,
        extra: if out.success { extra } else { Vec::new() },
    }
}

/// `stats: compiled=N cached=M compile_ms=X` (keys in any order, other words ignored;
/// `compiled` and `cached` are required, `compile_ms` defaults to 0).
pub(super) fn parse_stats(line: &str) -> Option<Stats> {
    let rest = line.trim().strip_prefix("stats:")?;
    let (mut compiled, mut cached, mut compile_ms) = (None, None, 0.0);
    for pair in rest.split_whitespace() {
        let Some((key, value)) = pair.split_once('=') else {
            continue;
        };
        match key {
            "compiled" => compiled = Some(value.parse().ok()?),
            "cached" => cached = Some(value.parse().ok()?),
            "compile_ms" => compile_ms = value.parse().ok().filter(|v: &f64| v.is_finite())?,
            _ => {}
        }
    }
    Some(Stats {
        compiled: compiled?,
        cached: cached?,
        compile_ms,
    })
}

pub(super) fn parse_number(s: &str) -> Option<f64> {
    match s {
        "Inf" | "inf" => Some(f64::INFINITY),
        "-Inf" | "-inf" => Some(f64::NEG_INFINITY),
        _ => s.parse().ok(),
    }
}

/// Runs `cmd`, killing it after `limit`.
pub(super) fn run_limited(cmd: &mut Command, limit: Duration) -> Result<Output, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut text);
            }
            text
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    // Polled from 50 µs up to 1 ms apart: the process's time is read to about a
    // millisecond (a fixed 20 ms sleep rounded every time up to the next 20 ms).
    let mut pause = Duration::from_micros(50);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(1));
            }
            Err(e) => return Err(format!("cannot wait: {e}")),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match status {
        Some(s) => Ok(Output {
            stdout,
            stderr,
            success: s.success(),
        }),
        None => Err(format!("timed out after {} s", limit.as_secs())),
    }
}

/// The first line of a compiler's complaint that names an error (else its first line).
pub(super) fn first_error(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .or(stderr.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("failed")
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(stdout: &str, stderr: &str, success: bool) -> Output {
        Output {
            stdout: stdout.into(),
            stderr: stderr.into(),
            success,
        }
    }

    #[test]
    fn reads_reps_checksum_and_stats() {
        let side = parse_output(&out(
            "rep: 3.0 ms\nrep: 1.0000 ms\nrep: 2.5 ms\nnoise\nchecksum: 1.5e+09\n",
            "stats: compiled=3 cached=1 compile_ms=120.5\n",
            true,
        ));
        assert_eq!(side.ms, Some(2.5));
        assert_eq!(side.spread, Some((1.0, 3.0)));
        assert_eq!(side.reps, 3);
        assert_eq!(side.checksum, Some(1.5e9));
        assert_eq!(
            side.stats,
            Some(Stats {
                compiled: 3,
                cached: 1,
                compile_ms: 120.5
            })
        );
        assert!(side.note.is_none() && side.extra.is_empty());
    }

    #[test]
    fn keeps_other_stderr_lines_of_a_success() {
        let side = parse_output(&out(
            "rep: 1 ms\n",
            "note: a\n\nstats: compiled=0 cached=2 compile_ms=0\nb\nc\nd\n",
            true,
        ));
        assert_eq!(side.extra, vec!["note: a", "b", "c"]);
        assert_eq!(side.stats.map(|s| s.cached), Some(2));
    }

    #[test]
    fn failures_and_missing_reps_have_no_time() {
        let failed = parse_output(&out("rep: 1 ms\nchecksum: 4\n", "boom\n", false));
        assert_eq!((failed.ms, failed.note.as_deref()), (None, Some("failed")));
        assert_eq!(failed.spread, None);
        assert_eq!(failed.checksum, Some(4.0));
        let silent = parse_output(&out("checksum: 4\n", "", true));
        assert_eq!(silent.ms, None);
        assert_eq!(silent.note.as_deref(), Some("no rep: lines"));
    }

    #[test]
    fn stats_lines() {
        let s = parse_stats("stats: cached=7 compiled=0").unwrap();
        assert_eq!((s.compiled, s.cached, s.compile_ms), (0, 7, 0.0));
        let s = parse_stats("  stats: compiled=2 cached=0 compile_ms=1.25 kernels=9").unwrap();
        assert_eq!((s.compiled, s.cached, s.compile_ms), (2, 0, 1.25));
        assert!(parse_stats("stats: compiled=2").is_none());
        assert!(parse_stats("stats: compiled=x cached=1").is_none());
        assert!(parse_stats("stats: compiled=1 cached=1 compile_ms=NaN").is_none());
        assert!(parse_stats("status: compiled=1 cached=1").is_none());
    }

    #[test]
    fn numbers_and_compiler_errors() {
        assert_eq!(parse_number("-Inf"), Some(f64::NEG_INFINITY));
        assert_eq!(parse_number("8.85333916e+09"), Some(8.85333916e9));
        assert_eq!(parse_number("x"), None);
        assert_eq!(
            first_error("warning: w\nfoo.cu(3): error: bad\n"),
            "foo.cu(3): error: bad"
        );
        assert_eq!(first_error("\nsomething\n"), "something");
        assert_eq!(first_error(""), "failed");
    }
}
