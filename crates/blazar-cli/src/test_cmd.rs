//! `blazar test`: the golden suite run by the binary itself, for machines without a
//! Rust toolchain (the GPU machine). Each program runs as a child `blazar run` of this
//! executable and is checked with `blazar_testkit`, the same code `cargo test` uses.
//!
//! Output: one line per program and backend (`PASS name [cpu]`, `FAIL name [cpu]: why`,
//! `SKIP name [cuda]: why`), then, last, `tests: N passed, M failed, K skipped`. The exit
//! status is 1 when a program failed, 2 when no program could be found, and 69
//! (`EX_UNAVAILABLE`) when the device named by `--device cpu|cuda` is not available
//! here, unless `--allow-skip` accepts that (a CI job must not read "every program
//! skipped" as success).

use crate::cli::Device;
use blazar_testkit::{
    find_programs, find_programs_dir, probe_backend, run_case, thread_counts, Probe, Program,
    Tally, Verdict, ALL_BACKENDS,
};
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `println!` that ignores a closed stdout (`blazar test | head`) instead of panicking;
/// the exit status still tells the result.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

#[derive(Args, Debug)]
pub struct TestArgs {
    /// Golden programs, or folders searched for them (default: `tests/programs` in the
    /// current directory or above).
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
    /// Where programs run: `cpu` (on 1 and then 2 threads unless --threads is given),
    /// `cuda`, or `auto` (every backend available here).
    #[arg(long, value_enum, default_value_t = Device::Auto)]
    pub device: Device,
    /// Worker threads for kernels on the CPU (passed to `blazar run --threads`).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Run only the programs whose name contains SUBSTR.
    #[arg(long, value_name = "SUBSTR")]
    pub filter: Option<String>,
    /// Programs run at the same time (default: the number of cores, at most 8).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Seconds one run of a program may take before it is stopped and failed (0: no
    /// limit).
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub timeout: u64,
    /// Also print each failure's expected and actual output and stderr, and timings.
    #[arg(long, short)]
    pub verbose: bool,
    /// With `--device cuda` (or `cpu`): exit 0 when that device is not available here
    /// and every program is skipped (the default is an error, exit status 69).
    #[arg(long)]
    pub allow_skip: bool,
}

pub fn main(args: TestArgs) -> ExitCode {
    match run(&args) {
        Ok((tally, _)) if tally.failed > 0 => ExitCode::FAILURE,
        Ok((_, Some(why))) if !args.allow_skip => {
            eprintln!(
                "blazar: error: --device {} is not available here ({why}); every program \
                 was skipped (pass --allow-skip to accept that)",
                device_name(args.device)
            );
            ExitCode::from(crate::cli::EXIT_UNAVAILABLE)
        }
        Ok(_) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("blazar: error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// The golden programs named by `paths` (files, or folders searched recursively).
fn collect(paths: &[PathBuf], filter: Option<&str>) -> Result<Vec<Program>, String> {
    let mut paths = paths.to_vec();
    if paths.is_empty() {
        let cwd = std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?;
        let dir = find_programs_dir(&cwd).ok_or_else(|| {
            "cannot find `tests/programs` here or above; name the programs to test".to_string()
        })?;
        paths.push(dir);
    }
    let mut programs: Vec<Program> = Vec::new();
    for path in &paths {
        if path.is_dir() {
            let found = find_programs(path);
            programs.extend(found.iter().map(|f| Program::load(path, f)));
        } else if path.is_file() {
            programs.push(Program::load(Path::new(""), path));
        } else {
            return Err(format!("no file or folder at {}", path.display()));
        }
    }
    let mut seen = std::collections::HashSet::new();
    programs.retain(|p| seen.insert(p.file.clone()));
    if let Some(f) = filter {
        programs.retain(|p| p.name.contains(f));
    }
    if programs.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let matching = filter
            .map(|f| format!(" matching `{f}`"))
            .unwrap_or_default();
        return Err(format!(
            "no golden program (a `.q` file with a `% ==` block){matching} in {}",
            shown.join(", ")
        ));
    }
    Ok(programs)
}

fn device_name(d: Device) -> &'static str {
    match d {
        Device::Cpu => "cpu",
        Device::Cuda => "cuda",
        Device::Auto => "auto",
    }
}

/// What one program did on each backend, and how long each took.
type Results = Vec<(&'static str, Verdict, Duration)>;

/// The tally, and why the device that `--device` named is unavailable (if it is).
fn run(args: &TestArgs) -> Result<(Tally, Option<String>), String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the blazar executable: {e}"))?;
    let programs = collect(&args.paths, args.filter.as_deref())?;
    let wanted: &[&'static str] = match args.device {
        Device::Cpu => &["cpu"],
        Device::Cuda => &["cuda", "cuda2"],
        Device::Auto => ALL_BACKENDS,
    };
    let mut tally = Tally::default();
    let mut unavailable = None;
    let mut backends = Vec::new();
    let tmp = std::env::temp_dir();
    for &b in wanted {
        match probe_backend(&exe, b, &tmp) {
            Probe::Available => backends.push(b),
            Probe::Broken(why) => {
                say!("note: {b} failed its probe ({why}); running its programs anyway");
                backends.push(b);
            }
            // Two GPUs are a machine's extra, not what `--device cuda` names.
            Probe::Unavailable(why) if args.device == Device::Auto || b == "cuda2" => {
                say!("SKIP backend {b}: {why}");
            }
            Probe::Unavailable(why) => {
                say!("SKIP all {} programs on {b}: {why}", programs.len());
                if args.verbose {
                    programs.iter().for_each(|p| say!("SKIP {} [{b}]", p.name));
                }
                tally.skipped += programs.len();
                unavailable = Some(why);
            }
        }
    }
    if !backends.is_empty() {
        let jobs = args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(8)));
        let on: Vec<String> = backends
            .iter()
            .map(|b| match thread_counts(b, args.threads).as_slice() {
                [Some(1), Some(2)] => format!("{b} (1 and 2 threads)"),
                [Some(n)] => format!("{b} ({n} threads)"),
                _ => b.to_string(),
            })
            .collect();
        let n = programs.len();
        say!(
            "running {n} program{} on {}, {} at a time",
            if n == 1 { "" } else { "s" },
            on.join(" and "),
            jobs.clamp(1, n)
        );
        run_all(args, &exe, &programs, &backends, jobs.max(1), &mut tally);
    }
    say!("{tally}");
    Ok((tally, unavailable))
}

