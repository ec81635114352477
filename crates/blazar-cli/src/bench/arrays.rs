//! `blazar bench --suite arrays`: whole-array statements of host code (`benches/arrays/`)
//! against NumPy (`--device cpu`) or CuPy (`--device cuda`).
//!
//! Each operation is a folder with a `prog.q`, which times one statement written as a
//! user writes it (`r = x + 1`, `r = sum(x)`, `r = A * B`, ...), and a `ref.py`, its
//! peer in NumPy/CuPy (`import common` from the folder above). Both follow the protocol
//! of the other suites (`rep: <ms> ms` lines, a `checksum:` line). The sizes are the
//! harness's: the lines of `prog.q` marked `% bench: size` (`M = 1024  % bench: size`)
//! are rewritten into a copy of the program in the scratch folder, next to copies of the
//! suite's shared `.q` files, and the peer gets them as arguments
//! (`ref.py numpy|cupy M N C S REPS`).
//!
//! On the CPU each program runs twice, as a user runs a new script twice: a first run
//! with an empty kernel cache (a fresh `BLAZAR_CACHE_DIR`, the default tier: statements
//! start on the interpreter while their C++ compiles) and a second run with the cache
//! that run filled (the first waits at its end for its compiles,
//! `BLAZAR_WAIT_COMPILES=1`, which a user's run hands to a detached process). The table shows both against the same peer.
//!
//! `blazar bench --suite linalg` runs `benches/linalg/` the same way: decompositions and
//! solves of S x S matrices (`[U, S, V] = svd(G)`, `symeig`, `inv`, `linsolve`,
//! `logdet`; S = 256 unless `--size N`) against `np.linalg` (or `cupy.linalg`).

use super::arrays_report::{header, summary, table_line, to_json, ArrayRow};
use super::child::measure;
use super::report::Side;
use super::{read_head, short, workload_name, Outcome, Setup};
use crate::cli::Device;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The marker of a size line in a `prog.q`.
const SIZE_MARK: &str = "bench: size";

/// Environment variables that tune OpenBLAS for this VM's other programs; NumPy gets its
/// own defaults so that its matrix product is measured as a user would run it.
const OPENBLAS_UNSET: &[&str] = &["OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"];

/// The sizes of one run: images M x N x C, matrices S x S, `reps` timed repetitions,
/// and the suite they are for (`"arrays"` or `"linalg"`, as the JSON names it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Sizes {
    pub(super) suite: &'static str,
    pub(super) m: usize,
    pub(super) n: usize,
    pub(super) c: usize,
    pub(super) s: usize,
    pub(super) reps: usize,
}

impl Sizes {
    /// 1024x1024x3 and 512^2 on the CPU, 4096x4096x3 and 2048^2 on the GPU, or
    /// `size` x `size` x 3 and (`size`/2)^2.
    pub(super) fn new(cuda: bool, size: Option<usize>) -> Sizes {
        let n = size.unwrap_or(if cuda { 4096 } else { 1024 }).max(2);
        Sizes {
            suite: "arrays",
            m: n,
            n,
            c: 3,
            s: n / 2,
            reps: if cuda { 30 } else { 10 },
        }
    }

    /// `--suite linalg`: matrices of `size` x `size` (default 256) on either device,
    /// 10 repetitions (the image sizes are unused).
    pub(super) fn linalg(size: Option<usize>) -> Sizes {
        let s = size.unwrap_or(256).max(2);
        Sizes {
            suite: "linalg",
            m: s,
            n: s,
            c: 1,
            s,
            reps: 10,
        }
    }

    fn value(&self, name: &str) -> Option<usize> {
        match name {
            "M" => Some(self.m),
            "N" => Some(self.n),
            "C" => Some(self.c),
            "S" => Some(self.s),
            "reps" => Some(self.reps),
            _ => None,
        }
    }

    /// The peer's arguments after the backend.
    fn args(&self) -> [String; 5] {
        [self.m, self.n, self.c, self.s, self.reps].map(|v| v.to_string())
    }
}

