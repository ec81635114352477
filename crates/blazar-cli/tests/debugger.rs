//! `blazar debug` driven by scripted standard input on the kernels of `tests/debug`: a
//! separable filter with shared memory, a histogram with atomics, a bitonic sort.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Runs `blazar debug FILE` with `script` on stdin; returns stdout and stderr.
fn session(file: &str, script: &str) -> (String, String) {
    let (out, err, _) = session_files(file, script);
    (out, err)
}

/// As [`session`], also returning the PNG files the session wrote (name, bytes), sorted.
fn session_files(file: &str, script: &str) -> (String, String, Vec<(String, Vec<u8>)>) {
    session_args(file, &[], script)
}

/// As [`session_files`], with `args` after `blazar debug`.
fn session_args(
    file: &str,
    args: &[&str],
    script: &str,
) -> (String, String, Vec<(String, Vec<u8>)>) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/debug")
        .join(file);
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("blazar-debug-{}-{n}-{file}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .arg("debug")
        .args(args)
        .arg(&path)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("blazar starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(script.as_bytes()).expect("script written");
    drop(stdin);
    let out = child.wait_with_output().expect("blazar ends");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("temp dir")
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap_or_default())
        })
        .collect();
    files.sort();
    let _ = std::fs::remove_dir_all(&dir);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        files,
    )
}

/// `out` holds every line of `want`, in order.
fn in_order(out: &str, want: &[&str]) {
    let mut rest = out;
    for w in want {
        match rest.find(w) {
            Some(i) => rest = &rest[i + w.len()..],
            None => panic!("missing (in order) `{w}` in:\n{out}"),
        }
    }
}

#[test]
fn filter_barrier_indices_and_shared_memory() {
    let (out, err) = session(
        "row_filter.q",
        "break 12\nrun\ninfo kernel\nthreads\nshared\nstep\nthreads\nprint tile[0, 2] + 1\n\
         print acc\nnext\nprint acc\nquit\n",
    );
    assert_eq!(err, "");
    in_order(
        &out,
        &[
            "breakpoint 1 at ",
            "row_filter.q:12: syncthreads",
            "breakpoint 1: kernel `smooth_rows` at ",
            "row_filter.q:12, block [0,0], thread [0,0] (blkpos [0,0])",
            "kernel `smooth_rows`: 16 threads [2,8], blocks of [1,4] (4 threads), [2,2] blocks",
            "shared memory per block: 24 bytes",
            "occupancy 50% (32 blocks of 1 warps per SM, limited by blocks per SM)",
            "* thread [0,0]    blkpos [0,0]    active   barrier 0",
            "  thread [0,3]    blkpos [0,3]    active   barrier 0",
            "tile (1x6):\n       0        0        1        2        3        4",
            "row_filter.q:13, block [0,0]",
            "* thread [0,0]    blkpos [0,0]    active   barrier 1",
            "(bzdb) print tile[0, 2] + 1\n2\n",
            "(bzdb) print acc\n0\n",
            "row_filter.q:14, block [0,0]",
            "(bzdb) print acc\n1\n",
            "[program finished]",
        ],
    );
}

#[test]
fn histogram_condition_and_atomics() {
    let (out, _) = session(
        "histogram.q",
        "break 6 if v == 3\nrun\nprint v\nprint pos\nthreads\nprint bins[3]\nstep\n\
         print bins[3]\ncontinue\nprint v\n",
    );
    in_order(
        &out,
        &[
            "breakpoint 1 at ",
            "histogram.q:6 if v == 3: bins[v] += 1",
            "breakpoint 1 (v == 3): kernel `count_values` at ",
            "(bzdb) print v\n3\n",
            "(bzdb) print pos\n0\n",
            // The last thread's value (9) is outside the bins: it waits out the `if`.
            "  thread [6]      blkpos [6]      active   barrier 0",
            "  thread [7]      blkpos [7]      waiting  barrier 0",
            "(bzdb) print bins[3]\n0\n",
            "kernel `count_values` finished",
            // Stepping goes on in the host, at the statement after the launch.
            "host `script` at ",
            "histogram.q:13\n   13 | print bins",
            "(bzdb) print bins[3]\n3\n",
            "[1,2,1,3]",
            "[program finished]",
            "(bzdb) print v\nthe program has finished",
        ],
    );
}

