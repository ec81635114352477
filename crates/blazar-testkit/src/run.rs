//! Running one golden program as a child `blazar run` process and checking what it did
//! against its spec.

use crate::compare::{first_difference, normalise};
use crate::Spec;
use std::fmt;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The exit status of `blazar run --device D` when device D is not available here
/// (`EX_UNAVAILABLE` of sysexits.h); stderr then starts with
/// `blazar: error: CUDA is not available`.
pub const EXIT_UNAVAILABLE: i32 = 69;

/// What one run of a program produced.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
    /// The exit status, `None` when the process was ended by a signal.
    pub code: Option<i32>,
}

impl Outcome {
    /// The first non-blank line of stderr, trimmed.
    pub fn first_error_line(&self) -> &str {
        first_line(&self.stderr)
    }
}

fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// Runs `blazar run FILE --device BACKEND [--threads N]` with the spec's options
/// (on the CPU with a thread count, `--cpu-tier interp` on 1 thread and `native` on
/// more), stopping it after `limit` (an `Err` then says so).
pub fn run_program(
    blazar: &Path,
    file: &Path,
    backend: &str,
    threads: Option<usize>,
    spec: &Spec,
    limit: Option<Duration>,
) -> Result<Outcome, String> {
    let mut cmd = Command::new(blazar);
    cmd.arg("run").arg(file).args(crate::backend_args(backend));
    if let Some(n) = threads {
        cmd.arg("--threads").arg(n.to_string());
        // The CPU's two tiers: the interpreter on 1 thread, native code on 2.
        if backend == "cpu" {
            cmd.arg("--cpu-tier")
                .arg(if n == 1 { "interp" } else { "native" });
        }
    }
    cmd.args(&spec.options).env("RUST_BACKTRACE", "0");
    run_limited(&mut cmd, limit)
}

/// Runs `cmd` to completion with stdin closed, killing it after `limit`.
pub fn run_limited(cmd: &mut Command, limit: Option<Duration>) -> Result<Outcome, String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", cmd.get_program().to_string_lossy()))?;
    fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<String> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if limit.is_some_and(|l| start.elapsed() > l) => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(25));
            }
            Err(e) => {
                let _ = child.kill();
                return Err(format!("cannot wait for the program: {e}"));
            }
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match status {
        Some(s) => Ok(Outcome {
            stdout,
            stderr,
            success: s.success(),
            code: s.code(),
        }),
        None => Err(format!(
            "timed out after {} s",
            limit.unwrap_or_default().as_secs_f64()
        )),
    }
}

/// Why a run does not meet its spec: a one-line summary, and the details (expected
/// and actual output, stderr) for whoever wants them.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub summary: String,
    pub detail: String,
}

impl Failure {
    pub fn new(summary: impl Into<String>, detail: impl Into<String>) -> Failure {
        Failure {
            summary: summary.into(),
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.summary)?;
        if !self.detail.trim().is_empty() {
            write!(f, "\n{}", self.detail.trim_end())?;
        }
        Ok(())
    }
}

fn section(title: &str, text: &str) -> String {
    format!("--- {title}\n{}\n", text.trim_end())
}

/// Checks an outcome on `backend` against a spec (with the backend's tolerance).
pub fn check_outcome(spec: &Spec, out: &Outcome, backend: &str) -> Result<(), Failure> {
    let stderr = || section("stderr", &out.stderr);
    if out.stderr.contains("internal error") || out.stderr.contains("panicked") {
        let summary = format!("blazar crashed: {}", out.first_error_line());
        return Err(Failure::new(summary, stderr()));
    }
    if let Some(re) = &spec.error {
        if out.success {
            return Err(Failure::new(
                format!("expected an error matching /{re}/ but the program succeeded"),
                section("stdout", &out.stdout),
            ));
        }
        let re = regex::Regex::new(re)
            .map_err(|e| Failure::new(format!("bad error regex /{re}/: {e}"), ""))?;
        if !re.is_match(&out.stderr) {
            let summary = format!("stderr does not match /{re}/: `{}`", out.first_error_line());
            return Err(Failure::new(summary, stderr()));
        }
    } else if !out.success {
        let status = match out.code {
            Some(c) => format!("exit status {c}"),
            None => "killed by a signal".to_string(),
        };
        let summary = format!("the program failed ({status}): {}", out.first_error_line());
        return Err(Failure::new(summary, stderr()));
    }
    if let Some(expected) = &spec.stdout {
        let tolerance = spec.tolerance_for(crate::results_of(backend));
        if let Some(diff) = first_difference(expected, &out.stdout, tolerance) {
            let mut detail = section("expected", &normalise(expected).join("\n"));
            detail += &section("actual", &normalise(&out.stdout).join("\n"));
            if let Some(t) = tolerance {
                detail += &format!("(numbers compared with tolerance {t})\n");
            }
            if !out.stderr.trim().is_empty() {
                detail += &stderr();
            }
            return Err(Failure::new(diff.to_string(), detail));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_spec;

    fn outcome(stdout: &str, stderr: &str, code: i32) -> Outcome {
        Outcome {
            stdout: stdout.into(),
            stderr: stderr.into(),
            success: code == 0,
            code: Some(code),
        }
    }

    #[test]
    fn checks_stdout_with_the_backends_tolerance() {
        let spec = parse_spec("% ==\n% stdout { 0.5 }\n% tolerance { cuda 1e-3 }\n").unwrap();
        let out = outcome("0.5001\n", "", 0);
        assert!(check_outcome(&spec, &out, "cuda").is_ok());
        let f = check_outcome(&spec, &out, "cpu").unwrap_err();
        assert_eq!(f.summary, "stdout line 1: expected `0.5`, got `0.5001`");
        assert!(f.detail.contains("--- expected\n0.5\n--- actual\n0.5001\n"));
    }

    #[test]
    fn checks_errors_and_failures() {
        let spec = parse_spec("% ==\n% error: line 3.*undefined\n").unwrap();
        let f = check_outcome(&spec, &outcome("1\n", "", 0), "cpu").unwrap_err();
        assert!(f.summary.starts_with("expected an error matching"));
        let out = outcome("", "p.q:3:1: error: `x` is undefined\n", 1);
        let f = check_outcome(&spec, &out, "cpu").unwrap_err();
        assert_eq!(
            f.summary,
            "stderr does not match /line 3.*undefined/: `p.q:3:1: error: `x` is undefined`"
        );
        let spec = parse_spec("% ==\n% stdout { 1 }\n").unwrap();
        let out = outcome("", "\np.q:1:1: error: boom\nmore\n", 1);
        let f = check_outcome(&spec, &out, "cpu").unwrap_err();
        assert_eq!(
            f.summary,
            "the program failed (exit status 1): p.q:1:1: error: boom"
        );
        let out = outcome("1", "blazar: internal error: oops\n", 101);
        let f = check_outcome(&spec, &out, "cpu").unwrap_err();
        assert_eq!(f.summary, "blazar crashed: blazar: internal error: oops");
    }
}
