//! `blazar bench --suite host`: scalar host code (`benches/host/`) against CPython and,
//! when the `lupa` Python package provides it, LuaJIT.
//!
//! Each workload is a program `NAME.q` with its twins `NAME.py` (CPython) and,
//! optionally, `NAME.lua` (LuaJIT), the same algorithm written as a user of each language
//! would. Every program prints its result as the last line of its output; the sides must
//! agree on it (relative 1e-3). The opening comment of `NAME.q` may say
//! `% iterations: N`, the iterations of the innermost loop, from which the report gives
//! nanoseconds per iteration.
//!
//! Unlike the other suites, programs are timed as whole processes, as a user runs them:
//! `blazar run NAME.q` and `python3 NAME.py`, several times each (`--reps`), reporting the
//! median and the fastest and slowest run. Nanoseconds per iteration subtract Blazar's
//! start-up (the median run of an empty program). LuaJIT runs inside a small Python
//! driver (`lupa.luajit21`) that times the Lua code alone, so its column leaves out the
//! driver's start-up. `--run-arg ARG` (repeatable) passes ARG to `blazar run`, for
//! example to select another execution tier of host code; environment variables reach
//! the child unchanged.

use super::child::{parse_number, run_limited};
use super::report::{json_num, json_str, median, ms_spread, Side};
use super::{Outcome, Setup};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The Python driver of the LuaJIT side: runs the file named by its argument and prints
/// the time the Lua code took on stderr (`lua_ms: X`).
const LUA_DRIVER: &str = "import sys, time\n\
from lupa import luajit21\n\
rt = luajit21.LuaRuntime()\n\
src = open(sys.argv[1]).read()\n\
t = time.perf_counter()\n\
rt.execute(src)\n\
sys.stdout.flush()\n\
print('lua_ms: %f' % ((time.perf_counter() - t) * 1e3), file=sys.stderr)\n";

/// One workload's results.
struct HostRow {
    name: String,
    iterations: Option<u64>,
    blazar: Side,
    python: Side,
    luajit: Side,
}

impl HostRow {
    fn ratio(&self, peer: &Side) -> Option<f64> {
        Some(self.blazar.ms? / peer.ms?)
    }

    /// Whether a peer printed the same result (`None` when either has none).
    fn agrees(&self, peer: &Side) -> Option<bool> {
        Some(super::report::checksums_agree(
            self.blazar.checksum?,
            peer.checksum?,
        ))
    }
}

/// The `.q` programs of the suite's folder, sorted, filtered by substring.
pub(super) fn list(dir: &Path, filter: Option<&str>) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "q"))
        .filter(|p| filter.is_none_or(|f| stem(p).contains(f)))
        .collect();
    out.sort();
    Ok(out)
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `% iterations: N` in the opening comment block of a program.
pub(super) fn iterations(text: &str) -> Option<u64> {
    text.lines()
        .map(str::trim)
        .take_while(|l| l.starts_with('%'))
        .find_map(|l| {
            let v = l
                .trim_start_matches('%')
                .trim()
                .strip_prefix("iterations")?;
            v.strip_prefix(':')?.trim().replace('_', "").parse().ok()
        })
}

/// Runs `make()` `reps` times as a whole process; the median and spread of the wall
/// times (or of `key: X` on stderr when `key` is given) and the last line it printed.
fn time_runs(s: &Setup, reps: usize, key: Option<&str>, make: &dyn Fn() -> Command) -> Side {
    let mut times = Vec::with_capacity(reps);
    let mut checksum = None;
    for _ in 0..reps {
        let mut cmd = make();
        let start = Instant::now();
        let out = match run_limited(&mut cmd, s.limit) {
            Ok(o) => o,
            Err(e) => {
                return Side {
                    note: Some(super::short(&e)),
                    ..Side::default()
                }
            }
        };
        let wall = start.elapsed().as_secs_f64() * 1e3;
        if !out.success {
            let why = out
                .stderr
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("failed")
                .trim()
                .to_string();
            (s.say)(&format!("  {:?} failed: {why}", cmd.get_program()));
            return Side {
                note: Some("failed".into()),
                ..Side::default()
            };
        }
        let ms = match key {
            None => Some(wall),
            Some(k) => out.stderr.lines().find_map(|l| {
                l.trim()
                    .strip_prefix(k)
                    .and_then(|v| v.trim_start_matches(':').trim().parse().ok())
            }),
        };
        let Some(ms) = ms else {
            return Side {
                note: Some(format!("no {} line", key.unwrap_or("time"))),
                ..Side::default()
            };
        };
        times.push(ms);
        checksum = out
            .stdout
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .and_then(parse_number);
    }
    let lo = times.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Side {
        ms: Some(median(&mut times)),
        spread: Some((lo, hi)),
        reps: times.len(),
        checksum,
        ..Side::default()
    }
}

