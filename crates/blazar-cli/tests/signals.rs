//! Output is never lost: a run stopped by SIGTERM or Ctrl-C keeps everything it printed,
//! reports where it stopped and exits as a shell expects (128 + the signal); and a
//! thread count past the cap is a clear error, not an abort.

use std::process::{Command, Stdio};
use std::time::Duration;

fn program(name: &str, src: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("blazar-signals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("write program");
    file
}

fn stopped_by(signal: &str, code: i32, what: &str) {
    let file = program(
        &format!("loop_{signal}.q"),
        "print \"progress 1/2\"\nk = 0\nwhile true\n    k = k + 1\nend\n",
    );
    let child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs blazar");
    std::thread::sleep(Duration::from_millis(700));
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .expect("runs kill");
    assert!(killed.success());
    let out = child.wait_with_output().expect("blazar ends");
    assert_eq!(out.status.code(), Some(code));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "progress 1/2\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "loop_{signal}.q:4:5: error: stopped here by {what}"
        )),
        "{err}"
    );
}

#[test]
fn sigterm_keeps_the_output_and_exits_143() {
    stopped_by("TERM", 143, "SIGTERM");
}

#[test]
fn ctrl_c_keeps_the_output_and_exits_130() {
    stopped_by("INT", 130, "SIGINT (Ctrl-C)");
}

#[test]
fn too_many_threads_is_an_error() {
    let file = program("threads.q", "print 1\n");
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--threads", "100000"])
        .arg(&file)
        .output()
        .expect("runs blazar");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--threads 100000 is more than this build allows (1024)"),
        "{err}"
    );
}
