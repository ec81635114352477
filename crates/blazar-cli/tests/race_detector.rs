//! `blazar run --check-races` on the planted races of `tests/races`: each is found with
//! both source lines and both threads' positions; race-free kernels give no report.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(file: &str, extra: &[&str]) -> Output {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/races")
        .join(file);
    Command::new(env!("CARGO_BIN_EXE_blazar"))
        .arg("run")
        .arg(&path)
        .args(extra)
        .env("BLAZAR_QUIET", "1")
        .output()
        .expect("blazar runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `file` under the detector and returns its report, checking the exit status.
fn report(file: &str) -> String {
    let o = run(file, &["--check-races"]);
    assert!(
        o.status.success(),
        "warnings keep the exit status: {}",
        stderr(&o)
    );
    stderr(&o)
}

/// A planted race: its program and pieces of text its report must contain.
struct Planted {
    file: &'static str,
    says: &'static [&'static str],
}

const PLANTED: &[Planted] = &[
    // A shared-memory write read by a neighbour without syncthreads.
    Planted {
        file: "neighbour_shared.q",
        says: &[
            "neighbour_shared.q:6:5: warning: data race on shared array `tile` in kernel \
             `rotate_tile`: element [1] written at line 5 and read at line 6 by different \
             threads with no syncthreads between",
            "neighbour_shared.q:5:5: note: first written by thread pos=[1]",
            "then read by thread pos=[0] (blkpos=[0], blkidx=[0])",
            "blazar: 1 data race found",
        ],
    },
    // Two threads write one global element.
    Planted {
        file: "one_global_element.q",
        says: &[
            "one_global_element.q:3:5: warning: data race on global array `flag` in kernel \
             `remember_last`: element [0] written at line 3 and written at line 3",
            "first written by thread pos=[0]",
            "then written by thread pos=[1]",
            "31 conflicting pairs",
        ],
    },
    // A read-modify-write without an atomic; only the threads whose element is
    // positive take part (x = [1,-2,3,4,-5,6,7,-8]).
    Planted {
        file: "counter_no_atomic.q",
        says: &[
            "counter_no_atomic.q:4:9: warning: data race on global array `n` in kernel \
             `count_positive`: element [0] read at line 4 and written at line 4",
            "an atomic update",
            "first read by thread pos=[5]",
            "then written by thread pos=[0]",
        ],
    },
    // Barriers do not order the threads of different blocks.
    Planted {
        file: "across_blocks.q",
        says: &[
            "across_blocks.q:6:5: warning: data race on global array `y` in kernel \
             `peek_next_block`: element [0] written at line 4 and read at line 6 by threads \
             of different blocks",
            "then read by thread pos=[4] (blkpos=[0], blkidx=[1])",
            "blazar: 2 data races found",
        ],
    },
];

#[test]
fn planted_races_are_reported_with_both_lines_and_threads() {
    for p in PLANTED {
        let e = report(p.file);
        for want in p.says {
            assert!(e.contains(want), "{}: no `{want}` in:\n{e}", p.file);
        }
    }
}

#[test]
fn race_free_kernels_give_no_report() {
    let o = run("race_free.q", &["--check-races"]);
    assert!(o.status.success());
    assert_eq!(stderr(&o), "");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out,
        "[1,2,3,4,5,6,7,0,9,10,11,12,13,14,15,8]\n[4,4,4,4]\n\
         [1,2,3,4,5,6,7,0,9,10,11,12,13,14,15,8]\n"
    );
}