fn skipped(why: &str) -> Side {
    Side {
        note: Some(why.into()),
        ..Side::default()
    }
}

/// Whether `python3` can import `lupa.luajit21`.
fn have_luajit() -> bool {
    Command::new("python3")
        .args(["-c", "from lupa import luajit21"])
        .output()
        .is_ok_and(|o| o.status.success())
}

pub(super) fn run(s: &Setup, programs: &[PathBuf]) -> Outcome {
    let reps = s.args.reps.max(1);
    let peers = !s.args.no_reference;
    let luajit = peers && have_luajit();
    let run_args = &s.args.run_arg;
    (s.say)(&format!(
        "host code: whole processes, {reps} runs each{}; peers: CPython (python3){}",
        if run_args.is_empty() {
            String::new()
        } else {
            format!(", blazar run {}", run_args.join(" "))
        },
        if luajit {
            ", LuaJIT (lupa)"
        } else {
            ", LuaJIT skipped (pip install lupa)"
        }
    ));
    let blazar_cmd = |q: &Path| {
        let exe = s.exe.clone();
        let q = q.to_path_buf();
        let args = run_args.clone();
        move || {
            let mut c = Command::new(&exe);
            c.arg("run").args(&args).arg(&q);
            c
        }
    };
    // Blazar's start-up: an empty program, subtracted for nanoseconds per iteration.
    let _ = std::fs::create_dir_all(&s.tmp);
    let empty = s.tmp.join("empty.q");
    let startup = match std::fs::write(&empty, "% nothing\n") {
        Ok(()) => time_runs(s, reps, None, &blazar_cmd(&empty)).ms,
        Err(_) => None,
    };
    (s.say)(&format!(
        "blazar start-up (empty program): {}",
        startup.map_or("n/a".into(), |m| format!("{m:.1} ms"))
    ));
    (s.say)(&format!(
        "{:<12} {:>8} {:>22} {:>8} {:>22} {:>7} {:>18} {:>7}  result",
        "workload",
        "iters",
        "blazar ms (min-max)",
        "ns/iter",
        "python ms (min-max)",
        "ratio",
        "luajit ms",
        "ratio"
    ));
    let mut rows = Vec::new();
    for q in programs {
        let name = stem(q);
        let text = std::fs::read_to_string(q).unwrap_or_default();
        let py = q.with_extension("py");
        let lua = q.with_extension("lua");
        let blazar = time_runs(s, reps, None, &blazar_cmd(q));
        let python = if !peers {
            skipped("skipped")
        } else if py.is_file() {
            time_runs(s, reps, None, &|| {
                let mut c = Command::new("python3");
                c.arg(&py);
                c
            })
        } else {
            skipped("no .py")
        };
        let luajit = if !luajit {
            skipped("skipped")
        } else if lua.is_file() {
            time_runs(s, reps, Some("lua_ms"), &|| {
                let mut c = Command::new("python3");
                c.args(["-c", LUA_DRIVER]).arg(&lua);
                c
            })
        } else {
            skipped("no .lua")
        };
        let row = HostRow {
            name,
            iterations: iterations(&text),
            blazar,
            python,
            luajit,
        };
        (s.say)(&line(&row, startup));
        rows.push(row);
    }
    let geo = |f: &dyn Fn(&HostRow) -> Option<f64>| {
        let v: Vec<f64> = rows.iter().filter_map(f).collect();
        (!v.is_empty()).then(|| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
    };
    if let Some(g) = geo(&|r| r.ratio(&r.python)) {
        (s.say)(&format!("geometric mean ratio blazar / CPython: {g:.2}"));
    }
    if let Some(g) = geo(&|r| r.ratio(&r.luajit)) {
        (s.say)(&format!("geometric mean ratio blazar / LuaJIT: {g:.2}"));
    }
    let failed = rows.iter().any(|r| {
        r.blazar.ms.is_none()
            || r.agrees(&r.python) == Some(false)
            || r.agrees(&r.luajit) == Some(false)
    });
    Outcome {
        json: to_json(&rows, startup, run_args),
        failed,
    }
}

/// Nanoseconds per iteration of a Blazar run: its median less the start-up.
fn ns_per_iter(r: &HostRow, startup: Option<f64>) -> Option<f64> {
    let ms = r.blazar.ms? - startup.unwrap_or(0.0);
    Some(ms.max(0.0) * 1e6 / r.iterations? as f64)
}

fn line(r: &HostRow, startup: Option<f64>) -> String {
    let num = |v: Option<f64>, p: usize| v.map_or("-".to_string(), |x| format!("{x:.p$}"));
    let result = match (r.blazar.checksum, r.agrees(&r.python), r.agrees(&r.luajit)) {
        (_, Some(false), _) | (_, _, Some(false)) => format!(
            "MISMATCH ({} / python {} / luajit {})",
            num(r.blazar.checksum, 6),
            num(r.python.checksum, 6),
            num(r.luajit.checksum, 6)
        ),
        (Some(v), Some(true), _) | (Some(v), _, Some(true)) => format!("{v} ok"),
        (Some(v), None, None) => format!("{v}"),
        (None, ..) => "n/a".into(),
    };
    format!(
        "{:<12} {:>8} {:>22} {:>8} {:>22} {:>7} {:>18} {:>7}  {result}",
        r.name,
        r.iterations.map_or("-".into(), |n| n.to_string()),
        ms_spread(&r.blazar, 1),
        num(ns_per_iter(r, startup), 0),
        ms_spread(&r.python, 1),
        num(r.ratio(&r.python), 2),
        ms_spread(&r.luajit, 1),
        num(r.ratio(&r.luajit), 2),
    )
}

fn to_json(rows: &[HostRow], startup: Option<f64>, run_args: &[String]) -> String {
    let side = |s: &Side| {
        format!(
            "{{\"ms\": {}, \"min_ms\": {}, \"max_ms\": {}, \"runs\": {}, \"result\": {}}}",
            json_num(s.ms),
            json_num(s.spread.map(|p| p.0)),
            json_num(s.spread.map(|p| p.1)),
            s.reps,
            json_num(s.checksum)
        )
    };
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "  {{\"workload\": {}, \"suite\": \"host\", \"iterations\": {}, \
                 \"ns_per_iteration\": {}, \"blazar\": {}, \"python\": {}, \"luajit\": {}, \
                 \"ratio_python\": {}, \"ratio_luajit\": {}}}",
                json_str(&r.name),
                r.iterations.map_or("null".into(), |n| n.to_string()),
                json_num(ns_per_iter(r, startup)),
                side(&r.blazar),
                side(&r.python),
                side(&r.luajit),
                json_num(r.ratio(&r.python)),
                json_num(r.ratio(&r.luajit)),
            )
        })
        .collect();
    let args: Vec<String> = run_args.iter().map(|a| json_str(a)).collect();
    format!(
        "{{\"suite\": \"host\", \"startup_ms\": {}, \"run_args\": [{}], \"workloads\": [\n{}\n]}}",
        json_num(startup),
        args.join(", "),
        items.join(",\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterations_from_the_head_comment() {
        assert_eq!(
            iterations("% A loop.\n% iterations: 1_000_000\ns = 0\n"),
            Some(1_000_000)
        );
        assert_eq!(iterations("%iterations:12\n"), Some(12));
        assert_eq!(iterations("s = 0\n% iterations: 5\n"), None);
        assert_eq!(iterations("% iterations: many\n"), None);
    }

    #[test]
    fn ns_per_iteration_subtracts_startup() {
        let row = HostRow {
            name: "x".into(),
            iterations: Some(1_000_000),
            blazar: Side {
                ms: Some(60.0),
                ..Side::default()
            },
            python: Side::default(),
            luajit: Side::default(),
        };
        assert_eq!(ns_per_iter(&row, Some(10.0)), Some(50.0));
        assert_eq!(ns_per_iter(&row, None), Some(60.0));
    }

    #[test]
    fn lists_q_programs_only() {
        let dir = std::env::temp_dir().join(format!("blazar-host-list-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub.q")).unwrap();
        for f in ["b.q", "a.q", "a.py", "ab.q"] {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let names = |f| -> Vec<String> { list(&dir, f).unwrap().iter().map(|p| stem(p)).collect() };
        assert_eq!(names(None), ["a", "ab", "b"]);
        assert_eq!(names(Some("a")), ["a", "ab"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
