//! `blazar emit air`: the AIR regions a program's whole-array expressions form, named as
//! their kernels, under `--fuse-min` as `run` takes it.

use std::process::Command;

/// Runs `blazar emit air` with `flags` on a program, one region per statement (fusion
/// across statements off): (stdout, stderr, success).
fn emit_air(name: &str, src: &str, flags: &[&str]) -> (String, String, bool) {
    emit_air_with(name, src, flags, "off")
}

fn emit_air_with(name: &str, src: &str, flags: &[&str], groups: &str) -> (String, String, bool) {
    let dir = std::env::temp_dir().join(format!("blazar-emit-air-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("write program");
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .env_remove("BLAZAR_FUSE_MIN")
        .env("BLAZAR_FUSE_STATEMENTS", groups)
        .args(["emit", "air"])
        .args(flags)
        .arg(&file)
        .output()
        .expect("runs blazar");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

const PROGRAM: &str = "x = ones(4, 3)\n\
    y = 2 * x + 1\n\
    s = sum(y .* x)\n\
    print s\n";

#[test]
fn every_region_is_printed_with_its_kernel_name() {
    let (out, err, ok) = emit_air("regions.q", PROGRAM, &["--fuse-min", "0"]);
    assert!(ok, "{err}");
    // The program's output is not shown.
    assert!(!out.contains("36"), "{out}");
    let want = "region array_line2: rank 2, flat\n\
        \x20 in0 = array f32, rank 2\n\
        \x20 %0: f32 = in0\n\
        \x20 %1: f32 = const 2.0\n\
        \x20 %2: f32 = mul %1, %0\n\
        \x20 %3: f32 = const 1.0\n\
        \x20 %4: f32 = add %2, %3\n\
        \x20 result %4\n";
    assert!(out.contains(want), "missing\n{want}in:\n{out}");
    let sum = out
        .split("\n\n")
        .find(|r| r.starts_with("region array_line3:"))
        .unwrap_or_else(|| panic!("no region of line 3 in:\n{out}"));
    assert!(sum.contains(" = mul %"), "{sum}");
    assert!(sum.ends_with("  result sum(%2) in f64"), "{sum}");
    assert_eq!(out.matches("region ").count(), 2, "{out}");
}

#[test]
fn fuse_min_decides_which_expressions_form_regions() {
    // Small arrays stay on the host under the backend's threshold, and under `off`.
    for flags in [&[][..], &["--fuse-min", "off"][..]] {
        let (out, err, ok) = emit_air("small.q", PROGRAM, flags);
        assert!(ok, "{err}");
        assert!(out.starts_with("% the program formed no regions"), "{out}");
    }
    // A threshold between the sizes: only the large array's statement is fused.
    let src = "a = ones(100)\nb = a + 1\nc = ones(10)\nd = c + 1\nprint sum(b) + sum(d)\n";
    let (out, err, ok) = emit_air("threshold.q", src, &["--fuse-min", "50"]);
    assert!(ok, "{err}");
    assert!(out.contains("region array_line2:"), "{out}");
    assert!(!out.contains("region array_line4:"), "{out}");
}

#[test]
fn a_failing_program_shows_its_regions_and_its_error() {
    let src = "x = ones(8)\ny = x .* 3\nz = y[20]\n";
    let (out, err, ok) = emit_air("fails.q", src, &["--fuse-min", "0"]);
    assert!(!ok);
    assert!(out.contains("region array_line2:"), "{out}");
    assert!(err.contains("fails.q:3:"), "{err}");
}

#[test]
fn a_fused_group_of_statements_is_one_region_named_by_its_lines() {
    // `y` and `x` die with line 3: the three statements are one kernel reading `x` once.
    let (out, err, ok) = emit_air_with("groups.q", PROGRAM, &["--fuse-min", "0"], "on");
    assert!(ok, "{err}");
    assert!(
        out.starts_with("region array_line3 (fused statements, lines 1-3): rank 2, flat\n"),
        "{out}"
    );
    assert!(
        out.contains("  %6: f32 = mul %4, %5\n  result sum(%6) in f64"),
        "{out}"
    );
    assert_eq!(out.matches("region ").count(), 1, "{out}");
}
