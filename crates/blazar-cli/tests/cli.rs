//! The command line as a user meets it: a closed output pipe, a device that is not
//! there, a program on standard input, diagnostics as JSON, figures in `--figures DIR`,
//! and the interactive session driven through a pipe.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn blazar() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_blazar"));
    c.env("BLAZAR_QUIET", "1");
    c
}

fn program(name: &str, src: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("blazar-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("write program");
    file
}

/// Runs `cmd` with `input` on its standard input.
fn with_stdin(cmd: &mut Command, input: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs blazar");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("blazar ends")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const KERNELS: &str = "x = zeros(8)\n\
    parallel_do(8, x, __kernel__ (x : vec, pos : int) -> _\n    x[pos] = pos)\n\
    parallel_do(8, x, __kernel__ (x : vec, pos : int) -> _\n    x[pos] = 2 * pos)\n";

#[test]
fn a_closed_output_pipe_ends_quietly() {
    let file = program("pipe.q", KERNELS);
    let mut child = blazar()
        .args(["emit", "kir"])
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs blazar");
    // The reader goes away before anything is written (`| head -0`).
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("blazar ends");
    let err = text(&out.stderr);
    assert!(!err.contains("internal error"), "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert!(
            out.status.success() || out.status.signal() == Some(13),
            "{:?}: {err}",
            out.status
        );
    }
}

#[test]
fn test_on_a_missing_gpu_fails_unless_skips_are_allowed() {
    let file = program(
        "golden.q",
        "% A golden program.\n% ==\n% stdout { 3 }\nprint 1 + 2\n",
    );
    let out = blazar()
        .args(["test", "--device", "cuda"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    if !stdout.contains("SKIP all") {
        eprintln!("SKIP: CUDA works here; the missing-GPU case is not tested");
        return;
    }
    assert_eq!(out.status.code(), Some(69), "{stdout}");
    let err = text(&out.stderr);
    assert!(
        err.contains("--device cuda is not available here") && err.contains("--allow-skip"),
        "{err}"
    );
    let allowed = blazar()
        .args(["test", "--device", "cuda", "--allow-skip"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(allowed.status.success(), "{}", text(&allowed.stderr));
}

#[test]
fn run_reads_a_program_from_stdin() {
    let out = with_stdin(
        blazar().args(["run", "--device", "cpu", "-"]),
        "x = [1, 2, 3]\nprint sum(x)\ny = x[3]\n",
    );
    assert_eq!(text(&out.stdout), "6\n");
    let err = text(&out.stderr);
    assert!(
        err.starts_with("<stdin>:3:5: error: index 3 is out of bounds"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn check_emits_json_lines() {
    let file = program("bad.q", "x = [1, 2]\ny = x[end]\nz = q + 1\n");
    let out = blazar()
        .args(["check", "--format", "json"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let name = file.display().to_string();
    assert!(
        lines[0]
            .starts_with("{\"severity\":\"error\",\"message\":\"`end` is not an index in Quasar"),
        "{stdout}"
    );
    assert!(
        lines[0].contains(&format!(
            "\"file\":\"{name}\",\"line\":2,\"col\":7,\"end\":{{\"line\":2,\"col\":10}}"
        )),
        "{stdout}"
    );
    let ok = program("ok.q", "print 1\n");
    let out = blazar()
        .args(["check", "--format", "json"])
        .arg(&ok)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn the_session_through_a_pipe() {
    let input = "x = [1, 2, 3]\n\
        function y = twice(v)\n    y = 2 * v\nend\n\
        twice(x)\n\
        x[3]\n\
        x[2] * 100\n\
        :type x\n\
        :quit\n\
        print \"never\"\n";
    let out = with_stdin(blazar().args(["repl", "--device", "cpu"]), input);
    assert_eq!(text(&out.stdout), "[2,4,6]\n300\nvec[int]\n");
    let err = text(&out.stderr);
    assert!(
        err.starts_with("In[4]:1:1: error: index 3 is out of bounds"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bench_on_a_missing_gpu_says_so_once() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = blazar()
        .current_dir(&root)
        .args(["bench", "--device", "cuda", "--no-reference"])
        .output()
        .unwrap();
    if out.status.code() != Some(69) {
        eprintln!("SKIP: CUDA works here; the missing-GPU case is not tested");
        return;
    }
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("not available") && err.contains("nothing was measured"),
        "{err}"
    );
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn the_interpreter_fallback_is_announced_once() {
    let file = program("tier.q", KERNELS);
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu"])
        .arg(&file)
        .env("CXX", "/nonexistent/c++")
        .env_remove("BLAZAR_QUIET")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert_eq!(
        err.matches("CPU kernels run on the interpreter").count(),
        1,
        "{err}"
    );
}

#[test]
fn verbose_runs_note_each_compile() {
    if Command::new("c++").arg("--version").output().is_err() {
        eprintln!("SKIP: no C++ compiler here");
        return;
    }
    let file = program("verbose.q", KERNELS);
    let cache = std::env::temp_dir().join(format!("blazar-cli-cache-{}", std::process::id()));
    let run = || {
        blazar()
            .args([
                "run",
                "--device",
                "cpu",
                "--cpu-tier",
                "native",
                "--verbose",
            ])
            .arg(&file)
            .env("XDG_CACHE_HOME", &cache)
            .output()
            .unwrap()
    };
    let first = text(&run().stderr);
    assert_eq!(
        first.matches("blazar: note: compiled kernel `").count(),
        2,
        "{first}"
    );
    assert!(first.contains("for the CPU (C++) in "), "{first}");
    // The second run finds both kernels in the cache: nothing is compiled.
    let second = text(&run().stderr);
    assert!(!second.contains("compiled kernel"), "{second}");
    let _ = std::fs::remove_dir_all(&cache);
}

/// `--figures DIR` (made if missing) receives the figures, listed by path when the run
/// ends, also after an error.
#[test]
fn figures_go_into_the_figures_folder() {
    let file = program(
        "figs.q",
        "plot([1, 3, 2])\ntitle(\"Line\")\nimshow(zeros(4, 4))\nerror(\"late\")\n",
    );
    let dir = std::env::temp_dir().join(format!("blazar-figs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = blazar()
        .args(["run", "--device", "cpu", "--figures"])
        .arg(&dir)
        .arg(&file)
        .output()
        .expect("runs blazar");
    assert!(!out.status.success(), "the program ends in an error");
    let stdout = text(&out.stdout);
    for name in [
        "figs_figure1_Line.png",
        "figs_figure1_Line.svg",
        "figs_figure2.png",
    ] {
        assert!(dir.join(name).is_file(), "{name} missing; output: {stdout}");
        assert!(
            stdout.contains(&dir.join(name).display().to_string()),
            "{stdout}"
        );
    }
    assert!(text(&out.stderr).contains("late"));
    let _ = std::fs::remove_dir_all(&dir);
}
