//! Output is never lost: a run stopped by SIGTERM, Ctrl-C or SIGHUP keeps everything it
//! printed, reports where it stopped and exits as a shell expects (128 + the signal),
//! also inside a kernel (on either CPU tier) or a long builtin; and a thread count past
//! the cap is a clear error, not an abort.

use std::process::{Command, Stdio};
use std::time::Duration;

fn program(name: &str, src: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("blazar-signals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("write program");
    file
}

/// Stops an endless loop with `signal`. By default the loop runs as compiled code (the
/// compiled host tier) and the stop is reported at the loop, line 3; on the interpreter
/// (`--host-tier interp`) at the statement it was running, line 4.
fn stopped_by(signal: &str, code: i32, what: &str, tier: &str, at: &str) {
    let file = program(
        &format!("loop_{signal}_{tier}.q"),
        "print \"progress 1/2\"\nk = 0\nwhile true\n    k = k + 1\nend\n",
    );
    let child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu", "--host-tier", tier])
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
            "loop_{signal}_{tier}.q:{at}: error: stopped here by {what}"
        )),
        "{err}"
    );
}

#[test]
fn sigterm_keeps_the_output_and_exits_143() {
    stopped_by("TERM", 143, "SIGTERM", "auto", "3:1");
}

#[test]
fn ctrl_c_keeps_the_output_and_exits_130() {
    stopped_by("INT", 130, "SIGINT (Ctrl-C)", "auto", "3:1");
}

#[test]
fn ctrl_c_stops_an_interpreted_loop_at_its_statement() {
    stopped_by("INT", 130, "SIGINT (Ctrl-C)", "interp", "4:5");
}

#[test]
fn sighup_keeps_the_output_and_exits_129() {
    stopped_by("HUP", 129, "SIGHUP", "auto", "3:1");
}

/// Runs `src` with `args`, sends `signal` once `ready` (a line on stderr, or `None`:
/// at once) was seen and 700 ms passed; returns the exit code, stdout and stderr, and
/// checks that the run ended within a few seconds of the signal.
fn signalled(
    name: &str,
    src: &str,
    args: &[&str],
    ready: Option<&str>,
    signal: &str,
) -> (Option<i32>, String, String) {
    use std::io::{BufRead, Read};
    let file = program(name, src);
    let cache = std::env::temp_dir().join(format!(
        "blazar-signals-cache-{}-{name}",
        std::process::id()
    ));
    let mut child = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu"])
        .args(args)
        .arg(&file)
        .env("BLAZAR_CACHE_DIR", &cache)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs blazar");
    let mut stderr = std::io::BufReader::new(child.stderr.take().expect("piped"));
    let mut err = String::new();
    if let Some(ready) = ready {
        while !err.contains(ready) {
            let mut line = String::new();
            if stderr.read_line(&mut line).expect("reads stderr") == 0 {
                break;
            }
            err.push_str(&line);
        }
    }
    std::thread::sleep(Duration::from_millis(700));
    let sent = std::time::Instant::now();
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .expect("runs kill");
    assert!(killed.success());
    stderr.read_to_string(&mut err).expect("reads stderr");
    let out = child.wait_with_output().expect("blazar ends");
    assert!(
        sent.elapsed() < Duration::from_secs(10),
        "took {:?}",
        sent.elapsed()
    );
    let _ = std::fs::remove_dir_all(&cache);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
    )
}

/// A kernel that waits forever (a loop without side effects, which C++ may assume ends).
const SPIN: &str = "function [] = __kernel__ spin(y : vec, pos : int)\n    while y[0] >= 0\n    end\nend\nprint \"progress 1/2\"\ny = zeros(4)\nparallel_do(4, y, spin)\nprint \"never\"\n";

#[test]
fn ctrl_c_stops_a_kernel_on_the_interpreter() {
    let (code, out, err) = signalled(
        "spin_interp.q",
        SPIN,
        &["--cpu-tier", "interp"],
        None,
        "INT",
    );
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(out, "progress 1/2\n");
    assert!(err.contains("stopped here by SIGINT (Ctrl-C)"), "{err}");
}

#[test]
fn sigterm_stops_a_native_kernel_that_waits_forever() {
    let compiler = Command::new(std::env::var("CXX").unwrap_or_else(|_| "c++".into()))
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !compiler {
        eprintln!("no C++ compiler: skipped");
        return;
    }
    let args = ["--cpu-tier", "native", "--verbose"];
    let (code, out, err) = signalled(
        "spin_native.q",
        SPIN,
        &args,
        Some("compiled kernel"),
        "TERM",
    );
    // The kernel was still running (C++ did not delete its loop): the signal ends it.
    assert_eq!(code, Some(143), "{err}");
    assert_eq!(out, "progress 1/2\n");
    assert!(
        err.contains("spin_native.q:7:1: error: stopped here by SIGTERM"),
        "{err}"
    );
}

#[test]
fn ctrl_c_stops_a_load_of_an_endless_file() {
    let src = "print \"progress 1/2\"\nx = load(\"/dev/zero\")\n";
    let (code, out, err) = signalled("endless.q", src, &[], None, "INT");
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(out, "progress 1/2\n");
    assert!(
        err.contains("endless.q:2:5: error: stopped here by SIGINT"),
        "{err}"
    );
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