/// Runs every program on `backends` with `jobs` worker threads, printing results in
/// program order as they arrive.
fn run_all(
    args: &TestArgs,
    exe: &Path,
    programs: &[Program],
    backends: &[&'static str],
    jobs: usize,
    tally: &mut Tally,
) {
    let limit = (args.timeout > 0).then(|| Duration::from_secs(args.timeout));
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<(usize, Results)>();
    let mut failed = Vec::new();
    std::thread::scope(|s| {
        for _ in 0..jobs.min(programs.len()) {
            let send = send.clone();
            let next = &next;
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = programs.get(i) else { break };
                // A program's backends and thread counts run one after the other:
                // programs may write files next to themselves.
                let results = backends
                    .iter()
                    .map(|&b| {
                        let start = Instant::now();
                        let threads = thread_counts(b, args.threads);
                        let v = run_case(exe, &p.file, &p.spec, b, &threads, limit);
                        (b, v, start.elapsed())
                    })
                    .collect();
                if send.send((i, results)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        let mut pending = BTreeMap::new();
        let mut shown = 0;
        for (i, results) in receive {
            pending.insert(i, results);
            while let Some(results) = pending.remove(&shown) {
                for (b, v, took) in results {
                    let name = &programs[shown].name;
                    print_verdict(name, b, &v, took, args.verbose);
                    if matches!(v, Verdict::Fail(_)) {
                        failed.push(format!("{name} [{b}]"));
                    }
                    tally.add(&v);
                }
                shown += 1;
            }
        }
    });
    if !failed.is_empty() {
        say!("failed: {}", failed.join(", "));
        if !args.verbose {
            say!("(rerun with --verbose, or --filter NAME, for expected and actual output)");
        }
    }
}

fn print_verdict(name: &str, backend: &str, v: &Verdict, took: Duration, verbose: bool) {
    let time = if verbose {
        format!(" ({:.2} s)", took.as_secs_f64())
    } else {
        String::new()
    };
    match v {
        Verdict::Pass => say!("PASS {name} [{backend}]{time}"),
        Verdict::Skip(why) => say!("SKIP {name} [{backend}]: {why}"),
        Verdict::Fail(f) => {
            say!("FAIL {name} [{backend}]{time}: {}", f.summary);
            if verbose {
                for line in f.detail.trim_end().lines() {
                    say!("    {line}");
                }
            }
        }
    }
}
