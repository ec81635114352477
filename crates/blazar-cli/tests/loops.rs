//! The loop parallelizer explains itself: `blazar emit loops` gives every `for` loop's
//! decision with its reason, and `--profile` shows which loops ran as kernels.

use std::path::Path;
use std::process::Command;

fn blazar(args: &[&str]) -> (String, String, bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .current_dir(root)
        .args(args)
        .output()
        .expect("runs blazar");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn emit_loops_gives_each_decision_and_reason() {
    let (out, err, ok) = blazar(&["emit", "loops", "tests/programs/loops/stays_serial.q"]);
    assert!(ok, "{err}");
    let want = [
        ":19: kernel: 1-dimensional kernel: each iteration writes its own elements of `x`",
        ":24: serial: line 25: `y` is read at another element than the one this iteration writes",
        ":31: serial: line 33: `prev` is read before it is assigned in an iteration",
        ":38: serial: line 41: `break` or `continue` leaves the loop",
        ":48: serial: line 51: `return` leaves the function from inside the loop",
        ":57: serial: line 58: it prints",
        ":63: serial: line 64: `t` is used after the loop",
    ];
    for w in want {
        assert!(out.contains(w), "missing `{w}` in:\n{out}");
    }
}

#[test]
fn emit_loops_names_reductions_atomics_and_dimensions() {
    let (out, err, ok) = blazar(&["emit", "loops", "tests/programs/loops/reductions.q"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(
            ":90: reduction: 1-dimensional kernel: accumulates `lo` (minimum), `hi` (maximum)"
        ),
        "{out}"
    );
    assert!(
        out.contains(":120: reduction: 1-dimensional kernel: accumulates elements of `acc`"),
        "{out}"
    );
    let (out, _, _) = blazar(&["emit", "loops", "tests/programs/loops/scatter.q"]);
    assert!(
        out.contains(
            ":21: atomics: 2-dimensional kernel: updates `hist` at data-dependent indices"
        ),
        "{out}"
    );
    assert!(
        out.contains(":22: inner: a dimension of the kernel of line 21"),
        "{out}"
    );
    assert!(out.contains(":28: serial: marked serial"), "{out}");
    assert!(
        out.contains(":71: kernel: 1-dimensional kernel, forced"),
        "{out}"
    );
}

#[test]
fn loops_run_as_kernels_only_when_large_enough() {
    let (_, err, ok) = blazar(&[
        "run",
        "--device",
        "cpu",
        "--profile",
        "tests/programs/loops/stays_serial.q",
    ]);
    assert!(ok, "{err}");
    // Only the first loop (4096 independent iterations) runs as a kernel; the alias
    // loop is independent by its text but its two names share one array.
    let kernels: Vec<&str> = err.lines().filter(|l| l.contains("loop_line")).collect();
    assert_eq!(kernels.len(), 1, "{err}");
    assert!(kernels[0].contains("loop_line19"), "{err}");
}

#[test]
fn kernel_tiling_values_parse_to_what_they_say() {
    let (out, err, ok) = blazar(&["emit", "loops", "tests/programs/loops/tiling_stray_brace.q"]);
    assert!(ok, "{err}");
    assert!(out.contains("from `!kernel_tiling` on target cpu"), "{out}");
    assert!(!out.contains("cpu\""), "{out}");
    let (_, err, ok) = blazar(&["check", "tests/programs/loops/tiling_stray_brace.q"]);
    assert!(ok, "{err}");
    assert!(
        err.contains("the `}` after the last value is ignored"),
        "{err}"
    );
}
