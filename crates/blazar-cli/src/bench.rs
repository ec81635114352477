//! `blazar bench`: the CPU workloads of `benches/cpu/` against their C/OpenMP references.
//!
//! Each workload is a folder with `kernel.q` and `reference.c`. Both programs set up their
//! data, run the computation once to warm up (Blazar specialises its kernels on the first
//! launch), then time several repetitions and print one `rep: <ms> ms` line per repetition
//! and one `checksum: <value>` line. The Quasar program runs in a child process of this
//! executable (`blazar run`), the reference is compiled with `cc -O3 -fopenmp -march=native`
//! and run next to it. We report the median repetition of each side, their ratio, the
//! achieved bandwidth (`% bytes: N` in the head comment of `kernel.q`: bytes read and
//! written per repetition) and whether the checksums agree (relative tolerance 1e-3).
//! The protocol is described in `benches/README.md`.

mod report;

use crate::cli::Device;
use clap::Args;
use report::{header, median, summary, table_line, to_json, Row, Side};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Where the kernels run (only `cpu` for now).
    #[arg(long, value_enum, default_value_t = Device::Cpu)]
    pub device: Device,
    /// Also write the results as JSON to FILE (`-` for stdout; the table then goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Run only the workloads whose name contains NAME.
    #[arg(long, value_name = "NAME")]
    pub filter: Option<String>,
    /// Worker threads for both sides (sets RAYON_NUM_THREADS and OMP_NUM_THREADS).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// The workload folder (default: `benches/cpu` in the current directory or above).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Skip the C references.
    #[arg(long)]
    pub no_reference: bool,
    /// Seconds one program may run before it is stopped.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    pub timeout: u64,
}

