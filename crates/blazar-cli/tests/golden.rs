//! Runs every golden program of `tests/programs` on every available backend.
//!
//! Each (program, backend) pair is one test; the CPU backend runs every program on 1
//! and on 2 threads, so results must not depend on the number of cores. Backends this
//! build does not have are listed as skipped at the start, never counted as passes.

use blazar_testkit::{
    available_backends, check_outcome, find_programs, parse_spec, run_program, ALL_BACKENDS,
};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let blazar = PathBuf::from(env!("CARGO_BIN_EXE_blazar"));
    let have = available_backends();
    for b in ALL_BACKENDS.iter().filter(|b| !have.contains(b)) {
        println!("SKIP backend {b}: not available in this build or on this machine");
    }
    let mut trials = Vec::new();
    for file in find_programs(&root) {
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let spec = parse_spec(&text);
        for backend in &have {
            if let Ok(s) = &spec {
                if !s.backends.is_empty() && !s.backends.iter().any(|b| b == backend) {
                    continue;
                }
            }
            // The CPU runs each program on 1 and then on 2 threads, one after the other
            // (programs may write files next to themselves).
            let thread_counts: Vec<Option<usize>> = if *backend == "cpu" {
                vec![Some(1), Some(2)]
            } else {
                vec![None]
            };
            let (file, blazar) = (file.clone(), blazar.clone());
            let spec = spec.as_ref().map_err(|e| e.to_string()).cloned();
            let backend = backend.to_string();
            trials.push(Trial::test(format!("{name} [{backend}]"), move || {
                let spec = spec.map_err(Failed::from)?;
                for threads in thread_counts {
                    let out = run_program(&blazar, &file, &backend, threads, &spec)
                        .map_err(|e| Failed::from(e.to_string()))?;
                    check_outcome(&spec, &out).map_err(|e| match threads {
                        Some(n) => Failed::from(format!("on {n} thread(s): {e}")),
                        None => Failed::from(e),
                    })?;
                }
                Ok(())
            }));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
