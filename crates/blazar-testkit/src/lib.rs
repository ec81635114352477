//! The golden-test runner: test blocks in Quasar comments, run on every backend.
//!
//! A golden program is an ordinary `.q` file with one comment block:
//!
//! ```text
//! % What this program checks.
//! % ==
//! % stdout { [ [2,4],
//! %            [6,8] ] }
//! ```
//!
//! Cases: `stdout { ... }` (expected output, compared line by line with surrounding
//! whitespace trimmed), `error: REGEX` (the run must fail and stderr must match),
//! `options { --double }` (extra flags for `blazar run`), `backends { cpu cuda }`,
//! `tags { ... }`. Braces nest, so expected output may itself contain `{ }`.

mod spec;

pub use spec::{parse_spec, Spec, SpecError};

use std::path::{Path, PathBuf};
use std::process::Command;

/// The backends a program can run on.
pub const ALL_BACKENDS: &[&str] = &["cpu", "cuda"];

/// The backends this build of blazar has.
pub fn available_backends() -> Vec<&'static str> {
    vec!["cpu"]
}

/// Every `.q` file under `dir` that carries a test block, sorted.
pub fn find_programs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "q") {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    if text.lines().any(|l| l.trim() == "% ==") {
                        out.push(p);
                    }
                }
            }
        }
    }
    out.sort();
    out
}

/// What one run of a program produced.
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
}

/// Runs `blazar run FILE --device BACKEND [--threads N]` with the spec's options.
pub fn run_program(
    blazar: &Path,
    file: &Path,
    backend: &str,
    threads: Option<usize>,
    spec: &Spec,
) -> std::io::Result<Outcome> {
    let mut cmd = Command::new(blazar);
    cmd.arg("run").arg(file).arg("--device").arg(backend);
    if let Some(n) = threads {
        cmd.arg("--threads").arg(n.to_string());
        // The CPU's two tiers: the interpreter on 1 thread, native code on 2.
        if backend == "cpu" {
            cmd.arg("--cpu-tier")
                .arg(if n == 1 { "interp" } else { "native" });
        }
    }
    let out = cmd
        .args(&spec.options)
        .env("RUST_BACKTRACE", "0")
        .output()?;
    Ok(Outcome {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        success: out.status.success(),
    })
}

fn normalise(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |e| e + 1);
    lines[start..end].to_vec()
}

/// Checks an outcome against a spec; `Err` explains the difference.
pub fn check_outcome(spec: &Spec, out: &Outcome) -> Result<(), String> {
    if out.stderr.contains("internal error") || out.stderr.contains("panicked") {
        return Err(format!("blazar crashed:\n{}", out.stderr));
    }
    if let Some(re) = &spec.error {
        if out.success {
            return Err(format!(
                "expected an error matching /{re}/ but the program succeeded\nstdout:\n{}",
                out.stdout
            ));
        }
        let re = regex::Regex::new(re).map_err(|e| format!("bad error regex: {e}"))?;
        if !re.is_match(&out.stderr) {
            return Err(format!("stderr does not match /{re}/:\n{}", out.stderr));
        }
    } else if !out.success {
        return Err(format!("the program failed:\n{}", out.stderr));
    }
    if let Some(expected) = &spec.stdout {
        let (want, got) = (normalise(expected), normalise(&out.stdout));
        if want != got {
            return Err(format!(
                "stdout differs\n--- expected\n{}\n--- actual\n{}",
                want.join("\n"),
                got.join("\n")
            ));
        }
    }
    Ok(())
}

/// Rewrites the `stdout { }` case of a program's test block with `actual`.
pub fn bless(file: &Path, actual: &str) -> std::io::Result<()> {
    let text = std::fs::read_to_string(file)?;
    let new = spec::replace_stdout(&text, actual);
    std::fs::write(file, new)
}
