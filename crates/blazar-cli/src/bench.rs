//! `blazar bench`: kernel workloads against references written for the project, on the
//! CPU (`benches/cpu/`, C with OpenMP) or on an NVIDIA GPU (`benches/cuda/`, CUDA C and
//! CuPy).
//!
//! Each workload is a folder with a `kernel.q` and its references. Every program sets up
//! its data, runs the computation once to warm up (Blazar specialises and compiles its
//! kernels on the first launch), then times several repetitions and prints one
//! `rep: <ms> ms` line per repetition and one `checksum: <value>` line. The Quasar program
//! runs in a child process of this executable (`blazar run`), the references next to it.
//! We report the median repetition of each side, their ratio, the achieved bandwidth
//! (`% bytes: N` in the head comment of `kernel.q`: bytes read and written per repetition)
//! and whether the checksums agree (relative tolerance 1e-3). `cpu.rs` and `cuda.rs` hold
//! what differs between the devices; the protocol is described in `benches/README.md`.
//!
//! `--suite arrays` runs `benches/arrays/` instead (`arrays.rs`): whole-array statements
//! of host code (`prog.q`) against NumPy or CuPy (`ref.py`), on either device;
//! `--suite linalg` runs `benches/linalg/` (matrix decompositions) the same way, and
//! `--suite stdlib` (`stdlib.rs`, `benches/stdlib/`) calls of the bundled standard
//! library against SciPy's or CuPy's ndimage. `--suite host` (`host.rs`, `benches/host/`)
//! times scalar host programs as whole processes against CPython and LuaJIT.

mod arrays;
mod arrays_report;
mod child;
mod cpu;
mod cuda;
mod cuda_report;
mod host;
mod loops;
mod report;
mod stdlib;

use crate::cli::Device;
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Where the kernels run: `cpu` (workloads of `benches/cpu`) or `cuda` (`benches/cuda`).
    #[arg(long, value_enum, default_value_t = Device::Cpu)]
    pub device: Device,
    /// Which workloads: `kernels` (`benches/cpu` or `benches/cuda`, against C/OpenMP or
    /// CUDA C and CuPy), `arrays` (`benches/arrays`: whole-array statements against
    /// NumPy on the CPU, CuPy on the GPU), `loops`, `linalg` (`benches/linalg`: matrix
    /// decompositions against `np.linalg`), `stdlib` (`benches/stdlib`: imfilter,
    /// immedfilt, imresize against SciPy / cupyx ndimage) or `host` (`benches/host`:
    /// scalar host code as whole processes against CPython and LuaJIT).
    #[arg(long, value_enum, default_value_t = Suite::Kernels)]
    pub suite: Suite,
    /// `--suite arrays`, `stdlib` and `loops`: images of N x N x 3 and matrix products
    /// of (N/2)^2 (default 1024 on `cpu`, 4096 on `cuda`); `--suite linalg`: N x N
    /// matrices (default 256).
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Also write the results as JSON to FILE (`-` for stdout; the table then goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Run only the workloads whose name contains NAME.
    #[arg(long, value_name = "NAME")]
    pub filter: Option<String>,
    /// Worker threads for both sides on the CPU (sets RAYON_NUM_THREADS and OMP_NUM_THREADS).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// The workload folder (default: `benches/cpu` or `benches/cuda` in the current
    /// directory or above).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Skip the references (the device copy bandwidth is still measured on `cuda`).
    #[arg(long)]
    pub no_reference: bool,
    /// `--suite host`: runs of each program (the median and spread are reported).
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub reps: usize,
    /// `--suite host`: an argument passed to `blazar run` for the Quasar side
    /// (repeatable), for example to select another execution tier of host code.
    #[arg(long = "run-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub run_arg: Vec<String>,
    /// Seconds one program may run before it is stopped.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    pub timeout: u64,
}

