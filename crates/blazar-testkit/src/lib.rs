//! The golden-test runner: test blocks in Quasar comments, run on every backend.
//!
//! A golden program is an ordinary `.q` file with one comment block:
//!
//! ```text
//! % What this program checks.
//! % ==
//! % stdout { [ [2,4],
//! %            [6,8] ] }
//! % tolerance { 1e-4 }
//! ```
//!
//! Cases:
//!
//! - `stdout { ... }`: the expected output, compared line by line with surrounding
//!   whitespace and leading/trailing blank lines trimmed.
//! - `error: REGEX`: the run must fail and stderr must match.
//! - `options { --double }`: extra flags for `blazar run`.
//! - `backends { cpu cuda }`: the backends the program runs on (default: all); on the
//!   others it is a SKIP.
//! - `tags { ... }`: free words.
//! - `tolerance { T }`, `tolerance { cuda T }`, `tolerance { T cuda T2 }`: compare the
//!   numbers of `stdout` within relative tolerance `T` (on every backend, or only on the
//!   one named; a named entry wins over the general one); the text between numbers
//!   stays exact. Numbers `a` (expected) and `b` agree when
//!   `|a - b| <= T * max(|a|, |b|, 1)`, so `T` is also the absolute floor near 0. Without
//!   this case the comparison is exact. See [`compare`].
//!
//! Braces nest, so expected output may itself contain `{ }`.
//!
//! Each program runs as a child `blazar run` process ([`run_program`], checked by
//! [`check_outcome`]); [`run_case`] runs one program on one backend (the CPU on 1 and 2
//! threads, one after the other) and gives a [`Verdict`]. `tests/golden.rs` (under
//! `cargo test`) and `blazar test` (where there is no Rust toolchain) share all of it.
//! A backend that is not available here ([`probe_backend`]) is a visible SKIP, never a
//! pass.

pub mod compare;
mod run;
mod spec;
mod suite;

pub use run::{check_outcome, run_limited, run_program, Failure, Outcome, EXIT_UNAVAILABLE};
pub use spec::{parse_spec, Spec, SpecError};
pub use suite::{probe_backend, run_case, thread_counts, Probe, Tally, Verdict};

use std::path::{Path, PathBuf};

/// The backends a program can run on. `nvrtc` is the CPU executor with every kernel
/// specialisation also compiled by NVRTC (`blazar run --check-cuda`) and every
/// whole-array expression fused into a kernel: code generation checked without a GPU.
/// `jit` is the CPU with kernels on the JIT tier (`--cpu-tier jit`, 2 threads).
/// `host` is the CPU with the compiled host tier forced on (`--host-tier compiled`):
/// every host loop it accepts runs as a serial kernel from its first iteration.
/// `sim2` and `sim3` run every whole-array expression as a kernel over 2 or 3 simulated
/// devices (`--devices sim:N`, CPU executors with memories of their own): a copy
/// between devices that the placement forgets is a wrong answer there. `cuda` runs on
/// GPU 0 alone (`--devices 0`: the single-GPU path, whatever the host has); `cuda2` over
/// every GPU (`--devices all`, the default of `--device cuda` on a host with several,
/// with every whole-array expression a kernel); it is unavailable with fewer than two.
pub const ALL_BACKENDS: &[&str] = &[
    "cpu", "jit", "host", "nvrtc", "sim2", "sim3", "cuda", "cuda2",
];

