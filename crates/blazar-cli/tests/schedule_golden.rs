//! Runs the golden programs with shared memory or barriers under the random schedule.
//!
//! `--schedule random --seed N` switches between blocks and between the threads of
//! one block at every shared- or global-memory access (`blazar-cpu`'s `interleave.rs`
//! and `exec/split.rs`). The golden kernels are race-free, so under every seed each
//! program must give its expected outcome (output, or its expected error: the failure
//! of the lowest failing thread, as in lock step). The programs whose kernels have
//! blocks (`syncthreads`, shared memory) and those of `kernel_errors` run, each under
//! [`SEEDS`]; the others (block-free kernels, some with a million threads, each of
//! them a coroutine under this schedule) are left to `race_detector.rs`. Programs
//! whose test block leaves the CPU out are skipped.

use blazar_testkit::{check_outcome, find_programs, run_limited, Program};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// The seeds each program runs under.
const SEEDS: std::ops::RangeInclusive<u64> = 1..=8;

/// Whether the program's source has a kernel with blocks (barriers, shared memory).
fn blocky(src: &str) -> bool {
    ["syncthreads", "shared(", "shared_zeros("]
        .iter()
        .any(|w| src.contains(w))
}

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let blazar = PathBuf::from(env!("CARGO_BIN_EXE_blazar"));
    let mut trials = Vec::new();
    for file in find_programs(&root) {
        let program = Program::load(&root, &file);
        let src = std::fs::read_to_string(&file).unwrap_or_default();
        if !blocky(&src) && !program.name.starts_with("kernel_errors/") {
            continue;
        }
        let blazar = blazar.clone();
        trials.push(Trial::test(program.name.clone(), move || {
            let spec = program
                .spec
                .as_ref()
                .map_err(|e| format!("bad test block: {e}"))?;
            if spec.excludes("cpu").is_some() {
                return Ok(());
            }
            for seed in SEEDS {
                let mut cmd = Command::new(&blazar);
                cmd.arg("run")
                    .arg(&program.file)
                    .args(["--schedule", "random", "--seed", &seed.to_string()])
                    .args(&spec.options)
                    .env("RUST_BACKTRACE", "0");
                let out = run_limited(&mut cmd, Some(Duration::from_secs(600)))?;
                check_outcome(spec, &out, "cpu").map_err(|f| {
                    Failed::from(format!("seed {seed}: {}\n{}", f.summary, f.detail))
                })?;
            }
            Ok(())
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