pub fn main(args: BenchArgs) -> ExitCode {
    if args.device == Device::Cuda {
        eprintln!("blazar: error: the CUDA backend is not available yet; use --device cpu");
        return ExitCode::from(2);
    }
    let dir = match args.dir.clone().or_else(find_bench_dir) {
        Some(d) if d.is_dir() => d,
        Some(d) => {
            eprintln!("blazar: error: no workload folder at {}", d.display());
            return ExitCode::from(2);
        }
        None => {
            eprintln!("blazar: error: cannot find `benches/cpu` here or above; pass --dir");
            return ExitCode::from(2);
        }
    };
    let workloads = match list_workloads(&dir, args.filter.as_deref()) {
        Ok(w) if w.is_empty() => {
            eprintln!("blazar: error: no workload in {} matches", dir.display());
            return ExitCode::from(2);
        }
        Ok(w) => w,
        Err(e) => {
            eprintln!("blazar: error: cannot read {}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("blazar: error: cannot find the blazar executable: {e}");
            return ExitCode::from(2);
        }
    };
    let to_stderr = args.json.as_deref() == Some("-");
    let say = |line: &str| {
        if to_stderr {
            eprintln!("{line}")
        } else {
            println!("{line}")
        }
    };
    let tmp = std::env::temp_dir().join(format!("blazar-bench-{}", std::process::id()));
    let cc = if args.no_reference {
        Err("skipped (--no-reference)".to_string())
    } else {
        probe_cc(&tmp)
    };
    if let Err(why) = &cc {
        say(&format!("note: C references {why}"));
    }
    let limit = Duration::from_secs(args.timeout.max(1));
    say(&header());
    let mut rows = Vec::new();
    for w in &workloads {
        let name = w
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let kernel = w.join("kernel.q");
        let bytes = read_bytes(&kernel);
        let mut run = Command::new(&exe);
        run.arg("run").arg("--device").arg("cpu");
        if let Some(n) = args.threads {
            run.arg("--threads").arg(n.to_string());
        }
        run.arg(&kernel);
        threads_env(&mut run, args.threads);
        let ours = measure(&mut run, limit);
        let theirs = match &cc {
            Err(why) => Side {
                note: Some(short(why)),
                ..Side::default()
            },
            Ok(cc) => reference(
                cc,
                &w.join("reference.c"),
                &tmp.join(&name),
                args.threads,
                limit,
            ),
        };
        let row = Row {
            name,
            bytes,
            ours,
            theirs,
        };
        say(&table_line(&row));
        rows.push(row);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    summary(&rows, &say);
    if let Some(path) = &args.json {
        let text = to_json(&rows);
        let written = if path == "-" {
            println!("{text}");
            Ok(())
        } else {
            std::fs::write(path, text + "\n")
        };
        if let Err(e) = written {
            eprintln!("blazar: error: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    let bad = rows
        .iter()
        .any(|r| r.ours.ms.is_none() || r.checksum_ok() == Some(false));
    if bad {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `benches/cpu` in the current directory or the nearest ancestor that has one.
fn find_bench_dir() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .map(|a| a.join("benches").join("cpu"))
        .find(|p| p.is_dir())
}

/// The folders of `dir` holding a `kernel.q`, sorted by name, filtered by substring.
fn list_workloads(dir: &Path, filter: Option<&str>) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("kernel.q").is_file())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            filter.is_none_or(|f| name.contains(f))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// The `% bytes: N` line of the comment block that opens a program.
fn read_bytes(kernel: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(kernel).ok()?;
    text.lines()
        .map(str::trim)
        .take_while(|l| l.starts_with('%'))
        .find_map(|l| {
            l.trim_start_matches('%')
                .trim()
                .strip_prefix("bytes:")?
                .trim()
                .parse()
                .ok()
        })
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
    let err = String::from_utf8_lossy(&out.stderr);
    Err(err
        .lines()
        .find(|l| l.contains("error"))
        .or(err.lines().next())
        .unwrap_or("failed")
        .trim()
        .to_string())
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

/// Runs a program to completion (or the time limit) and reads its `rep:` and
/// `checksum:` lines.
fn measure(cmd: &mut Command, limit: Duration) -> Side {
    let (stdout, stderr, status) = match run_limited(cmd, limit) {
        Ok(r) => r,
        Err(e) => {
            return Side {
                note: Some(e),
                ..Side::default()
            }
        }
    };
    let mut reps = Vec::new();
    let mut checksum = None;
    for line in stdout.lines().map(str::trim) {
        if let Some(ms) = line
            .strip_prefix("rep:")
            .and_then(|r| r.trim().strip_suffix("ms"))
        {
            if let Ok(v) = ms.trim().parse::<f64>() {
                reps.push(v);
            }
        } else if let Some(v) = line.strip_prefix("checksum:") {
            checksum = parse_number(v.trim());
        }
    }
    if !status {
        let why = stderr
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("failed")
            .trim()
            .to_string();
        eprintln!("  {:?} failed: {why}", cmd.get_program());
        return Side {
            note: Some("failed".into()),
            checksum,
            ..Side::default()
        };
    }
    if reps.is_empty() {
        return Side {
            note: Some("no rep: lines".into()),
            checksum,
            ..Side::default()
        };
    }
    if reps.len() < 5 {
        eprintln!(
            "  warning: {:?} printed only {} repetitions (want at least 5)",
            cmd.get_program(),
            reps.len()
        );
    }
    Side {
        ms: Some(median(&mut reps)),
        reps: reps.len(),
        checksum,
        note: None,
    }
}

fn parse_number(s: &str) -> Option<f64> {
    match s {
        "Inf" => Some(f64::INFINITY),
        "-Inf" => Some(f64::NEG_INFINITY),
        _ => s.parse().ok(),
    }
}

/// Runs `cmd`, killing it after `limit`. Returns stdout, stderr and success.
fn run_limited(cmd: &mut Command, limit: Duration) -> Result<(String, String, bool), String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut text);
            }
            text
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("cannot wait: {e}")),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match status {
        Some(s) => Ok((stdout, stderr, s.success())),
        None => Err(format!("timed out after {} s", limit.as_secs())),
    }
}

fn short(s: &str) -> String {
    if s.starts_with("skipped") {
        "skipped".into()
    } else {
        s.chars().take(24).collect()
    }
}
