//! `blazar bench --suite loops`: plain `for` loops of host code (`benches/loops/`), which
//! the loop parallelizer runs as kernels, against the hand-written kernel doing the same
//! work, in the same run and on the same device.
//!
//! Each pattern is a folder with a `prog.q` (the loop as a user writes it) and a
//! `kernel.q` (the `parallel_do` kernel, or the builtin, a user would write instead).
//! Both follow the protocol of the other suites (`rep:` lines, a `checksum:` line) and
//! take their sizes from the lines marked `% bench: size`, as `--suite arrays` does.

use super::arrays::{blazar, copy_shared, sized_program, Sizes};
use super::arrays_report::{header, summary, table_line, to_json, ArrayRow};
use super::report::Side;
use super::{read_head, short, workload_name, Outcome, Setup};
use crate::cli::Device;

pub(super) fn run(s: &Setup) -> Outcome {
    let cuda = s.args.device == Device::Cuda;
    let device = if cuda { "cuda" } else { "cpu" };
    let sizes = Sizes::new(cuda, s.args.size);
    (s.say)(&format!(
        "loops on {device}: images {}x{}x{}, {} repetitions; peer: the hand-written kernel",
        sizes.m, sizes.n, sizes.c, sizes.reps
    ));
    let work = s.tmp.join("loops");
    if let Err(e) = copy_shared(&s.dir, &work) {
        (s.say)(&format!("note: cannot copy the shared programs: {e}"));
    }
    (s.say)(&header("kernel", false));
    let mut rows = Vec::new();
    for w in &s.workloads {
        let name = workload_name(w);
        let side = |file: &str| {
            let dest = work.join(&name).join(file);
            match sized_program(&w.join(file), &dest, &sizes) {
                Ok(path) => blazar(s, device, &path),
                Err(e) => Side {
                    note: Some(short(&e)),
                    ..Side::default()
                },
            }
        };
        let row = ArrayRow {
            name: name.clone(),
            statement: read_head(&w.join("prog.q")).statement,
            first: None,
            ours: side("prog.q"),
            theirs: side("kernel.q"),
        };
        (s.say)(&table_line(&row));
        for line in row.ours.extra.iter().chain(&row.theirs.extra) {
            (s.say)(&format!("  {}: blazar said: {line}", row.name));
        }
        rows.push(row);
    }
    summary(&rows, "kernel", s.say);
    let failed = rows
        .iter()
        .any(|r| r.ours.ms.is_none() || r.theirs.ms.is_none() || r.checksum_ok() == Some(false));
    Outcome {
        json: to_json(&rows, device, Some("kernel"), &sizes),
        failed,
    }
}
