//! The C++ toolchain's probe is remembered in the trusted cache: a run whose kernels are
//! all cached starts no compiler process at all (before, every run probed the compiler
//! three times and `ldd` once), and a changed compiler is probed again.

use std::path::Path;
use std::process::Command;

const PROGRAM: &str = "x = zeros(4096)\n\
function [] = __kernel__ fill(x : vec'unchecked, pos : int)\n\
    x[pos] = mod(pos, 7)\n\
endfunction\n\
parallel_do(numel(x), x, fill)\n\
print sum(x)\n";

/// A compiler wrapper that counts its runs in `log` and then runs the real `c++`.
fn wrapper(dir: &Path, log: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let w = dir.join("cxx-wrapper");
    std::fs::write(
        &w,
        format!(
            "#!/bin/sh\necho run >> '{}'\nexec c++ \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&w, std::fs::Permissions::from_mode(0o700)).unwrap();
    w
}

fn run(dir: &Path, cxx: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu", "--cpu-tier", "native"])
        .arg(dir.join("p.q"))
        .env("BLAZAR_CACHE_DIR", dir.join("cache"))
        .env("CXX", cxx)
        .output()
        .expect("runs blazar");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn runs(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |t| t.lines().count())
}

#[test]
fn a_cached_run_starts_no_compiler() {
    if Command::new("c++").arg("--version").output().is_err() {
        eprintln!("skipped: no C++ compiler");
        return;
    }
    let dir = std::env::temp_dir().join(format!("blazar-tc-memo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.q"), PROGRAM).unwrap();
    let log = dir.join("log");
    let cxx = wrapper(&dir, &log);
    let first = run(&dir, &cxx);
    assert!(runs(&log) >= 2, "the first run probes and compiles");
    let names: Vec<String> = std::fs::read_dir(dir.join("cache").join("native"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with("toolchain-")),
        "{names:?}"
    );
    let before = runs(&log);
    assert_eq!(run(&dir, &cxx), first);
    assert_eq!(runs(&log), before, "the second run ran the compiler");
    // A changed compiler (here: its wrapper rewritten) is probed again.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let text = std::fs::read_to_string(&cxx).unwrap();
    std::fs::write(&cxx, format!("{text}# changed\n")).unwrap();
    assert_eq!(run(&dir, &cxx), first);
    assert!(runs(&log) > before, "the changed compiler was not probed");
    let _ = std::fs::remove_dir_all(&dir);
}
