//! A run ends when its program is done, not when its background compiles are (issue
//! 25): the kernels still compiling are handed to a detached process that stores them
//! in the cache, so that the next run finds them; `BLAZAR_WAIT_COMPILES=1` waits in the
//! run instead.
//!
//! The compiler is a wrapper script (`CXX`, which the native tier honours) whose kernel
//! compiles (`-shared`) wait until the test creates a file `go`: while it does not
//! exist, no compile can finish, so a run that ended did not wait for one.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const PROGRAM: &str = "\
function [] = __kernel__ thrice(y : vec, pos : int)
    y[pos] = 3 * pos + 1
endfunction
y = zeros(5)
parallel_do(5, y, thrice)
print y
";
const WANT: &str = "[1,4,7,10,13]\n";

fn have_compiler() -> bool {
    Command::new("c++")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A fresh folder with the program and the wrapper compiler `slow-c++`, which logs
/// `PID PARENT` to `compiles` as each kernel compile starts and waits for `go`.
fn setup(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("blazar-handoff-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("p.q"), PROGRAM).unwrap();
    let cxx = d.join("slow-c++");
    std::fs::write(
        &cxx,
        format!(
            "#!/bin/sh\n\
             case \" $* \" in *\" -shared \"*)\n\
             \x20 echo \"$$ $PPID\" >> '{dir}/compiles'\n\
             \x20 while [ ! -e '{dir}/go' ]; do sleep 0.05; done ;;\n\
             esac\n\
             exec c++ \"$@\"\n",
            dir = d.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&cxx, std::fs::Permissions::from_mode(0o755)).unwrap();
    d
}

/// `blazar run` of the program under the default CPU tier with the wrapper compiler
/// and the folder's cache; stdout and stderr are pipes read to their end.
fn run(dir: &Path, wait: bool) -> (std::process::Output, u32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_blazar"));
    cmd.args(["run", "--device", "cpu"])
        .arg(dir.join("p.q"))
        .env("CXX", dir.join("slow-c++"))
        .env("BLAZAR_CACHE_DIR", dir.join("cache"))
        .env_remove("BLAZAR_WAIT_COMPILES")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if wait {
        cmd.env("BLAZAR_WAIT_COMPILES", "1");
    }
    let child = cmd.spawn().expect("runs blazar");
    let pid = child.id();
    let out = child.wait_with_output().expect("blazar ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), WANT);
    (out, pid)
}

/// The kernel entries of the cache.
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("cache").join("native"))
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "kernel"))
                .count()
        })
        .unwrap_or(0)
}

/// The kernel compiles started so far: (pid, parent pid).
fn compiles(dir: &Path) -> Vec<(u32, u32)> {
    std::fs::read_to_string(dir.join("compiles"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (a, b) = l.split_once(' ')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect()
}

/// Whether process `pid` still runs (a zombie does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let state = s.rsplit_once(')')?.1.split_whitespace().next()?.to_string();
            Some(state != "Z" && state != "X")
        })
        .unwrap_or(false)
}

/// Polls `done` every 50 ms for at most `limit`.
fn poll(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

#[test]
fn a_run_ends_before_its_compiles_and_a_filler_stores_them() {
    if !have_compiler() {
        println!("SKIP: no C++ compiler");
        return;
    }
    let dir = setup("detached");
    // No kernel compile can finish before `go` exists: the run (and its output pipes,
    // which the filler must not hold) ended without waiting for one.
    let (_, pid) = run(&dir, false);
    assert_eq!(entries(&dir), 0);
    // A compile the run itself started was stopped with it (no orphaned compiler).
    for (compiler, parent) in compiles(&dir) {
        if parent == pid {
            assert!(
                poll(Duration::from_secs(5), || !alive(compiler)),
                "the run's compiler {compiler} outlived it"
            );
        }
    }
    // The filler compiles the kernel once it may, and stores it.
    std::fs::write(dir.join("go"), "").unwrap();
    assert!(
        poll(Duration::from_secs(300), || entries(&dir) == 1),
        "no cache entry after the run: {:?}",
        compiles(&dir)
    );
    let filler = compiles(&dir);
    assert!(
        filler.iter().any(|&(_, parent)| parent != pid),
        "{filler:?}"
    );
    // The next run finds it: no compile starts.
    let (out, _) = run(&dir, false);
    assert_eq!(
        compiles(&dir),
        filler,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(entries(&dir), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn blazar_wait_compiles_fills_the_cache_before_the_run_ends() {
    if !have_compiler() {
        println!("SKIP: no C++ compiler");
        return;
    }
    let dir = setup("wait");
    std::fs::write(dir.join("go"), "").unwrap();
    let (_, pid) = run(&dir, true);
    assert_eq!(entries(&dir), 1);
    // The run compiled it itself.
    assert!(compiles(&dir).iter().all(|&(_, parent)| parent == pid));
    let _ = std::fs::remove_dir_all(&dir);
}