#[test]
fn bitonic_sort_moves_between_threads_and_blocks() {
    let (out, _) = session(
        "bitonic.q",
        "break 18\nrun\nprint [x, y]\nthread 2\nprint [blkpos, partner]\nblock 1\nprint pos\n\
         threads\ndelete 1\nbreak 27\ncontinue\nshared\nthread 0\nquit\n",
    );
    in_order(
        &out,
        &[
            "bitonic.q:18, block [0], thread [0] (blkpos [0])",
            "(bzdb) print [x, y]\n[5,2]\n",
            // Thread 2 skips the swap: it waits where it last was, at line 17.
            "bitonic.q:17 (waiting), block [0], thread [2] (blkpos [2])",
            "(bzdb) print [blkpos, partner]\n[2,3]\n",
            "running until block [1] reaches line 18",
            "bitonic.q:18, block [1], thread [8] (blkpos [0])",
            "(bzdb) print pos\n8\n",
            "* thread [8]      blkpos [0]      active   barrier 1  line 18",
            "  thread [9]      blkpos [1]      waiting  barrier 1  line 13",
            "deleted breakpoint 1",
            "breakpoint 2: kernel `sort_segments` at ",
            "bitonic.q:27, block [1]",
            "seg (8):\n       9       10       11       12       13       14       15       16",
            "block [0] has already finished (blocks run in order)",
            "[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]",
        ],
    );
}

#[test]
fn bad_input_gets_messages() {
    let (out, err) = session(
        "histogram.q",
        "break\nbreak x\nbreak 999\nfrobnicate\nprint v\ndelete 7\nbreak 6 if v ==\nrun\n\
         print nosuch\nprint bins\nprint bins[99]\nthread 99\nblock [1,2,3]\nprint )\nquit\n",
    );
    assert_eq!(err, "");
    in_order(
        &out,
        &[
            "break needs a line",
            "`x` is not a line",
            "no line 999 in ",
            "unknown command `frobnicate`",
            "the program is not running yet",
            "no breakpoint 7",
            "condition `v ==`: cannot parse",
            "no variable `nosuch` here",
            "`bins` is an array of size 4",
            "index 99 is outside `bins` (size 4)",
            "no thread [99]",
            "no block [1,2,3]",
            "cannot parse `)`",
        ],
    );
}

#[test]
fn record_writes_a_frame_per_barrier_interval() {
    let (out, _, files) = session_files("bitonic.q", "record seg\nrun\n");
    assert!(out.contains("recording `seg` after every barrier interval as seg-NNNN.png"));
    // Two blocks, each passing 7 barriers: the load, then 1 + 2 + 3 sorting stages.
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let want: Vec<String> = (1..=14).map(|i| format!("seg-{i:04}.png")).collect();
    assert_eq!(names, want);
    for (_, bytes) in &files {
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    }
}

#[test]
fn image_shaped_shared_memory_is_a_png() {
    let (out, _, files) = session_files("row_filter_wide.q", "break 12\nrun\nshared\nquit\n");
    assert!(
        out.contains("tile (20x34): written to shared-tile-block0.png"),
        "{out}"
    );
    assert_eq!(files.len(), 1);
    assert!(files[0].1.starts_with(b"\x89PNG"));
}

#[test]
fn from_host_into_a_kernel_and_back() {
    let (out, err) = session(
        "row_filter.q",
        "break 24\nrun\nprint img[1, 7]\nprint img\nthreads\nstep\nprint blkpos\nfinish\n\
         print out[1, 0]\nnext\n",
    );
    assert_eq!(err, "");
    in_order(
        &out,
        &[
            "breakpoint 1: host `script` at ",
            "row_filter.q:24\n   24 | parallel_do([[2, 8], [1, 4]], img, out, smooth_rows)",
            "(bzdb) print img[1, 7]\n17\n",
            "`img` is an array of size 2x8",
            "the host is stopped, not a kernel thread",
            "kernel `smooth_rows` at ",
            "row_filter.q:4, block [0,0], thread [0,0] (blkpos [0,0])",
            "(bzdb) print blkpos\n[0,0]\n",
            "kernel `smooth_rows` finished",
            "host `script` at ",
            "row_filter.q:25",
            "(bzdb) print out[1, 0]\n10.333333\n",
            "[ [0.33333334,1,2,3,4,5,6,6.6666665],",
            "[program finished]",
        ],
    );
}

