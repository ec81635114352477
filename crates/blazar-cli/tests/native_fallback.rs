//! The default CPU tier never falls back to the interpreter silently: a kernel whose
//! C++ does not build runs on the interpreter (the same results) with one note.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

#[test]
fn a_failed_build_is_noted_once_and_the_results_stay() {
    let dir = std::env::temp_dir().join(format!("blazar-fallback-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // A "compiler" that answers `--version` and fails every compile.
    let cxx = dir.join("failing-c++");
    std::fs::write(
        &cxx,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'failing c++ 1.0'; exit 0; fi\nexit 1\n",
    )
    .expect("write compiler");
    std::fs::set_permissions(&cxx, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let file = dir.join("two.q");
    std::fs::write(
        &file,
        "function [] = __kernel__ a(y : vec, pos : int)\n    y[pos] = pos\nend\n\
         function [] = __kernel__ b(y : vec, pos : int)\n    y[pos] = 2 * y[pos]\nend\n\
         y = zeros(4)\nparallel_do(4, y, a)\nparallel_do(4, y, b)\nprint y\n",
    )
    .expect("write program");
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(["run", "--device", "cpu"])
        .arg(&file)
        .env("CXX", &cxx)
        .env("BLAZAR_CACHE_DIR", dir.join("cache"))
        // Both compiles fail before the run ends (without it a short run hands them
        // to a detached process, which reports nothing).
        .env("BLAZAR_WAIT_COMPILES", "1")
        .env_remove("BLAZAR_QUIET")
        .output()
        .expect("runs blazar");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[0,2,4,6]\n");
    let notes = err.matches("runs on the interpreter").count();
    assert_eq!(notes, 1, "{err}");
    assert!(err.contains("its native code could not be built"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