/// The workload suites of `blazar bench`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Suite {
    /// Kernels (`kernel.q`) against hand-written references.
    Kernels,
    /// Whole-array statements (`prog.q`) against NumPy or CuPy (`ref.py`).
    Arrays,
    /// Plain `for` loops (`prog.q`, run as kernels by the loop parallelizer) against the
    /// hand-written kernel (`kernel.q`).
    Loops,
    /// Decompositions and solves of S x S matrices (`prog.q`: `svd`, `symeig`, `inv`,
    /// `linsolve`, `logdet`) against NumPy or CuPy (`ref.py`).
    Linalg,
    /// Standard-library calls (`prog.q`: `imfilter`, `immedfilt`, `imresize`) against
    /// SciPy's ndimage on the CPU, `cupyx.scipy.ndimage` on the GPU (`ref.py`).
    Stdlib,
    /// Scalar host code (`NAME.q`: loops, calls, builtins, strings) as whole processes
    /// against CPython (`NAME.py`) and LuaJIT (`NAME.lua`).
    Host,
}

/// What both devices' runs need.
pub(super) struct Setup<'a> {
    pub(super) args: &'a BenchArgs,
    /// This executable, run as `blazar run` for the Quasar side.
    pub(super) exe: PathBuf,
    /// The workload folder.
    pub(super) dir: PathBuf,
    /// The workloads to run: folders of `dir` holding a `kernel.q` (`prog.q` for arrays).
    pub(super) workloads: Vec<PathBuf>,
    /// A scratch folder for compiled references, removed at the end.
    pub(super) tmp: PathBuf,
    /// Time limit of one program.
    pub(super) limit: Duration,
    /// Prints one line of the report (to stderr when the JSON goes to stdout).
    pub(super) say: &'a dyn Fn(&str),
}

/// The end of a run: the JSON text and whether anything failed.
pub(super) struct Outcome {
    pub(super) json: String,
    pub(super) failed: bool,
}

pub fn main(args: BenchArgs) -> ExitCode {
    let cuda = args.device == Device::Cuda;
    let arrays = matches!(args.suite, Suite::Arrays | Suite::Linalg);
    let folder = match (args.suite, cuda) {
        (Suite::Arrays, _) => "arrays",
        (Suite::Loops, _) => "loops",
        (Suite::Linalg, _) => "linalg",
        (Suite::Stdlib, _) => "stdlib",
        (Suite::Host, _) => "host",
        (Suite::Kernels, true) => "cuda",
        (Suite::Kernels, false) => "cpu",
    };
    let entry = if args.suite == Suite::Kernels {
        "kernel.q"
    } else {
        "prog.q"
    };
    let dir = match args.dir.clone().or_else(|| find_bench_dir(folder)) {
        Some(d) if d.is_dir() => d,
        Some(d) => {
            eprintln!("blazar: error: no workload folder at {}", d.display());
            return ExitCode::from(2);
        }
        None => {
            eprintln!("blazar: error: cannot find `benches/{folder}` here or above; pass --dir");
            return ExitCode::from(2);
        }
    };
    let listed = if args.suite == Suite::Host {
        host::list(&dir, args.filter.as_deref())
    } else {
        list_workloads(&dir, entry, args.filter.as_deref())
    };
    let workloads = match listed {
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
    // `BLAZAR_BENCH_EXE` measures another build of Blazar with this harness (a
    // before-and-after comparison).
    let other = std::env::var_os("BLAZAR_BENCH_EXE").filter(|e| !e.is_empty());
    let exe = match other
        .map(PathBuf::from)
        .map_or_else(std::env::current_exe, Ok)
    {
        Ok(e) => e,
        Err(e) => {
            eprintln!("blazar: error: cannot find the blazar executable: {e}");
            return ExitCode::from(2);
        }
    };
    if cuda {
        // One probe instead of the same driver error under every workload.
        let tmp = std::env::temp_dir();
        if let blazar_testkit::Probe::Unavailable(why) =
            blazar_testkit::probe_backend(&exe, "cuda", &tmp)
        {
            eprintln!("blazar: error: {why}; nothing was measured");
            return ExitCode::from(crate::cli::EXIT_UNAVAILABLE);
        }
    }
    let to_stderr = args.json.as_deref() == Some("-");
    let say = |line: &str| {
        if to_stderr {
            eprintln!("{line}")
        } else {
            println!("{line}")
        }
    };
    let setup = Setup {
        args: &args,
        exe,
        dir,
        workloads,
        tmp: std::env::temp_dir().join(format!("blazar-bench-{}", std::process::id())),
        limit: Duration::from_secs(args.timeout.max(1)),
        say: &say,
    };
    let outcome = if args.suite == Suite::Host {
        host::run(&setup, &setup.workloads)
    } else if arrays {
        arrays::run(&setup)
    } else if args.suite == Suite::Loops {
        loops::run(&setup)
    } else if args.suite == Suite::Stdlib {
        stdlib::run(&setup)
    } else if cuda {
        cuda::run(&setup)
    } else {
        cpu::run(&setup)
    };
    let _ = std::fs::remove_dir_all(&setup.tmp);
    if let Some(path) = &args.json {
        let written = if path == "-" {
            println!("{}", outcome.json);
            Ok(())
        } else {
            std::fs::write(path, outcome.json + "\n")
        };
        if let Err(e) = written {
            eprintln!("blazar: error: cannot write {path}: {e}");
            return ExitCode::FAILURE;
        }
    }
    if outcome.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `benches/<folder>` in the current directory or the nearest ancestor that has one.
fn find_bench_dir(folder: &str) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .map(|a| a.join("benches").join(folder))
        .find(|p| p.is_dir())
}

/// The folders of `dir` holding the program `entry`, sorted by name, filtered by substring.
fn list_workloads(dir: &Path, entry: &str, filter: Option<&str>) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(entry).is_file())
        .filter(|p| filter.is_none_or(|f| workload_name(p).contains(f)))
        .collect();
    out.sort();
    Ok(out)
}

