//! Memory limits that hold, measured on child processes: printing a large array streams
//! its text, and cycles of containers are collected by the bytes they hold, not only by
//! their count. (One test in this binary: the peak memory the system reports is the
//! largest of all the children's.)

use std::process::{Command, Stdio};

/// The largest resident size of the children that have ended, in KB.
fn peak_kb() -> i64 {
    // SAFETY: getrusage fills the struct it is given.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_CHILDREN, &mut u), 0);
        u.ru_maxrss
    }
}

#[test]
fn large_prints_and_cell_cycles_stay_small() {
    let dir = std::env::temp_dir().join(format!("blazar-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // 1e7 elements (40 MB): the whole text and its pieces used to take 747 MB.
    let file = dir.join("print.q");
    std::fs::write(&file, "x = ones(10000000)\nprint x\n").expect("write program");
    let status = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu"])
        .arg(&file)
        .stdout(Stdio::null())
        .status()
        .expect("runs blazar");
    assert!(status.success());
    assert!(peak_kb() < 300_000, "printing peaked at {} KB", peak_kb());
    let file = dir.join("cycles.q");
    // 1000 cycles of 1 MB each: before, collections came every 1024 containers and
    // the run held about 1 GB.
    std::fs::write(
        &file,
        "for i = 1..1000\n    c = cell(2)\n    c[0] = ones(262144)\n    c[1] = c\nend\nprint \"done\"\n",
    )
    .expect("write program");
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu"])
        .arg(&file)
        .output()
        .expect("runs blazar");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "done\n");
    assert!(peak_kb() < 400_000, "the cycles peaked at {} KB", peak_kb());
    let _ = std::fs::remove_dir_all(&dir);
}
