//! Runs every golden program of `tests/programs` under `blazar run --check-races`.
//!
//! The golden kernels are race-free, so each program must give its expected outcome
//! (output, or its expected error) and no race report. Programs whose test block
//! leaves the CPU out are skipped.

use blazar_testkit::{check_outcome, find_programs, run_limited, Program};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let blazar = PathBuf::from(env!("CARGO_BIN_EXE_blazar"));
    let mut trials = Vec::new();
    for file in find_programs(&root) {
        let program = Program::load(&root, &file);
        let blazar = blazar.clone();
        trials.push(Trial::test(program.name.clone(), move || {
            let spec = program
                .spec
                .as_ref()
                .map_err(|e| format!("bad test block: {e}"))?;
            if spec.excludes("cpu").is_some() {
                return Ok(());
            }
            let mut cmd = Command::new(&blazar);
            cmd.arg("run")
                .arg(&program.file)
                .args(["--device", "cpu", "--check-races"])
                .args(&spec.options)
                .env("RUST_BACKTRACE", "0");
            let out = run_limited(&mut cmd, Some(Duration::from_secs(600)))?;
            if out.stderr.contains("data race") {
                return Err(Failed::from(format!("race reported:\n{}", out.stderr)));
            }
            check_outcome(spec, &out, "cpu")
                .map_err(|f| Failed::from(format!("{}\n{}", f.summary, f.detail)))
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
