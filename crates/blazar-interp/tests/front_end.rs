//! Front-end behaviour seen through `check` and `run`: which diagnostics a program gets
//! and how statements that look alike are parsed.

use blazar_interp::{check, run, Options};
use blazar_runtime::builtins::Ctx;
mod common;

use common::Sink;

fn output_of(src: &str) -> String {
    let loaded = check("t.q", src, None);
    assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let ctx = Ctx::new(
        blazar_runtime::Prec::Single,
        Box::new(sink.clone()),
        std::env::temp_dir(),
        "t".into(),
    );
    let opts = Options {
        max_depth: 100,
        max_steps: 0,
        backend: Some(cpu()),
        ..Options::default()
    };
    run(&loaded, ctx, opts).expect("the program runs");
    let out = sink.0.borrow().clone();
    String::from_utf8(out).expect("utf-8 output")
}

#[test]
fn syntax_errors_hide_follow_up_name_errors() {
    let loaded = check("t.q", "a = 3 * * 4\nprint a\nb = ]\nprint b\n", None);
    let msgs: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs.iter().all(|m| !m.contains("undefined")), "{msgs:?}");
}

#[test]
fn name_errors_are_reported_without_syntax_errors() {
    let loaded = check("t.q", "print nothing_here\n", None);
    assert!(loaded.has_errors());
    assert!(loaded.diagnostics[0].message.contains("nothing_here"));
}

#[test]
fn print_with_a_space_before_a_bracket_prints_a_matrix() {
    assert_eq!(
        output_of("print [1, 2]\nprint [[1, 2], [3, 4]]\n"),
        "[1,2]\n[ [1,2],\n  [3,4] ]\n"
    );
    assert_eq!(output_of("x = 2\nprint [x, 3] + 1\n"), "[3,4]\n");
}

#[test]
fn print_indexed_without_a_space_is_a_variable() {
    assert_eq!(output_of("print = [5, 6]\ny = print[1]\ndisp(y)\n"), "6\n");
}

#[test]
fn calling_a_number_names_its_type() {
    let loaded = check("t.q", "f = 3\ny = f(2)\n", None);
    assert!(!loaded.has_errors());
    let ctx = Ctx::new(
        blazar_runtime::Prec::Single,
        Box::new(std::io::sink()),
        std::env::temp_dir(),
        "t".into(),
    );
    let opts = Options {
        max_depth: 100,
        max_steps: 0,
        backend: Some(cpu()),
        ..Options::default()
    };
    let err = run(&loaded, ctx, opts).expect_err("calling an int fails");
    assert!(
        err.message.contains("cannot call a value of type int"),
        "{}",
        err.message
    );
}

#[test]
fn integer_literals_beyond_int_range_are_scalars() {
    assert_eq!(
        output_of("print type(2147483647), \" \", type(2147483648)\nprint 3000000000\n"),
        "int scalar\n3000000000\n"
    );
}

/// The CPU backend on the SIMT interpreter, for the programs' kernels.
fn cpu() -> blazar_interp::BackendRef {
    blazar_interp::BackendRef::new(blazar_native::CpuBackend::default())
}

#[test]
fn windows_import_paths_fall_back_to_the_file_name_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("blazar-winimport-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("tf_lib.q"),
        "function y = tf(x)\n    y = 2 * x\nend\n",
    )
    .unwrap();
    let src = "import \"D:\\work\\denoise\\tf_lib.q\"\nprint tf(3)\n";
    let loaded = check("t.q", src, Some(dir.clone()));
    std::fs::remove_dir_all(&dir).ok();
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let warns: Vec<&str> = loaded
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(warns.len(), 1, "{warns:?}");
    assert!(
        warns[0].contains("absolute Windows path") && warns[0].contains("\"tf_lib.q\""),
        "{warns:?}"
    );
    // Missing everywhere: the error names the bare file, as for a relative import.
    let loaded = check(
        "t.q",
        "import \"E:\\x\\nowhere_at_all.q\"\n",
        Some(std::env::temp_dir()),
    );
    assert!(loaded.has_errors());
    assert!(loaded.diagnostics.iter().any(|d| d
        .message
        .contains("no file nowhere_at_all.q next to the program")));
}
