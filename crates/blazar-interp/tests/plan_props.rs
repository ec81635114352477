//! Differential property test of the interpreter's plans (`plan.rs`): random host code
//! of scalars (reals, ints, 8-bit ints that wrap, element reads and writes, `if`,
//! `for`, `while`, `repeat`, `break`, `continue`, `&&`, `||`, builtins, values that
//! stop being scalars, errors) prints exactly the same, and fails with the same
//! message at the same place, when its bodies run as plans and when they run on the
//! general statement path (which `--profile` keeps).

mod common;

use blazar_interp::{check, run_profiled, BackendRef, HostTier, Options};
use blazar_native::CpuBackend;
use common::Sink;
use proptest::prelude::*;

/// What `src` printed, then its error (message and place), with or without plans.
fn output(src: &str, plans: bool, double: bool) -> String {
    let loaded = check("plan.q", src, None);
    assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let ctx = common::ctx(&sink, double);
    let opts = Options {
        backend: Some(BackendRef::new(CpuBackend::default())),
        host_tier: HostTier::Interp,
        // The profiler watches every statement: the general path runs them.
        profile: !plans,
        max_steps: 20_000,
        // Deep enough for runaway recursion to fail within a test thread's stack.
        max_depth: 150,
        ..Options::default()
    };
    let (r, _) = run_profiled(&loaded, ctx, opts);
    let mut out = String::from_utf8_lossy(&sink.0.borrow()).into_owned();
    if let Err(d) = r {
        let at = d.span.map(|s| (s.lo, s.hi));
        out.push_str(&format!("ERROR: {} at {at:?}", d.message));
    }
    out
}

const SETUP: &str = "\
a = 0.5
b = 3
c = int8(100)
x = [1.5, -2, 3, 0.25, 7]
m = zeros(3, 4)
k = 0
g = 0
";

/// A scalar expression (sometimes one that fails or is not a scalar).
fn expr() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("c".to_string()),
        Just("k".to_string()),
        Just("g".to_string()),
        Just("x[mod(b, 5)]".to_string()),
        Just("x[k]".to_string()),
        Just("m[mod(k, 3), mod(b, 4)]".to_string()),
        (-4i32..9).prop_map(|c| c.to_string()),
        Just("0.1".to_string()),
        Just("2.5".to_string()),
        Just("int8(-7)".to_string()),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} + {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} - {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} * {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} / {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} < {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} == {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} && {q})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("({p} || {q})")),
            inner.clone().prop_map(|p| format!("-{p}")),
            inner.clone().prop_map(|p| format!("!{p}")),
            inner.clone().prop_map(|p| format!("floor({p})")),
            inner.clone().prop_map(|p| format!("abs({p})")),
            (inner.clone(), inner.clone()).prop_map(|(p, q)| format!("mod({p}, {q})")),
            (inner.clone(), inner).prop_map(|(p, q)| format!("max({p}, {q})")),
        ]
        .boxed()
    })
    .boxed()
}

