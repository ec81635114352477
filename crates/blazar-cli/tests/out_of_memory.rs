//! Memory that runs out is a located error, never an abort that loses the output: the
//! run is limited to 1.8 GB of address space (as `ulimit -v` does) and needs more.

use std::os::unix::process::CommandExt;
use std::process::Command;

fn limited(name: &str, statement: &str) -> (Option<i32>, String, String) {
    let dir = std::env::temp_dir().join(format!("blazar-oom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(
        &file,
        format!("print \"start\"\nx = ones(16000, 16000)\ny = {statement}\nprint \"end\"\n"),
    )
    .expect("write program");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_blazar"));
    cmd.args(["run", "--device", "cpu", "--threads", "2"])
        .arg(&file)
        .env("RUST_BACKTRACE", "0");
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 1800 << 20,
                rlim_max: 1800 << 20,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().expect("runs blazar");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_unprobed_allocation_is_a_located_error() {
    // `sort` copies its argument without asking first: the process's allocator and its
    // abort handler turn the failure into an error at the statement.
    let (code, out, err) = limited("sort.q", "sort(x)");
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(out, "start\n");
    assert!(err.contains("sort.q:3:1: error: out of memory"), "{err}");
}

#[test]
fn a_probed_result_is_a_located_error() {
    let (code, out, err) = limited("plus.q", "x + 1");
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(out, "start\n");
    assert!(err.contains("plus.q:3:5: error: out of memory"), "{err}");
}
