//! Runs every golden program of `tests/programs` on every available backend.
//!
//! Each (program, backend) pair is one test; the CPU backend runs every program on 1
//! and on 2 threads, so results must not depend on the number of cores. Backends that
//! are not available here are listed as skipped at the start, never counted as passes.
//! `blazar test` runs the same cases through the same code (`blazar_testkit`).

use blazar_testkit::{
    find_programs, probe_backend, run_case, thread_counts, Probe, Program, Verdict, ALL_BACKENDS,
};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::PathBuf;

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let blazar = PathBuf::from(env!("CARGO_BIN_EXE_blazar"));
    let tmp = std::env::temp_dir();
    let mut backends = Vec::new();
    for b in ALL_BACKENDS {
        match probe_backend(&blazar, b, &tmp) {
            Probe::Unavailable(why) => println!("SKIP backend {b}: {why}"),
            Probe::Broken(why) => {
                println!("note: backend {b} failed its probe ({why}); its tests run anyway");
                backends.push(*b);
            }
            Probe::Available => backends.push(*b),
        }
    }
    let mut trials = Vec::new();
    for file in find_programs(&root) {
        let program = Program::load(&root, &file);
        for backend in &backends {
            if let Ok(s) = &program.spec {
                if s.excludes(backend).is_some() {
                    continue;
                }
            }
            let (program, blazar) = (program.clone(), blazar.clone());
            let backend = backend.to_string();
            let name = format!("{} [{backend}]", program.name);
            trials.push(Trial::test(name, move || {
                let threads = thread_counts(&backend, None);
                let spec = &program.spec;
                match run_case(&blazar, &program.file, spec, &backend, &threads, None) {
                    Verdict::Pass => Ok(()),
                    Verdict::Fail(f) => Err(Failed::from(f.to_string())),
                    // Excluded backends were left out above; a skip here is a bug.
                    Verdict::Skip(why) => Err(Failed::from(format!("skipped: {why}"))),
                }
            }));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