/// A statement of a loop body or of the script.
fn stmt(depth: u32) -> BoxedStrategy<String> {
    let simple = prop_oneof![
        4 => (prop_oneof![Just("a"), Just("b"), Just("c")], prop_oneof![Just("="), Just("+="), Just("-="), Just("*=")], expr())
            .prop_map(|(v, op, e)| format!("{v} {op} {e}\n")),
        2 => (expr(), expr()).prop_map(|(i, e)| format!("x[mod(abs(floor({i})), 6)] = {e}\n")),
        1 => expr().prop_map(|e| format!("m[mod(k, 3), 1] += {e}\n")),
        1 => expr().prop_map(|e| format!("x[k] -= {e}\n")),
        1 => Just("print a, \" \", b, \" \", c\n".to_string()),
        1 => Just("a = [1, 2]\n".to_string()),
        1 => Just("b = \"s\"\n".to_string()),
        1 => Just("a = 0.5\n".to_string()),
        1 => Just("b = 3\n".to_string()),
    ];
    if depth == 0 {
        return simple.boxed();
    }
    let body = prop::collection::vec(stmt(depth - 1), 1..4).prop_map(|v| v.concat());
    prop_oneof![
        6 => simple,
        1 => (expr(), body.clone(), body.clone())
            .prop_map(|(c, t, e)| format!("if {c}\n{t}else\n{e}end\n")),
        1 => (0i32..3, 0i32..6, body.clone())
            .prop_map(|(lo, hi, b)| format!("for k = {lo}..{hi}\n{b}end\n")),
        1 => (expr(), body.clone())
            .prop_map(|(c, b)| format!("g = 0\nwhile g < 5 && {c}\ng += 1\n{b}end\n")),
        1 => (body.clone(), expr())
            .prop_map(|(b, c)| format!("g = 0\nrepeat\ng += 1\n{b}until g > 3 || {c}\n")),
        1 => (expr(), body.clone())
            .prop_map(|(c, b)| format!("for k = 0..4\nif {c}\nbreak\nend\n{b}end\n")),
        1 => (expr(), body)
            .prop_map(|(c, b)| format!("for k = 4..-1..0\nif {c}\ncontinue\nend\n{b}end\n")),
    ]
    .boxed()
}

fn program() -> impl Strategy<Value = String> {
    prop::collection::vec(stmt(2), 1..6).prop_map(|v| {
        format!(
            "{SETUP}{}print a, \" \", b, \" \", c, \" \", k, \" \", g\nprint x\nprint m\n",
            v.concat()
        )
    })
}

proptest! {
    // 96 cases in CI; `PROPTEST_CASES=N` for a longer hunt.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(96),
        ..ProptestConfig::default()
    })]

    #[test]
    fn plans_print_what_the_general_path_prints(src in program(), double in any::<bool>()) {
        let general = output(&src, false, double);
        let planned = output(&src, true, double);
        prop_assert_eq!(general, planned, "program:\n{}", src);
    }
}

/// The step budget and its error are the same with plans (a loop that never ends).
#[test]
fn plans_count_steps_as_the_general_path() {
    let src = "s = 0\nwhile 1 > 0\n    s += 1\nend\n";
    let general = output(src, false, false);
    let planned = output(src, true, false);
    assert!(general.contains("step budget"), "{general}");
    assert_eq!(general, planned);
}

/// Calls of user functions from plans (`StepKind::Call`) give the general path's
/// values, conversions and errors (with the call stack).
#[test]
fn plan_calls_match_the_general_path() {
    let programs = [
        "function y = f(x)\n    y = 0.5*x + 1\nend\ns = 0.\nfor i = 1..10\n    s = f(s)\nend\nprint s\n",
        "function y = g(n : int)\n    y = n * 2\nend\ns = 0\nfor i = 1..4\n    s = g(i)\n    print s\nend\ns = g(2.5)\n",
        "function y = h(x)\n    y = x[3]\nend\nv = [1, 2]\nfor i = 1..3\n    s = h(v)\nend\n",
        "function y = k(x)\n    if x > 2\n        y = x\n    end\nend\nfor i = 0..4\n    s = k(i)\n    print s\nend\n",
        "function y = r(n)\n    if n < 2\n        y = n\n    else\n        y = r(n - 1) + r(n - 2)\n    end\nend\nfor i = 0..12\n    s = r(i)\nend\nprint s\n",
        "function y = deep(n)\n    y = deep(n + 1)\nend\ns = deep(0)\n",
        "function y = p(a, b)\n    print a, \" \", b\n    y = [a, b]\nend\nfor i = 0..2\n    s = p(i, i / 2)\nend\nprint s\n",
    ];
    for src in programs {
        for double in [false, true] {
            let general = output(src, false, double);
            let planned = output(src, true, double);
            assert_eq!(general, planned, "program:\n{src}");
        }
    }
}
