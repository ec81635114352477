//! `blazar bench --device cuda`: the workloads of `benches/cuda/` on an NVIDIA GPU
//! against hand-written CUDA C (`reference.cu`, built at bench time with
//! `nvcc -O3 -arch=sm_90`, plus the flags of a `// nvcc-flags:` line; `$NVCC` picks
//! another nvcc) and CuPy (`reference_cupy.py`,
//! run with `python3`, `$PYTHON` picks another, where CuPy has the operation).
//!
//! The device-to-device copy bandwidth (`copy/reference.cu`) is measured first, in the
//! same run, as the ceiling of the memory-bound workloads. The Blazar child runs with
//! `BLAZAR_STATS=1` so that it reports on stderr how many kernels it compiled and how
//! long that took (never part of the timed repetitions), or whether they all came from
//! the cache. A missing nvcc or CuPy skips those references with a visible note.

use super::arrays::probe_module;
use super::child::{first_error, measure, parse_output, run_limited};
use super::cuda_report::{copy_line, header, summary, table_line, to_json, CopyCeiling, CudaRow};
use super::report::Side;
use super::{read_head, short, workload_name, Outcome, Setup};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// What every reference and the copy are compiled with, besides `-o BIN SRC`.
const NVCC_FLAGS: &[&str] = &["-O3", "-arch=sm_90"];

/// How many opening lines of a `reference.cu` may hold its `// nvcc-flags:` line.
const FLAGS_LINES: usize = 20;