/// `text` with every line `NAME = ...  % bench: size` set to the value of NAME (a name
/// that is not a size keeps its line).
pub(super) fn with_sizes(text: &str, sizes: &Sizes) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let sized = line
            .split_once('%')
            .filter(|(_, comment)| comment.trim() == SIZE_MARK)
            .and_then(|(code, _)| code.split_once('='))
            .and_then(|(name, _)| Some((name.trim(), sizes.value(name.trim())?)));
        match sized {
            Some((name, v)) => out.push_str(&format!("{name} = {v}    % {SIZE_MARK}")),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The Python peer of a suite on one device: the backend argument of its `ref.py`
/// (`numpy` or `cupy`), the module that must import for it to run, and its name in
/// the report.
pub(super) struct Peer {
    pub(super) backend: &'static str,
    pub(super) probe: &'static str,
    pub(super) label: &'static str,
}

pub(super) fn run(s: &Setup) -> Outcome {
    let cuda = s.args.device == Device::Cuda;
    let module = if cuda { "cupy" } else { "numpy" };
    let peer = Peer {
        backend: module,
        probe: module,
        label: module,
    };
    if s.args.suite == super::Suite::Linalg {
        let sizes = Sizes::linalg(s.args.size);
        let what = format!("matrices {}x{}", sizes.s, sizes.s);
        return run_suite(s, "linalg", &what, &peer);
    }
    let sizes = Sizes::new(cuda, s.args.size);
    let what = format!(
        "images {}x{}x{}, matrices {}x{}",
        sizes.m, sizes.n, sizes.c, sizes.s, sizes.s
    );
    run_suite(s, "arrays", &what, &peer)
}

/// Runs the `prog.q` / `ref.py` pairs of a suite (`arrays`, `stdlib`) against `peer`.
pub(super) fn run_suite(s: &Setup, suite: &str, what: &str, peer_of: &Peer) -> Outcome {
    let cuda = s.args.device == Device::Cuda;
    let device = if cuda { "cuda" } else { "cpu" };
    let mut sizes = if suite == "linalg" {
        Sizes::linalg(s.args.size)
    } else {
        Sizes::new(cuda, s.args.size)
    };
    if suite == "stdlib" {
        sizes.suite = "stdlib";
    }
    let module = peer_of.label;
    if cuda && s.args.threads.is_some() {
        (s.say)("note: --threads is ignored with --device cuda");
    }
    let python = if s.args.no_reference {
        Err("skipped (--no-reference)".to_string())
    } else {
        probe_module(peer_of.probe)
    };
    if let Err(why) = &python {
        (s.say)(&format!("note: {module} peers {why}"));
    }
    (s.say)(&format!(
        "{suite} on {device}: {what}, {} repetitions; peer: {module}",
        sizes.reps
    ));
    let work = s.tmp.join(suite);
    if let Err(e) = copy_shared(&s.dir, &work) {
        (s.say)(&format!("note: cannot copy the shared programs: {e}"));
    }
    (s.say)(&header(module, !cuda && suite == "arrays"));
    let mut rows = Vec::new();
    for w in &s.workloads {
        let name = workload_name(w);
        let prog = w.join("prog.q");
        let two_runs = !cuda && suite == "arrays";
        let (first, ours) = match sized_program(&prog, &work.join(&name), &sizes) {
            Ok(path) if two_runs => {
                let cache = s.tmp.join("kernel-cache").join(&name);
                let first = blazar_with_cache(s, &path, &cache);
                (Some(first), blazar_with_cache(s, &path, &cache))
            }
            Ok(path) => (None, blazar(s, device, &path)),
            Err(e) => (
                None,
                Side {
                    note: Some(short(&e)),
                    ..Side::default()
                },
            ),
        };
        let script = w.join("ref.py");
        let theirs = match &python {
            Err(why) => Side {
                note: Some(short(why)),
                ..Side::default()
            },
            Ok(_) if !script.is_file() => Side {
                note: Some("no ref.py".into()),
                ..Side::default()
            },
            Ok(python) => peer(s, python, peer_of.backend, &script, &sizes),
        };
        let row = ArrayRow {
            name,
            statement: read_head(&prog).statement,
            first,
            ours,
            theirs,
        };
        (s.say)(&table_line(&row));
        for line in row
            .first
            .iter()
            .flat_map(|f| &f.extra)
            .chain(&row.ours.extra)
        {
            (s.say)(&format!("  {}: blazar said: {line}", row.name));
        }
        rows.push(row);
    }
    summary(&rows, module, s.say);
    let failed = rows
        .iter()
        .any(|r| r.ours.ms.is_none() || r.checksum_ok() == Some(false));
    let peer = python.is_ok().then_some(module);
    Outcome {
        json: to_json(&rows, device, peer, &sizes)
            .replace("\"suite\": \"arrays\"", &format!("\"suite\": \"{suite}\"")),
        failed,
    }
}

/// Copies the `.q` files of the suite's folder (what the programs import) into `work`.
pub(super) fn copy_shared(dir: &Path, work: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(work)?;
    for entry in std::fs::read_dir(dir)?.flatten() {
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|e| e == "q") {
            std::fs::copy(&path, work.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// Writes `prog` with the sizes of this run to `dest`'s folder as `prog.q` (or to
/// `dest` itself when it names a `.q` file).
pub(super) fn sized_program(prog: &Path, dest: &Path, sizes: &Sizes) -> Result<PathBuf, String> {
    let (folder, path) = if dest.extension().is_some_and(|e| e == "q") {
        (
            dest.parent().unwrap_or(dest).to_path_buf(),
            dest.to_path_buf(),
        )
    } else {
        (dest.to_path_buf(), dest.join("prog.q"))
    };
    let text = std::fs::read_to_string(prog)
        .map_err(|e| format!("cannot read {}: {e}", prog.display()))?;
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    std::fs::write(&path, with_sizes(&text, sizes))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Runs `prog` with this executable on `device` (the native CPU tier from the first
/// launch) and measures it.
pub(super) fn blazar(s: &Setup, device: &str, prog: &Path) -> Side {
    let mut run = Command::new(&s.exe);
    run.args(["run", "--device", device]);
    if device == "cuda" {
        // One GPU against CuPy on one (the default would use every GPU).
        run.args(["--devices", "0"]);
    }
    if device == "cpu" {
        // Native code from the first launch (under `auto` the first launches run on the
        // interpreter while the compiler works in the background).
        run.args(["--cpu-tier", "native"]);
    }
    if let (Some(n), "cpu") = (s.args.threads, device) {
        run.arg("--threads")
            .arg(n.to_string())
            .env("RAYON_NUM_THREADS", n.to_string());
    }
    run.arg(prog);
    measure(&mut run, s.limit)
}

/// Runs `prog` on the CPU under the default tier with `cache` as its kernel cache (made
/// empty when it does not exist yet): the first call measures a first run, the second
/// a run that finds its kernels compiled.
fn blazar_with_cache(s: &Setup, prog: &Path, cache: &Path) -> Side {
    if let Err(e) = std::fs::create_dir_all(cache) {
        return Side {
            note: Some(short(&format!("cannot create {}: {e}", cache.display()))),
            ..Side::default()
        };
    }
    let mut run = Command::new(&s.exe);
    // The first run waits at its end for the kernels it compiles in the background
    // (after its timed repetitions), so that the second finds them all in the cache.
    run.args(["run", "--device", "cpu"])
        .env("BLAZAR_CACHE_DIR", cache)
        .env("BLAZAR_WAIT_COMPILES", "1");
    if let Some(n) = s.args.threads {
        run.arg("--threads")
            .arg(n.to_string())
            .env("RAYON_NUM_THREADS", n.to_string());
    }
    run.arg(prog);
    measure(&mut run, s.limit)
}

fn peer(s: &Setup, python: &str, module: &str, script: &Path, sizes: &Sizes) -> Side {
    let mut cmd = Command::new(python);
    cmd.arg(script).arg(module).args(sizes.args());
    if module == "numpy" {
        for var in OPENBLAS_UNSET {
            cmd.env_remove(var);
        }
        if let Some(n) = s.args.threads {
            for var in ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"] {
                cmd.env(var, n.to_string());
            }
        }
    }
    measure(&mut cmd, s.limit)
}

/// `$PYTHON` or `python3`, once it has imported `module`.
pub(super) fn probe_module(module: &str) -> Result<String, String> {
    let python = std::env::var("PYTHON")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .unwrap_or_else(|| "python3".into());
    let import = format!("import {module}");
    match Command::new(&python).args(["-c", &import]).output() {
        Ok(out) if out.status.success() => Ok(python),
        Ok(out) => {
            let err = String::from_utf8_lossy(&out.stderr);
            let last = err.lines().rev().find(|l| !l.trim().is_empty());
            Err(format!(
                "skipped: `{import}` failed in {python} ({})",
                last.unwrap_or("no message").trim()
            ))
        }
        Err(e) => Err(format!("skipped: no Python (`{python}` cannot start: {e})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_by_device() {
        let cpu = Sizes::new(false, None);
        assert_eq!(
            (cpu.m, cpu.n, cpu.c, cpu.s, cpu.reps),
            (1024, 1024, 3, 512, 10)
        );
        let gpu = Sizes::new(true, None);
        assert_eq!((gpu.m, gpu.s, gpu.reps), (4096, 2048, 30));
        let tiny = Sizes::new(false, Some(32));
        assert_eq!(tiny.args(), ["32", "32", "3", "16", "10"]);
    }

    #[test]
    fn rewrites_marked_size_lines_only() {
        let text = "% head\nM = 1024     % bench: size\nreps = 10 %bench: size\n\
                    K = 7   % bench: size\nS = 512\nx = M  % other\n";
        let sizes = Sizes::new(true, Some(64));
        assert_eq!(
            with_sizes(text, &sizes),
            "% head\nM = 64    % bench: size\nreps = 30    % bench: size\n\
             K = 7   % bench: size\nS = 512\nx = M  % other\n"
        );
    }
}
