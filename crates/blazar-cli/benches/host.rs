//! Host-interpreter benchmarks: each program of `benches/host/*.q` against its Python
//! twin (`*.py`, CPython or NumPy), run as whole processes in the same session.
//!
//! Prints the median of several runs of each side and the ratio (Blazar / reference).
//! Run with `cargo bench -p blazar-cli --bench host`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const RUNS: usize = 7;

fn median_ms(mut cmd: impl FnMut() -> Command) -> Option<f64> {
    let mut times = Vec::new();
    for _ in 0..RUNS {
        let start = Instant::now();
        let out = cmd().output().ok()?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        if !out.status.success() {
            eprintln!(
                "  failed: {}",
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .next()
                    .unwrap_or("")
            );
            return None;
        }
        times.push(ms);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    Some(times[RUNS / 2])
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benches/host");
    let blazar = PathBuf::from(env!("CARGO_BIN_EXE_blazar"));
    let mut progs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "q"))
                .collect()
        })
        .unwrap_or_default();
    progs.sort();
    println!(
        "{:<16} {:>12} {:>14} {:>8}",
        "workload", "blazar ms", "python ms", "ratio"
    );
    for q in progs {
        let name = q
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let py = q.with_extension("py");
        let ours = median_ms(|| {
            let mut c = Command::new(&blazar);
            c.arg("run").arg(&q);
            c
        });
        let theirs = if Path::new(&py).exists() {
            median_ms(|| {
                let mut c = Command::new("python3");
                c.arg(&py);
                c
            })
        } else {
            None
        };
        let fmt = |v: Option<f64>| v.map_or("n/a".to_string(), |x| format!("{x:.1}"));
        let ratio = match (ours, theirs) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "n/a".into(),
        };
        println!(
            "{:<16} {:>12} {:>14} {:>8}",
            name,
            fmt(ours),
            fmt(theirs),
            ratio
        );
    }
}