/// The extra nvcc flags of a reference: the words after `// nvcc-flags:` on the first
/// such line among its first [`FLAGS_LINES`] lines (`-lcublas`, say), appended to the
/// command after the source file; empty without such a line.
fn extra_nvcc_flags(src: &str) -> Vec<String> {
    src.lines()
        .take(FLAGS_LINES)
        .find_map(|l| {
            let rest = l.trim().strip_prefix("//")?.trim_start();
            rest.strip_prefix("nvcc-flags:")
        })
        .map(|flags| flags.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

pub(super) fn run(s: &Setup) -> Outcome {
    if let Err(e) = std::fs::create_dir_all(&s.tmp) {
        (s.say)(&format!("note: cannot create {}: {e}", s.tmp.display()));
    }
    if s.args.threads.is_some() {
        (s.say)("note: --threads is ignored with --device cuda");
    }
    let nvcc = probe_nvcc();
    let cuda_refs = match (&nvcc, s.args.no_reference) {
        (_, true) => Err("skipped (--no-reference)".to_string()),
        (Err(why), false) => Err(why.clone()),
        (Ok(n), false) => Ok(n.clone()),
    };
    if let Err(why) = &cuda_refs {
        (s.say)(&format!("note: CUDA C references {why}"));
    }
    let python = if s.args.no_reference {
        Err("skipped (--no-reference)".to_string())
    } else {
        probe_module("cupy")
    };
    if let Err(why) = &python {
        (s.say)(&format!("note: CuPy references {why}"));
    }
    let copy = match &nvcc {
        Ok(nvcc) => measure_copy(nvcc, &s.dir.join("copy"), &s.tmp, s.limit),
        Err(_) => CopyCeiling {
            note: Some("not measured (it needs nvcc)".into()),
            ..CopyCeiling::default()
        },
    };
    (s.say)(&copy_line(&copy));
    (s.say)(&header());
    let mut rows = Vec::new();
    for w in &s.workloads {
        let name = workload_name(w);
        let kernel = w.join("kernel.q");
        let head = read_head(&kernel);
        let mut run = Command::new(&s.exe);
        // One GPU against one GPU's CUDA C (the default would use every GPU).
        run.args(["run", "--device", "cuda", "--devices", "0"])
            .arg(&kernel)
            .env("BLAZAR_STATS", "1");
        let ours = measure(&mut run, s.limit);
        let cuda = match &cuda_refs {
            Err(why) => skipped(why),
            Ok(nvcc) => cuda_reference(nvcc, &w.join("reference.cu"), &s.tmp.join(&name), s.limit),
        };
        let script = w.join("reference_cupy.py");
        let cupy = script.is_file().then(|| match &python {
            Err(why) => skipped(why),
            Ok(python) => measure(Command::new(python).arg(&script), s.limit),
        });
        let row = CudaRow {
            name,
            bytes: head.bytes,
            compute_bound: head.compute_bound,
            ours,
            cuda,
            cupy,
        };
        (s.say)(&table_line(&row, copy.gbps()));
        for line in &row.ours.extra {
            (s.say)(&format!("  {}: blazar said: {line}", row.name));
        }
        rows.push(row);
    }
    summary(&rows, &copy, s.say);
    let failed = rows
        .iter()
        .any(|r| r.ours.ms.is_none() || !r.mismatches().is_empty());
    Outcome {
        json: to_json(&rows, &copy),
        failed,
    }
}

fn skipped(why: &str) -> Side {
    Side {
        note: Some(short(why)),
        ..Side::default()
    }
}

/// `$NVCC` or `nvcc`, once `--version` has run.
fn probe_nvcc() -> Result<String, String> {
    let nvcc = std::env::var("NVCC")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| "nvcc".into());
    match Command::new(&nvcc).arg("--version").output() {
        Ok(out) if out.status.success() => Ok(nvcc),
        Ok(_) => Err(format!("skipped: `{nvcc} --version` failed")),
        Err(e) => Err(format!("skipped: no nvcc (`{nvcc}` cannot start: {e})")),
    }
}

fn nvcc_compile(nvcc: &str, src: &Path, exe: &Path) -> Result<(), String> {
    let extra = std::fs::read_to_string(src)
        .map(|text| extra_nvcc_flags(&text))
        .unwrap_or_default();
    let out = Command::new(nvcc)
        .args(NVCC_FLAGS)
        .arg("-o")
        .arg(exe)
        .arg(src)
        .args(&extra)
        .output()
        .map_err(|e| format!("cannot start: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stdout));
        Err(first_error(&text))
    }
}

/// Compiles and runs one CUDA C reference.
fn cuda_reference(nvcc: &str, src: &Path, exe: &Path, limit: Duration) -> Side {
    if !src.is_file() {
        return skipped("no reference.cu");
    }
    if let Err(e) = nvcc_compile(nvcc, src, exe) {
        eprintln!("  {}: compile failed: {e}", src.display());
        return skipped("build failed");
    }
    measure(&mut Command::new(exe), limit)
}

/// Compiles and runs `copy/reference.cu`: `rep:` lines, `bytes: N`, `method: ...`.
fn measure_copy(nvcc: &str, dir: &Path, tmp: &Path, limit: Duration) -> CopyCeiling {
    let src = dir.join("reference.cu");
    let failed = |why: String| CopyCeiling {
        note: Some(why),
        ..CopyCeiling::default()
    };
    if !src.is_file() {
        return failed(format!("not measured: no {}", src.display()));
    }
    let exe = tmp.join("copy");
    if let Err(e) = nvcc_compile(nvcc, &src, &exe) {
        return failed(format!(
            "not measured: {} does not compile: {e}",
            src.display()
        ));
    }
    match run_limited(&mut Command::new(&exe), limit) {
        Err(e) => failed(format!("not measured: {e}")),
        Ok(out) if !out.success => failed(format!(
            "not measured: the copy program failed ({})",
            first_error(&out.stderr)
        )),
        Ok(out) => CopyCeiling::from_output(&out.stdout, parse_output(&out)),
    }
}

#[cfg(test)]
mod tests {
    use super::extra_nvcc_flags;

    #[test]
    fn reads_nvcc_flags_line() {
        let src = "// nvcc-flags: -lcublas  -lcurand\n#include <cstdio>\n";
        assert_eq!(extra_nvcc_flags(src), ["-lcublas", "-lcurand"]);
        let later = "// a comment\n  //nvcc-flags:\t-lcublas\n// nvcc-flags: -lx\n";
        assert_eq!(extra_nvcc_flags(later), ["-lcublas"]);
        assert!(extra_nvcc_flags("// nvcc-flags:\nint main() {}\n").is_empty());
    }

    #[test]
    fn ignores_missing_or_late_flags() {
        assert!(extra_nvcc_flags("#include <cstdio>\nint main() {}\n").is_empty());
        assert!(extra_nvcc_flags("").is_empty());
        assert!(extra_nvcc_flags("int x; // nvcc-flags: -lcublas\n").is_empty());
        let late = format!("{}// nvcc-flags: -lcublas\n", "//\n".repeat(20));
        assert!(extra_nvcc_flags(&late).is_empty());
        let last = format!("{}// nvcc-flags: -lcublas\n", "//\n".repeat(19));
        assert_eq!(extra_nvcc_flags(&last), ["-lcublas"]);
    }
}
