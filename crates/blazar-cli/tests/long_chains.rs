//! Long flat chains of operators parse, check and run (issue 16): a sum of 200,000
//! terms, in host code, in a fused array expression and in a kernel, takes about a
//! second, without a depth error or a stack overflow in any pass; nesting that is
//! really deep (100,000 parentheses) or a chain past what the stack allows stays a
//! clean located error.

use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn program(name: &str, src: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("blazar-chains-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("write program");
    file
}

fn blazar(args: &[&str], file: &std::path::Path) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_blazar"))
        .args(args)
        .arg(file)
        .env("BLAZAR_QUIET", "1")
        .output()
        .expect("runs blazar");
    (out, start.elapsed())
}

fn sum_of(term: &str, n: usize) -> String {
    vec![term; n].join(" + ")
}

/// Generous bounds: about a second in a release build, a few in a debug one.
const SLOW: Duration = Duration::from_secs(20);

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_sum_of_200k_terms_checks_and_runs() {
    let file = program("sum.q", &format!("x = {}\nprint x\n", sum_of("1", 200_000)));
    let (out, t) = blazar(&["check"], &file);
    ok(&out);
    assert!(t < SLOW, "check took {t:?}");
    let (out, t) = blazar(&["run", "--device", "cpu"], &file);
    assert_eq!(ok(&out), "200000\n");
    assert!(t < SLOW, "run took {t:?}");
}

#[test]
fn long_chains_of_arrays_and_in_kernels_run_on_every_tier() {
    let file = program(
        "arrays.q",
        &format!(
            "a = ones(10)\nb = a > 0\nx = {}\nprint x[0]\nprint {}\n",
            sum_of("a", 100_000),
            vec!["b"; 50_000].join(" && ")
        ),
    );
    for fuse in ["off", "0"] {
        let (out, t) = blazar(&["run", "--device", "cpu", "--fuse-min", fuse], &file);
        assert_eq!(
            ok(&out),
            "100000\n[1,1,1,1,1,1,1,1,1,1]\n",
            "--fuse-min {fuse}"
        );
        assert!(t < SLOW, "run took {t:?}");
    }
    let file = program(
        "kernel.q",
        &format!(
            "function [] = __kernel__ k(y : vec, pos : int)\n    y[pos] = {}\nendfunction\n\
             y = zeros(4)\nparallel_do(4, y, k)\nprint y\n",
            sum_of("pos", 100_000)
        ),
    );
    for tier in ["interp", "native", "auto"] {
        let (out, t) = blazar(&["run", "--device", "cpu", "--cpu-tier", tier], &file);
        assert_eq!(ok(&out), "[0,100000,200000,300000]\n", "--cpu-tier {tier}");
        assert!(t < SLOW, "--cpu-tier {tier} took {t:?}");
    }
}

#[test]
fn deep_nesting_is_a_clean_error() {
    let deep = 100_000;
    let file = program(
        "parens.q",
        &format!("x = {}1{}\nprint x\n", "(".repeat(deep), ")".repeat(deep)),
    );
    let (out, _) = blazar(&["check"], &file);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("parens.q:1:") && err.contains("nested too deeply"),
        "{err}"
    );
    // A chain longer than the stack allows is an error too, never an overflow.
    let file = program(
        "huge.q",
        &format!("x = {}\nprint x\n", sum_of("1", 2_000_000)),
    );
    let (out, _) = blazar(&["run"], &file);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("huge.q:1:") && err.contains("too deeply nested"),
        "{err}"
    );
}

/// A kernel of 100,000 added terms in statements of 100 (each shallow): the C++
/// compiler would take minutes (its time grows with the square of the function), so
/// the native tier declines it and the launch runs on the interpreter at once.
#[test]
fn a_kernel_of_100k_terms_in_statements_runs_without_a_long_compile() {
    let mut src =
        String::from("function [] = __kernel__ k(y : vec, x : vec, pos : int)\n    s = 0.0\n");
    for _ in 0..1000 {
        src.push_str(&format!("    s = s + {}\n", sum_of("x[pos]", 100)));
    }
    src.push_str(
        "    y[pos] = s\nend\nx = ones(4)\ny = zeros(4)\nparallel_do(4, y, x, k)\nprint y\n",
    );
    let file = program("statements.q", &src);
    let (out, took) = blazar(&["run", "--device", "cpu", "--cpu-tier", "native"], &file);
    assert_eq!(ok(&out), "[100000,100000,100000,100000]\n");
    assert!(took < SLOW * 3, "took {took:?}");
    let (out, _) = blazar(&["emit", "cpp"], &file);
    assert!(ok(&out).contains("runs on the SIMT interpreter (the kernel has"));
}

/// `blazar emit cuda` of a kernel summing 200,000 terms in one expression: the printer
/// writes a chain of operators into one buffer (its text was copied into every
/// enclosing node before, quadratic: 9 s for 100,000 terms in a debug build).
#[test]
fn emitting_a_kernel_of_200k_terms_takes_linear_time() {
    let file = program(
        "emit.q",
        &format!(
            "function [] = __kernel__ k(y : vec, pos : int)\n    y[pos] = {}\nendfunction\n\
             y = zeros(4)\nparallel_do(4, y, k)\nprint y\n",
            sum_of("pos", 200_000)
        ),
    );
    for what in ["cuda", "cpp"] {
        let (out, took) = blazar(&["emit", what], &file);
        let text = ok(&out);
        assert!(took < SLOW, "emit {what} took {took:?}");
        if what == "cuda" {
            // Every term printed: `pos` is at least one character and ` + `.
            assert!(text.len() > 200_000 * 4, "{} bytes", text.len());
        }
    }
}