pub(super) fn workload_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What the comment block that opens a `kernel.q` says about the workload.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Head {
    /// `% bytes: N`: bytes read and written by one repetition.
    pub(super) bytes: Option<u64>,
    /// `% bound: compute`: the workload is limited by arithmetic, not memory bandwidth.
    pub(super) compute_bound: bool,
    /// `% statement: ...`: the statement an array workload times.
    pub(super) statement: Option<String>,
}

pub(super) fn read_head(kernel: &Path) -> Head {
    std::fs::read_to_string(kernel)
        .map(|text| parse_head(&text))
        .unwrap_or_default()
}

fn parse_head(text: &str) -> Head {
    let field = |key: &str| {
        text.lines()
            .map(str::trim)
            .take_while(|l| l.starts_with('%'))
            .find_map(|l| {
                let value = l.trim_start_matches('%').trim().strip_prefix(key)?;
                Some(value.strip_prefix(':')?.trim().to_string())
            })
    };
    Head {
        bytes: field("bytes").and_then(|b| b.parse().ok()),
        compute_bound: field("bound").is_some_and(|b| b == "compute"),
        statement: field("statement").filter(|s| !s.is_empty()),
    }
}

/// A table cell for a skipped or failed side: `skipped`, or the first characters.
pub(super) fn short(s: &str) -> String {
    if s.starts_with("skipped") {
        "skipped".into()
    } else {
        s.chars().take(24).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_comment_fields() {
        let text = "% bytes: 402653184\n% bound: compute\n% text\n\nx = 1\n% bytes: 5\n";
        assert_eq!(
            parse_head(text),
            Head {
                bytes: Some(402653184),
                compute_bound: true,
                statement: None,
            }
        );
        let plain = parse_head("%bytes:12\n% A filter.\nreps = 3\n");
        assert_eq!((plain.bytes, plain.compute_bound), (Some(12), false));
        assert_eq!(parse_head("reps = 1\n% bytes: 12\n"), Head::default());
        assert_eq!(parse_head("% bytesize: 12\n").bytes, None);
        let stmt = parse_head("% statement: r = x + 1\n% Adds.\nM = 4\n");
        assert_eq!(stmt.statement.as_deref(), Some("r = x + 1"));
    }

    #[test]
    fn workloads_are_folders_with_a_kernel() {
        let dir = std::env::temp_dir().join(format!("blazar-bench-list-{}", std::process::id()));
        for (name, kernel) in [("b", true), ("a", true), ("copy", false), ("ab", true)] {
            std::fs::create_dir_all(dir.join(name)).unwrap();
            if kernel {
                std::fs::write(dir.join(name).join("kernel.q"), "% bytes: 1\n").unwrap();
            }
        }
        let names = |f| -> Vec<String> {
            list_workloads(&dir, "kernel.q", f)
                .unwrap()
                .iter()
                .map(|p| workload_name(p))
                .collect()
        };
        assert_eq!(names(None), ["a", "ab", "b"]);
        assert_eq!(names(Some("a")), ["a", "ab"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
