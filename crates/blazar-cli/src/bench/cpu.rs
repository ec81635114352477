//! `blazar bench --device cpu`: the workloads of `benches/cpu/` on the CPU executor
//! against their C/OpenMP references (`reference.c`), compiled at bench time with
//! `cc -O3 -fopenmp -march=native` (`$CC` picks another compiler).

use super::child::{first_error, measure};
use super::report::{header, summary, table_line, to_json, Row, Side};
use super::{read_head, short, workload_name, Outcome, Setup};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

pub(super) fn run(s: &Setup) -> Outcome {
    let cc = if s.args.no_reference {
        Err("skipped (--no-reference)".to_string())
    } else {
        probe_cc(&s.tmp)
    };
    if let Err(why) = &cc {
        (s.say)(&format!("note: C references {why}"));
    }
    (s.say)(&header());
    let mut rows = Vec::new();
    for w in &s.workloads {
        let name = workload_name(w);
        let kernel = w.join("kernel.q");
        let bytes = read_head(&kernel).bytes;
        let mut run = Command::new(&s.exe);
        // Native code from the first launch (under `auto` the first launches run on the
        // interpreter while the compiler works in the background).
        run.arg("run")
            .args(["--device", "cpu", "--cpu-tier", "native"]);
        if let Some(n) = s.args.threads {
            run.arg("--threads").arg(n.to_string());
        }
        run.arg(&kernel);
        threads_env(&mut run, s.args.threads);
        let ours = measure(&mut run, s.limit);
        let theirs = match &cc {
            Err(why) => Side {
                note: Some(short(why)),
                ..Side::default()
            },
            Ok(cc) => reference(
                cc,
                &w.join("reference.c"),
                &s.tmp.join(&name),
                s.args.threads,
                s.limit,
            ),
        };
        let row = Row {
            name,
            bytes,
            ours,
            theirs,
        };
        (s.say)(&table_line(&row));
        rows.push(row);
    }
    summary(&rows, s.say);
    let failed = rows
        .iter()
        .any(|r| r.ours.ms.is_none() || r.checksum_ok() == Some(false));
    Outcome {
        json: to_json(&rows),
        failed,
    }
}

fn threads_env(cmd: &mut Command, threads: Option<usize>) {
    if let Some(n) = threads {
        cmd.env("RAYON_NUM_THREADS", n.to_string())
            .env("OMP_NUM_THREADS", n.to_string());
    }
}

/// The C compiler (`$CC` or `cc`), once it has built an OpenMP program.
fn probe_cc(tmp: &Path) -> Result<String, String> {
    let cc = std::env::var("CC")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| "cc".into());
    std::fs::create_dir_all(tmp)
        .map_err(|e| format!("skipped (cannot create {}: {e})", tmp.display()))?;
    let src = tmp.join("probe.c");
    std::fs::write(
        &src,
        "#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n",
    )
    .map_err(|e| format!("skipped (cannot write {}: {e})", src.display()))?;
    match compile(&cc, &src, &tmp.join("probe")) {
        Ok(()) => Ok(cc),
        Err(e) if e.contains("cannot start") => Err(format!("skipped: no C compiler (`{cc}` {e})")),
        Err(e) => Err(format!(
            "skipped: `{cc}` cannot build OpenMP programs ({e})"
        )),
    }
}

fn compile(cc: &str, src: &Path, exe: &Path) -> Result<(), String> {
    let out = Command::new(cc)
        .args(["-O3", "-fopenmp", "-march=native", "-o"])
        .arg(exe)
        .arg(src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot start: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(first_error(&String::from_utf8_lossy(&out.stderr)))
}

/// Compiles and runs one reference.
fn reference(cc: &str, src: &Path, exe: &Path, threads: Option<usize>, limit: Duration) -> Side {
    if !src.is_file() {
        return Side {
            note: Some("no reference.c".into()),
            ..Side::default()
        };
    }
    if let Err(e) = compile(cc, src, exe) {
        eprintln!("  {}: compile failed: {e}", src.display());
        return Side {
            note: Some("compile failed".into()),
            ..Side::default()
        };
    }
    let mut cmd = Command::new(exe);
    threads_env(&mut cmd, threads);
    measure(&mut cmd, limit)
}