/// The `blazar run` arguments that select `backend`.
pub fn backend_args(backend: &str) -> Vec<&str> {
    match backend {
        // The interpreter (the oracle) on 2 threads, with every kernel also compiled by
        // NVRTC: with `cpu` (interpreter on 1 thread, native on 2) each program runs
        // on both tiers and both thread counts. Every whole-array expression runs as a
        // fused kernel here (`--fuse-min 0`), so each program's array statements are
        // checked as kernels against the host's (`cpu`) expectations too.
        "nvrtc" => vec![
            "--device",
            "cpu",
            "--check-cuda",
            "--cpu-tier",
            "interp",
            "--fuse-min",
            "0",
        ],
        // The JIT tier wherever it takes a kernel (the interpreter elsewhere).
        "jit" => vec!["--device", "cpu", "--cpu-tier", "jit"],
        // Serial host loops as kernels on the SIMT interpreter (the oracle of kernel
        // semantics), checked against the host interpreter's expectations.
        "host" => vec![
            "--device",
            "cpu",
            "--cpu-tier",
            "interp",
            "--host-tier",
            "compiled",
        ],
        "sim2" | "sim3" => vec![
            "--device",
            "cpu",
            "--devices",
            if backend == "sim2" { "sim:2" } else { "sim:3" },
            "--cpu-tier",
            "jit",
            "--fuse-min",
            "0",
        ],
        "cuda" => vec!["--device", "cuda", "--devices", "0"],
        "cuda2" => vec!["--device", "cuda", "--devices", "all", "--fuse-min", "0"],
        b => vec!["--device", b],
    }
}

/// The `blazar run` arguments that find whether `backend` is available: its own, except
/// for `cuda2`, whose `--devices all` runs on one GPU where there is one: its probe names
/// GPU 1, so that it is unavailable (exit status 69) on a host with fewer than two.
pub fn probe_args(backend: &str) -> Vec<&str> {
    match backend {
        "cuda2" => vec!["--device", "cuda", "--devices", "0,1"],
        b => backend_args(b),
    }
}

/// The device whose results `backend` produces, as named in test blocks
/// (`backends {}`, `tolerance {}`): `nvrtc`, `jit`, `host` and the simulated devices
/// run on the CPU.
pub fn results_of(backend: &str) -> &str {
    match backend {
        "nvrtc" | "jit" | "host" | "sim2" | "sim3" => "cpu",
        "cuda2" => "cuda",
        b => b,
    }
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
                // Programs need not be UTF-8 (Blazar reads them as Windows-1252 then).
                if let Ok(text) =
                    std::fs::read(&p).map(|b| String::from_utf8_lossy(&b).into_owned())
                {
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

/// `tests/programs` in `start` or the nearest ancestor that has one.
pub fn find_programs_dir(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|a| a.join("tests").join("programs"))
        .find(|p| p.is_dir())
}

/// A golden program, ready to run: its file, the name it is reported by, and its
/// test block (or why that could not be read).
#[derive(Clone, Debug)]
pub struct Program {
    pub file: PathBuf,
    pub name: String,
    pub spec: Result<Spec, String>,
}

impl Program {
    /// Reads `file`, naming it by its path under `root`.
    pub fn load(root: &Path, file: &Path) -> Program {
        let name = file
            .strip_prefix(root)
            .ok()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(file)
            .display()
            .to_string();
        let spec = std::fs::read(file)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| format!("cannot read {}: {e}", file.display()))
            .and_then(|text| parse_spec(&text).map_err(|e| e.to_string()));
        Program {
            file: file.to_path_buf(),
            name,
            spec,
        }
    }
}

/// Rewrites the `stdout { }` case of a program's test block with `actual`.
pub fn bless(file: &Path, actual: &str) -> std::io::Result<()> {
    let text = std::fs::read_to_string(file)?;
    let new = spec::replace_stdout(&text, actual);
    std::fs::write(file, new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_and_names_the_golden_programs() {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
        let found = find_programs(&root);
        assert!(found.len() > 100, "only {} programs", found.len());
        let p = Program::load(&root, &found[0]);
        assert!(
            !p.name.starts_with('/') && p.name.ends_with(".q"),
            "{}",
            p.name
        );
        assert!(p.spec.is_ok(), "{:?}", p.spec);
        let dir = find_programs_dir(&root.join("kernels")).unwrap();
        assert!(dir.ends_with("tests/programs"), "{}", dir.display());
        let missing = Program::load(&root, &root.join("no_such_program.q"));
        assert!(missing.spec.unwrap_err().starts_with("cannot read"));
    }
}
