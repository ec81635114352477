//! One golden program on one backend, as `cargo test` (`tests/golden.rs`) and
//! `blazar test` both run it: its configurations, its verdict, the probe that finds
//! whether a backend is available here, and the closing tally.

use crate::run::{check_outcome, run_limited, run_program, Failure, EXIT_UNAVAILABLE};
use crate::Spec;
use std::fmt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The thread counts one program runs with on `backend`, one after the other (programs
/// may write files next to themselves): the CPU checks 1 and 2 threads unless `threads`
/// fixes one, so results cannot depend on the number of cores.
pub fn thread_counts(backend: &str, threads: Option<usize>) -> Vec<Option<usize>> {
    match (backend, threads) {
        (_, Some(n)) => vec![Some(n)],
        ("cpu", None) => vec![Some(1), Some(2)],
        ("nvrtc" | "jit", None) => vec![Some(2)],
        ("sim2" | "sim3", None) => vec![Some(1)],
        ("host", None) => vec![Some(1)],
        _ => vec![None],
    }
}

/// The result of one program on one backend.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Pass,
    /// A failure; its summary starts with the thread count it happened on, if any.
    Fail(Failure),
    Skip(String),
}

/// Runs a program on `backend` with each thread count in turn, stopping at the first
/// failure. `spec` is the parsed test block, or why it could not be parsed.
pub fn run_case(
    blazar: &Path,
    file: &Path,
    spec: &Result<Spec, String>,
    backend: &str,
    threads: &[Option<usize>],
    limit: Option<Duration>,
) -> Verdict {
    let spec = match spec {
        Ok(s) => s,
        Err(e) => return Verdict::Fail(Failure::new(format!("bad test block: {e}"), "")),
    };
    if let Some(why) = spec.excludes(crate::results_of(backend)) {
        return Verdict::Skip(why);
    }
    if let Some(why) = spec.missing() {
        return Verdict::Skip(why);
    }
    for &n in threads {
        let on = |summary: String| match n {
            Some(n) => format!("on {n} thread{}: {summary}", if n == 1 { "" } else { "s" }),
            None => summary,
        };
        let out = match run_program(blazar, file, backend, n, spec, limit) {
            Ok(out) => out,
            Err(e) => return Verdict::Fail(Failure::new(on(e), "")),
        };
        if out.code == Some(EXIT_UNAVAILABLE) {
            // The probe found the backend, so this is a failure, never a skip.
            let summary = format!("{backend} became unavailable: {}", out.first_error_line());
            return Verdict::Fail(Failure::new(on(summary), ""));
        }
        if let Err(f) = check_outcome(spec, &out, backend) {
            return Verdict::Fail(Failure::new(on(f.summary), f.detail));
        }
    }
    Verdict::Pass
}

/// Whether a backend can run programs here.
#[derive(Clone, Debug, PartialEq)]
pub enum Probe {
    Available,
    /// `blazar run` says the device is not here (exit status 69): skip, with the reason.
    Unavailable(String),
    /// The probe program went wrong in another way: run the programs anyway, so that
    /// the problem shows as failures.
    Broken(String),
}

/// A small kernel launch: a backend that runs it correctly is available.
const PROBE_PROGRAM: &str = "x = zeros(4)
parallel_do(4, x, __kernel__ (x : vec, pos : int) -> _
    x[pos] = pos + 1)
print x
";

/// Finds whether `backend` is available by running a small kernel on it (the CPU
/// always is). `tmp` is a folder for the probe program.
pub fn probe_backend(blazar: &Path, backend: &str, tmp: &Path) -> Probe {
    if matches!(backend, "cpu" | "jit" | "host" | "sim2" | "sim3") {
        return Probe::Available;
    }
    let file = tmp.join(format!("blazar-probe-{}-{backend}.q", std::process::id()));
    if let Err(e) = std::fs::write(&file, PROBE_PROGRAM) {
        return Probe::Broken(format!("cannot write {}: {e}", file.display()));
    }
    let mut cmd = Command::new(blazar);
    cmd.arg("run").args(crate::probe_args(backend)).arg(&file);
    let result = run_limited(&mut cmd, Some(Duration::from_secs(300)));
    let _ = std::fs::remove_file(&file);
    let out = match result {
        Ok(out) => out,
        Err(e) => return Probe::Broken(e),
    };
    let line = out.first_error_line();
    let reason = line
        .strip_prefix("blazar: error: ")
        .unwrap_or(line)
        .to_string();
    // Builds from before exit status 69 say "... not available in this build".
    if out.code == Some(EXIT_UNAVAILABLE) || (!out.success && line.contains("not available")) {
        Probe::Unavailable(reason)
    } else if !out.success {
        Probe::Broken(format!("the probe kernel failed: {line}"))
    } else if out.stdout.trim() != "[1,2,3,4]" {
        Probe::Broken(format!(
            "the probe kernel printed `{}` instead of `[1,2,3,4]`",
            out.stdout.trim()
        ))
    } else {
        Probe::Available
    }
}

/// Counts of verdicts; prints as the closing line `tests: N passed, M failed, K skipped`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Tally {
    pub fn add(&mut self, v: &Verdict) {
        match v {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail(_) => self.failed += 1,
            Verdict::Skip(_) => self.skipped += 1,
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tests: {} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_spec;

    #[test]
    fn the_cpu_runs_on_one_and_two_threads_unless_told() {
        assert_eq!(thread_counts("cpu", None), vec![Some(1), Some(2)]);
        assert_eq!(thread_counts("cpu", Some(4)), vec![Some(4)]);
        assert_eq!(thread_counts("cuda", None), vec![None]);
    }

    #[test]
    fn excluded_backends_and_bad_blocks_are_not_run() {
        let nowhere = Path::new("/nonexistent/blazar");
        let file = Path::new("p.q");
        let spec = parse_spec("% ==\n% stdout { 1 }\n% backends { cpu }\n").map_err(|e| e.0);
        let v = run_case(nowhere, file, &spec, "cuda", &[None], None);
        assert_eq!(v, Verdict::Skip("`backends { cpu }` excludes cuda".into()));
        let v = run_case(
            nowhere,
            file,
            &Err("no `% ==` test block".into()),
            "cpu",
            &[None],
            None,
        );
        assert_eq!(
            v,
            Verdict::Fail(Failure::new("bad test block: no `% ==` test block", ""))
        );
        // A program that cannot be started is a failure that says so.
        let v = run_case(nowhere, file, &spec, "cpu", &[Some(2)], None);
        let Verdict::Fail(f) = v else {
            panic!("expected a failure, got {v:?}")
        };
        assert!(
            f.summary.starts_with("on 2 threads: cannot start"),
            "{}",
            f.summary
        );
    }

    #[test]
    fn the_cpu_is_always_available() {
        let nowhere = Path::new("/nonexistent/blazar");
        assert_eq!(
            probe_backend(nowhere, "cpu", Path::new("/tmp")),
            Probe::Available
        );
        let p = probe_backend(nowhere, "cuda", &std::env::temp_dir());
        assert!(
            matches!(p, Probe::Broken(ref e) if e.starts_with("cannot start")),
            "{p:?}"
        );
    }

    #[test]
    fn the_tally_prints_the_closing_line() {
        let mut t = Tally::default();
        for v in [Verdict::Pass, Verdict::Pass, Verdict::Skip("x".into())] {
            t.add(&v);
        }
        t.add(&Verdict::Fail(Failure::new("f", "")));
        assert_eq!(t.to_string(), "tests: 2 passed, 1 failed, 1 skipped");
    }
}
