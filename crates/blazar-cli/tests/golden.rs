//! Runs every golden program of `tests/programs` on every available backend.
//!
//! Each program is one test that runs on every backend in turn (the test block's
//! `backends {}` may leave some out); the CPU backend runs every program on 1 and on 2
//! threads, so results must not depend on the number of cores. Backends that
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
    // One test per program, its backends one after another: programs may write files
    // next to themselves, so two backends of one program never run at once.
    let mut trials = Vec::new();
    for file in find_programs(&root) {
        let program = Program::load(&root, &file);
        let (blazar, backends) = (blazar.clone(), backends.clone());
        let name = format!("{} [{}]", program.name, backends.join(", "));
        // A program that needs a tool not installed here is a visible SKIP.
        let missing = program.spec.as_ref().ok().and_then(|s| s.missing());
        if let Some(why) = &missing {
            println!("SKIP {}: {why}", program.name);
        }
        trials.push(
            Trial::test(name, move || {
                for backend in &backends {
                    let threads = thread_counts(backend, None);
                    let spec = &program.spec;
                    match run_case(&blazar, &program.file, spec, backend, &threads, None) {
                        Verdict::Pass | Verdict::Skip(_) => {}
                        Verdict::Fail(f) => return Err(Failed::from(format!("[{backend}] {f}"))),
                    }
                }
                Ok(())
            })
            .with_ignored_flag(missing.is_some()),
        );
    }
    libtest_mimic::run(&args, trials).exit();
}