#[test]
fn error_mode_fails_the_run() {
    let o = run("one_global_element.q", &["--check-races=error"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("3:5: error: data race"),
        "{}",
        stderr(&o)
    );
    // The program's output is complete: the report comes after the run.
    assert_eq!(String::from_utf8_lossy(&o.stdout), "1\n");
}

#[test]
fn races_need_the_cpu() {
    let o = run("race_free.q", &["--check-races", "--device", "cuda"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--check-races and --schedule random run kernels on the CPU"));
}

fn stdout_of(file: &str, extra: &[&str]) -> String {
    let o = run(file, extra);
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_random_schedule_is_reproducible_and_shows_order_dependence() {
    let serial = stdout_of("last_writer.q", &["--device", "cpu"]);
    assert_eq!(serial, "31\n[0,0,0,0,1,2,3,4]\n");
    let seeded = |s: &str| stdout_of("last_writer.q", &["--schedule", "random", "--seed", s]);
    assert_eq!(seeded("1"), seeded("1"));
    let outs: std::collections::BTreeSet<String> =
        (1..=6).map(|s| seeded(&s.to_string())).collect();
    assert!(outs.len() >= 3, "{outs:?}");
    // The block order shows in the second line: the first block reads the next
    // block's values when that block ran first, zeros when it had not run yet (and,
    // with the threads of a block switching too, a mix).
    assert!(outs.iter().any(|o| o.contains("\n[5,6,7,8,")), "{outs:?}");
}

#[test]
fn race_free_kernels_do_not_depend_on_the_schedule() {
    let serial = stdout_of("race_free.q", &["--device", "cpu"]);
    for seed in ["1", "2", "3"] {
        let args = ["--schedule", "random", "--seed", seed, "--check-races"];
        assert_eq!(stdout_of("race_free.q", &args), serial);
    }
    // Without the detector the threads also switch at every memory access.
    for seed in 1..=12 {
        let seed = seed.to_string();
        let args = ["--schedule", "random", "--seed", seed.as_str()];
        assert_eq!(stdout_of("race_free.q", &args), serial, "seed {seed}");
    }
}

#[test]
fn context_switches_at_memory_accesses_lose_updates() {
    // Lock step loses every update but one (all threads read, then all write), a
    // thread-at-a-time run none; switches inside threads lose some.
    let seeded = |s: &str| stdout_of("lost_updates.q", &["--schedule", "random", "--seed", s]);
    assert_eq!(seeded("3"), seeded("3"));
    let outs: std::collections::BTreeSet<String> =
        (1..=8).map(|s| seeded(&s.to_string())).collect();
    assert!(outs.len() >= 3, "{outs:?}");
    let between = |o: &String| o.trim().parse::<u32>().is_ok_and(|n| n > 1 && n < 16);
    assert!(outs.iter().any(between), "{outs:?}");
}

#[test]
fn threads_of_one_block_switch_at_shared_memory_accesses() {
    // One block of 16 threads adds one to a shared counter without an atomic update:
    // lock step (the interpreter) counts 1 (all read, then all write); the random
    // schedule parts the block's threads at the access, so some seeds count more.
    let counted = |s: &str| stdout_of("block_counter.q", &["--schedule", "random", "--seed", s]);
    assert_eq!(
        stdout_of(
            "block_counter.q",
            &["--device", "cpu", "--cpu-tier", "interp"]
        ),
        "1\n"
    );
    assert_eq!(counted("4"), counted("4"));
    let outs: std::collections::BTreeSet<String> =
        (1..=8).map(|s| counted(&s.to_string())).collect();
    assert!(outs.len() >= 3, "{outs:?}");
    let between = |o: &String| o.trim().parse::<u32>().is_ok_and(|n| n > 1 && n < 16);
    assert!(outs.iter().any(between), "{outs:?}");
    // Groups of threads read before others write, inside the statement too
    // (`exec/steps.rs`): most seeds count well below 16.
    let low = (1..=16)
        .filter(|s| {
            counted(&s.to_string())
                .trim()
                .parse::<u32>()
                .is_ok_and(|n| n <= 8)
        })
        .count();
    assert!(low >= 10, "{low} of 16 seeds count 8 or less");
    // A neighbour's shared cell read without syncthreads: in lock step every write
    // comes first; here some threads read their neighbour's cell before it is written.
    let serial = stdout_of(
        "neighbour_shared.q",
        &["--device", "cpu", "--cpu-tier", "interp"],
    );
    let read = |s: &str| stdout_of("neighbour_shared.q", &["--schedule", "random", "--seed", s]);
    assert_eq!(read("2"), read("2"));
    let outs: std::collections::BTreeSet<String> = (1..=6).map(|s| read(&s.to_string())).collect();
    assert!(outs.len() >= 3, "{outs:?}");
    assert!(outs.iter().any(|o| *o != serial), "{outs:?}");
}

/// The debugger's kernels (barriers, shared memory, atomics, a bitonic sort) print the
/// same under the random schedule's switches, whatever the seed.
#[test]
fn race_free_golden_kernels_agree_under_many_seeds() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/debug");
    for file in [
        "row_filter.q",
        "row_filter_wide.q",
        "histogram.q",
        "bitonic.q",
    ] {
        let run = |extra: &[&str]| {
            let o = Command::new(env!("CARGO_BIN_EXE_blazar"))
                .arg("run")
                .arg(dir.join(file))
                .args(extra)
                .env("BLAZAR_QUIET", "1")
                .output()
                .expect("blazar runs");
            assert!(o.status.success(), "{file}: {}", stderr(&o));
            String::from_utf8_lossy(&o.stdout).into_owned()
        };
        let serial = run(&["--device", "cpu"]);
        for seed in 1..=16 {
            let seed = seed.to_string();
            let got = run(&["--schedule", "random", "--seed", seed.as_str()]);
            assert_eq!(got, serial, "{file}, seed {seed}");
        }
    }
}

/// A planted race as the random schedule may show it: the array, the kernel and the
/// two lines (in either order: the schedule decides which access comes first).
struct Seen {
    file: &'static str,
    array: &'static str,
    lines: (u32, u32),
}

#[test]
fn planted_races_are_found_under_the_random_schedule() {
    let planted = [
        Seen {
            file: "neighbour_shared.q",
            array: "shared array `tile` in kernel `rotate_tile`",
            lines: (5, 6),
        },
        Seen {
            file: "one_global_element.q",
            array: "global array `flag` in kernel `remember_last`",
            lines: (3, 3),
        },
        Seen {
            file: "counter_no_atomic.q",
            array: "global array `n` in kernel `count_positive`",
            lines: (4, 4),
        },
        Seen {
            file: "across_blocks.q",
            array: "global array `y` in kernel `peek_next_block`",
            lines: (4, 6),
        },
        Seen {
            file: "block_counter.q",
            array: "shared array `c` in kernel `count_in_block`",
            lines: (7, 7),
        },
    ];
    for p in &planted {
        for seed in 1..=4 {
            let seed = seed.to_string();
            let args = [
                "--check-races",
                "--schedule",
                "random",
                "--seed",
                seed.as_str(),
            ];
            let o = run(p.file, &args);
            assert!(o.status.success(), "{}: {}", p.file, stderr(&o));
            let e = stderr(&o);
            let (a, b) = p.lines;
            let pair = |x: u32, y: u32| {
                let second = [
                    format!(" at line {y} by different threads with no syncthreads between"),
                    format!(" at line {y} by threads of different blocks"),
                ];
                e.lines().any(|l| {
                    l.contains(&format!("data race on {}", p.array))
                        && l.contains(&format!(" at line {x} and "))
                        && second.iter().any(|s| l.ends_with(s.as_str()))
                })
            };
            assert!(
                pair(a, b) || pair(b, a),
                "{}, seed {seed}: lines {a} and {b} not reported:\n{e}",
                p.file
            );
            assert!(e.contains("note: first "), "{}: {e}", p.file);
            assert!(e.contains(" then "), "{}: {e}", p.file);
        }
    }
    // And no report without a race, whatever the seed.
    for seed in 1..=6 {
        let seed = seed.to_string();
        let args = [
            "--check-races",
            "--schedule",
            "random",
            "--seed",
            seed.as_str(),
        ];
        let o = run("race_free.q", &args);
        assert!(o.status.success());
        assert_eq!(stderr(&o), "", "seed {seed}");
    }
}

/// The detector observes the random schedule without changing it: a seed gives the
/// same output with and without `--check-races`.
#[test]
fn the_detector_does_not_change_the_schedule() {
    for file in ["block_counter.q", "neighbour_shared.q", "last_writer.q"] {
        for seed in 1..=6 {
            let seed = seed.to_string();
            let plain = ["--schedule", "random", "--seed", seed.as_str()];
            let checked = [&plain[..], &["--check-races"]].concat();
            let o = run(file, &checked);
            assert!(o.status.success(), "{}", stderr(&o));
            let checked_out = String::from_utf8_lossy(&o.stdout).into_owned();
            assert_eq!(stdout_of(file, &plain), checked_out, "{file}, seed {seed}");
        }
    }
}
