//! `--devices sim:N` end to end: the profile shows where kernels ran and what crossed
//! between the devices; bad `--devices` values and pinning past the devices are
//! located errors; `blazar info` lists the devices.

use std::path::PathBuf;
use std::process::{Command, Output};

fn blazar(args: &[&str], dir: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(args)
        .current_dir(dir)
        .env("BLAZAR_QUIET", "1")
        .output()
        .expect("blazar runs")
}

fn programs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs/multidevice")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The kernels column of a device's row in the devices table.
fn kernels_on(stderr: &str, device: &str) -> usize {
    stderr
        .lines()
        .find(|l| l.split_whitespace().next() == Some(device))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no row for {device} in:\n{stderr}"))
}

#[test]
fn the_profile_shows_placement_and_the_copies_between_devices() {
    let args = [
        "run",
        "--device",
        "cpu",
        "--cpu-tier",
        "interp",
        "--fuse-min",
        "0",
        "--devices",
        "sim:2",
        "--profile",
        "pipelines_meet.q",
    ];
    let out = blazar(&args, &programs());
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout, "4096 20480\n24576\n6 8\n8192\n");
    assert!(stderr.contains("devices (2):"), "{stderr}");
    // The two pipelines started on different devices.
    assert!(kernels_on(&stderr, "sim0") >= 2, "{stderr}");
    assert!(kernels_on(&stderr, "sim1") >= 2, "{stderr}");
    // Where they met, one side's result crossed over, peer to peer.
    assert!(
        stderr.contains("copy sim0 -> sim1:") || stderr.contains("copy sim1 -> sim0:"),
        "{stderr}"
    );
    assert!(stderr.contains("(peer)"), "{stderr}");
    assert!(stderr.contains("idle ms"), "{stderr}");
}