#[test]
fn races_inside_the_debugger() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/races/neighbour_shared.q");
    let mut child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["debug", "--check-races"])
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("blazar starts");
    let script = "break 6\nrun\nraces\nstep\nraces\ndelete\ncontinue\nraces\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    in_order(
        &stdout,
        &[
            "(bzdb) races\nno data races so far",
            "(bzdb) races\n`tile` in kernel `rotate_tile`, element [1]: written at line 5 by \
             thread [1], then read at line 6 by thread [0] (8 pairs)",
            "[program finished]",
            "(bzdb) races\nthe program has finished",
        ],
    );
    assert!(stderr.contains("neighbour_shared.q:6:5: warning: data race on shared array `tile`"));
    assert!(stderr.contains("blazar: 1 data race found"));
}

#[test]
fn info_kernel_names_its_device() {
    let (out, _) = session("row_filter.q", "break 12\nrun\ninfo kernel\nquit\n");
    if out.contains("on the installed GPU, ") {
        // A GPU machine: its own limits, named.
        assert!(out.contains(" SMs): "), "{out}");
    } else {
        in_order(
            &out,
            &[
                "(bzdb) info kernel\nno GPU to query (",
                "): using the default device model\n",
                "on the default device model: 2048 threads, 32 blocks, 228 KiB shared memory \
                 and 65536 registers per SM; per-thread registers not counted",
            ],
        );
    }
}

#[test]
fn breakpoints_in_imported_modules_and_the_call_stack() {
    let (out, err) = session(
        "modules.q",
        "break modules_lib.q:3\nbreak nosuch.q:2\nbreak modules_lib.q:7\nbreak inttypes.q:46\n\
         break modules_lib.q:99\ninfo breakpoints\nrun\nbt\nframe 1\nprint factor + 1\nframe 5\n\
         continue\nbt\nframe 2\nframe 0\ndelete 1\ncontinue\nprint x[2]\nbacktrace\ncontinue\n",
    );
    assert_eq!(err, "");
    in_order(
        &out,
        &[
            "breakpoint 1 at ",
            "modules_lib.q:3: v[pos] = v[pos] * k",
            "break nosuch.q:2: no file `nosuch.q` in the program; its files are ",
            "modules.q, ",
            "modules_lib.q, <blazar>/inttypes.q\n",
            "breakpoint 2 at ",
            "modules_lib.q:7: y = copy(v)",
            "breakpoint 3 at <blazar>/inttypes.q:46: y = uint8(clamp(round(x), 0, 255))",
            "no line 99 in ",
            "modules_lib.q (it has 14 lines)",
            "(bzdb) info breakpoints\n1: ",
            "modules_lib.q:3\n2: ",
            "modules_lib.q:7\n3: <blazar>/inttypes.q:46\n",
            // A host stop in a module: the call stack, then a caller's frame.
            "breakpoint 2: host `launch_times` at ",
            "modules_lib.q:7\n    7 | y = copy(v)",
            "(bzdb) bt\n*#0 host `launch_times` at ",
            "modules_lib.q:7\n #1 host `scaled` at ",
            "modules_lib.q:13\n #2 host `script` at ",
            "modules.q:7\n",
            "(bzdb) frame 1\n*#1 host `scaled` at ",
            "modules_lib.q:13\n   13 | y = launch_times(x, factor)\n",
            "  factor = 3\n",
            "(bzdb) print factor + 1\n4\n",
            "(bzdb) frame 5\nno frame 5 (`bt` lists 3)",
            // A kernel of the module: its frame above the host frames that launched it.
            "breakpoint 1: kernel `times_k` at ",
            "modules_lib.q:3, block [0], thread [0] (blkpos [0])\n    3 | v[pos] = v[pos] * k",
            "(bzdb) bt\n*#0 kernel `times_k`, block [0], thread [0] at ",
            "modules_lib.q:3\n #1 host `launch_times` at ",
            "modules_lib.q:8\n #2 host `scaled` at ",
            "modules_lib.q:13\n #3 host `script` at ",
            "modules.q:7\n",
            "(bzdb) frame 2\n*#2 host `scaled` at ",
            "(host variables are shown when the host stops",
            "(bzdb) frame 0\n*#0 kernel `times_k`",
            "  k = 3\n",
            "[4.5,7.5,900]\n",
            // A function of Blazar's bundled module.
            "breakpoint 3: host `float_to_uint8` at <blazar>/inttypes.q:46\n   46 | y = uint8(",
            "(bzdb) print x[2]\n300\n",
            "(bzdb) backtrace\n*#0 host `float_to_uint8` at <blazar>/inttypes.q:46\n #1 host `script` at ",
            "modules.q:9\n",
            "[2,3,255]\n",
            "[program finished]",
        ],
    );
}

