//! Runs every golden program of `tests/programs` under `blazar run --check-races`,
//! and again under `--check-races --schedule random --seed N`.
//!
//! The golden kernels are race-free, so each program must give its expected outcome
//! (output, or its expected error) and no race report, in lock step and with the
//! random schedule's switches between blocks, between the threads of a block and
//! inside statements (the detector follows every work item under way). Programs with
//! blocks (barriers, shared memory) and the kernel-error programs run under
//! [`SEEDS`], the others (block-free kernels, some with a million threads, each a
//! coroutine under this schedule) under the first seed, but for [`TOO_SLOW_FOR_RANDOM`].
//! Programs whose test block leaves the CPU out are skipped.

use blazar_testkit::{check_outcome, find_programs, run_limited, Program, Spec};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The seeds of the random schedule for programs with blocks.
const SEEDS: std::ops::RangeInclusive<u64> = 1..=3;

/// Programs left out under the random schedule, for time: each thread of a kernel
/// without blocks is a coroutine there, and these launch a million threads.
const TOO_SLOW_FOR_RANDOM: &[&str] = &[
    "kernels/large_launches.q",
    "fusion/large_reductions.q",
    "fusion/block_moves.q",
    "kernels/load_phase.q",
];

/// Whether the program's source has a kernel with blocks (barriers, shared memory).
fn blocky(src: &str) -> bool {
    ["syncthreads", "shared(", "shared_zeros("]
        .iter()
        .any(|w| src.contains(w))
}

/// Runs `program` with `extra` options under the detector: its expected outcome, and
/// no race report.
fn check(blazar: &Path, program: &Program, spec: &Spec, extra: &[&str]) -> Result<(), Failed> {
    let mut cmd = Command::new(blazar);
    cmd.arg("run")
        .arg(&program.file)
        .args(["--device", "cpu", "--check-races"])
        .args(extra)
        .args(&spec.options)
        .env("RUST_BACKTRACE", "0");
    let out = run_limited(&mut cmd, Some(Duration::from_secs(600)))?;
    let with = extra.join(" ");
    if out.stderr.contains("data race") {
        return Err(Failed::from(format!(
            "race reported ({with}):\n{}",
            out.stderr
        )));
    }
    check_outcome(spec, &out, "cpu")
        .map_err(|f| Failed::from(format!("{with}: {}\n{}", f.summary, f.detail)))
}

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let blazar = PathBuf::from(env!("CARGO_BIN_EXE_blazar"));
    let mut trials = Vec::new();
    for file in find_programs(&root) {
        let program = std::sync::Arc::new(Program::load(&root, &file));
        let src = std::fs::read_to_string(&file).unwrap_or_default();
        let seeds = if blocky(&src) || program.name.starts_with("kernel_errors/") {
            SEEDS
        } else {
            1..=1
        };
        let (p, b) = (program.clone(), blazar.clone());
        trials.push(Trial::test(program.name.clone(), move || {
            let spec = p
                .spec
                .as_ref()
                .map_err(|e| format!("bad test block: {e}"))?;
            if spec.excludes("cpu").is_some() {
                return Ok(());
            }
            check(&b, &p, spec, &[])
        }));
        if TOO_SLOW_FOR_RANDOM.contains(&program.name.as_str()) {
            continue;
        }
        let (p, b) = (program.clone(), blazar.clone());
        trials.push(Trial::test(format!("random/{}", program.name), move || {
            let spec = p
                .spec
                .as_ref()
                .map_err(|e| format!("bad test block: {e}"))?;
            if spec.excludes("cpu").is_some() {
                return Ok(());
            }
            for seed in seeds.clone() {
                let seed = seed.to_string();
                check(&b, &p, spec, &["--schedule", "random", "--seed", &seed])?;
            }
            Ok(())
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