#[test]
fn pinning_moves_the_launches_and_an_index_past_the_devices_is_located() {
    let dir = std::env::temp_dir().join(format!("blazar-multidevice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pin.q");
    std::fs::write(
        &file,
        "a = ones(100) * 2\n{!sched gpu_index=1}\nb = a + 1\nc = b * 2\n\
         {!sched gpu_index=auto}\nprint sum(c)\n{!sched gpu_index=2}\nd = c + 1\n",
    )
    .unwrap();
    let args = [
        "run",
        "--fuse-min",
        "0",
        "--devices",
        "sim:2",
        "--profile",
        "pin.q",
    ];
    let out = blazar(&args, &dir);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(stdout, "600\n");
    assert!(
        stderr.contains("pin.q:7:1: error: `gpu_index=2`: this run has 2 devices (0 to 1)"),
        "{stderr}"
    );
    assert!(!out.status.success());
    // The two pinned statements ran on device 1, which got `a` from device 0.
    assert!(
        stderr.contains("copy sim0 -> sim1: 400 B (peer)"),
        "{stderr}"
    );
    // One device: the pragma is ignored, the same output.
    let out = blazar(&["run", "--fuse-min", "0", "pin.q"], &dir);
    assert_eq!(text(&out.stdout), "600\n");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_devices_values_are_usage_errors() {
    let dir = programs();
    let out = blazar(&["run", "--devices", "sim:0", "split_sum.q"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("from 1 to 64"),
        "{}",
        text(&out.stderr)
    );
    let out = blazar(
        &["run", "--devices", "sim:2", "--check-cuda", "split_sum.q"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--devices sim:2 goes with neither"));
    let out = blazar(&["run", "--devices", "1,1", "split_sum.q"], &dir);
    assert!(text(&out.stderr).contains("named twice"));
}

#[test]
fn info_lists_the_devices() {
    let out = blazar(&["info"], &programs());
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("no CUDA device") || stdout.contains("cuda 0: "),
        "{stdout}"
    );
    assert!(stdout.contains("--devices sim:N"), "{stdout}");
}

/// Runs `file` in `dir` on the JIT tier with every whole-array expression a kernel,
/// plus `extra` arguments; returns its stdout, failing on an error.
fn output_of(dir: &std::path::Path, file: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "run",
        "--device",
        "cpu",
        "--cpu-tier",
        "jit",
        "--fuse-min",
        "0",
    ];
    args.extend_from_slice(extra);
    args.push(file);
    let out = blazar(&args, dir);
    assert!(
        out.status.success(),
        "{file} {extra:?}: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

#[test]
fn lagging_simulated_devices_give_the_same_output() {
    // Every device runs its queue only when something waits for it: a copy or a write
    // whose wait the bookkeeping forgot would read the wrong elements here.
    let dir = programs();
    for file in [
        "aliased_halo.q",
        "pipelines_meet.q",
        "split_sum.q",
        "stencil_circular.q",
        "stencil_halo.q",
        "write_then_read.q",
    ] {
        let want = output_of(&dir, file, &[]);
        for spec in ["sim:2:lag", "sim:3:lag", "sim:4:lag"] {
            assert_eq!(
                output_of(&dir, file, &["--devices", spec]),
                want,
                "{file} under {spec}"
            );
        }
    }
}

/// The numbers of a benchmark's output, without its timing line.
fn numbers(out: &str) -> Vec<f64> {
    out.lines()
        .filter(|l| !l.starts_with("ms:"))
        .flat_map(|l| l.split([' ', ':']))
        .filter_map(|w| w.trim().parse::<f64>().ok())
        .collect()
}

#[test]
fn the_benchmark_programs_give_the_same_answers_over_devices() {
    // benches/multi at small sizes: one device, then 2, 3 and 4 lagging simulated ones
    // (every launch that qualifies split in bands, halos exchanged).
    let bench = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benches/multi");
    let dir = std::env::temp_dir().join(format!("blazar-multibench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(bench.join("common.q"), dir.join("common.q")).unwrap();
    for prog in ["pipelines", "split_stencil", "split_sum", "frames"] {
        let src = std::fs::read_to_string(bench.join(format!("{prog}.q"))).unwrap();
        let small: String = src
            .lines()
            .map(|l| match l.split_whitespace().next() {
                Some(name) if l.contains("% bench: size") => {
                    let v = if matches!(name, "M" | "N") { "64" } else { "3" };
                    format!("{name} = {v}\n")
                }
                _ => format!("{l}\n"),
            })
            .collect();
        let file = format!("{prog}.q");
        std::fs::write(dir.join(&file), small).unwrap();
        let want = numbers(&output_of(&dir, &file, &[]));
        assert!(want.len() >= 2, "{prog}: {want:?}");
        for spec in ["sim:2:lag", "sim:3:lag", "sim:4:lag"] {
            let got = numbers(&output_of(&dir, &file, &["--devices", spec]));
            assert_eq!(got.len(), want.len(), "{prog} under {spec}");
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-5 * w.abs().max(1.0),
                    "{prog} under {spec}: {got:?} against {want:?}"
                );
            }
        }
    }
    // The stencil pipeline splits and exchanges halo rows only: a 64x64 single-float
    // image is 16384 bytes; each round's stencil copies 2 rows of 256 bytes.
    let out = blazar(
        &[
            "run",
            "--device",
            "cpu",
            "--cpu-tier",
            "jit",
            "--fuse-min",
            "0",
            "--devices",
            "sim:2",
            "--profile",
            "split_stencil.q",
        ],
        &dir,
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("kernel blur3 split over the devices by rows"),
        "{stderr}"
    );
    assert!(stderr.contains("copy sim0 -> sim1: "), "{stderr}");
    let copied: usize = stderr
        .lines()
        .filter(|l| l.starts_with("copy sim"))
        .filter_map(|l| {
            l.split(": ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<usize>()
                .ok()
        })
        .sum();
    assert!(
        copied < 16384,
        "only halos crossed, not whole images: {copied} B\n{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