/// `blazar debug --schedule random`: the 16 threads of one block add one to a shared
/// counter without an atomic update (`tests/races/block_counter.q`, line 7). Stepping
/// the current thread through the statement shows it between its read and its write
/// while other threads update the counter; `threads` gives each thread its own line.
#[test]
fn the_random_schedule_shows_a_race_while_stepping() {
    let script = "break 7\nrun\nprint c[0]\nthreads\nstep\nprint c[0]\nthreads\nstep\n\
                  print c[0]\ndelete\ncontinue\n";
    let run = |seed: u32| {
        let seed = seed.to_string();
        let args = ["--schedule", "random", "--seed", seed.as_str()];
        session_args("../races/block_counter.q", &args, script).0
    };
    // Some seed stops the current thread inside the statement, after its read.
    let (seed, out) = (1..=16)
        .map(|s| (s, run(s)))
        .find(|(_, o)| o.contains("(step 2 of the statement)"))
        .expect("a seed that steps inside the statement");
    assert_eq!(run(seed), out, "seed {seed} is reproducible");
    let stop = "kernel `count_in_block` at ";
    let cur = out
        .lines()
        .find(|l| l.starts_with("breakpoint 1: kernel"))
        .and_then(|l| l.split("thread ").nth(1))
        .and_then(|t| t.split(' ').next())
        .expect("the stop names its thread")
        .to_string();
    in_order(
        &out,
        &[
            &format!("block_counter.q:7, block [0], thread {cur}"),
            "(bzdb) print c[0]\n",
            &format!("* thread {cur:<8} blkpos {cur:<8} active   barrier 0  line 7"),
            stop,
            &format!("block_counter.q:7 (step 2 of the statement), block [0], thread {cur}"),
            &format!("* thread {cur:<8} blkpos {cur:<8} active   barrier 0  line 7"),
            &format!("block_counter.q:8, block [0], thread {cur}"),
        ],
    );
    // Every thread waits at line 7 or has not reached it; none is past it (the
    // barrier at line 8 waits for all).
    let table: Vec<&str> = (out.lines())
        .filter(|l| l.starts_with("* thread [") || l.starts_with("  thread ["))
        .collect();
    assert!(table.len() >= 32, "{out}");
    assert!(table
        .iter()
        .all(|l| l.ends_with("line 6") || l.ends_with("line 7")));
    assert!(table.iter().any(|l| l.contains("waiting")));
    // The count printed at the end is the counter after every thread's update: at
    // most 16, and what `print c[0]` showed once all threads had passed line 7.
    let last = out
        .lines()
        .rev()
        .find(|l| l.parse::<u32>().is_ok())
        .unwrap();
    let n: u32 = last.parse().unwrap();
    assert!((1..=16).contains(&n), "{out}");
    assert!(
        out.contains(&format!("(bzdb) print c[0]\n{n}\n(bzdb) delete")),
        "{out}"
    );
}

/// The detector inside the debugger under the random schedule: the same report as
/// `blazar run --check-races` with that seed.
#[test]
fn races_inside_the_debugger_under_the_random_schedule() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/races/neighbour_shared.q");
    let seeded = ["--check-races", "--schedule", "random", "--seed", "2"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .arg("debug")
        .args(seeded)
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("blazar starts");
    child.stdin.take().unwrap().write_all(b"run\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .arg("run")
        .args(seeded)
        .arg(&path)
        .env("BLAZAR_QUIET", "1")
        .output()
        .expect("blazar runs");
    let (debugged, ran) = (
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&run.stderr),
    );
    assert!(ran.contains("data race on shared array `tile`"), "{ran}");
    assert_eq!(debugged, ran);
    let printed = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(String::from_utf8_lossy(&out.stdout).contains(&printed));
}
