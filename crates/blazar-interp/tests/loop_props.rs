//! Differential property test of the loop parallelizer: random host `for` loops
//! (independent element writes, gathers, conditionals, scalar and element reductions
//! with `+= -=`, `min`, `max`, atomic scatters, two-level nests, carried values and two
//! names for one array that must stay serial) print exactly the same when every loop
//! runs in the interpreter (`fuse_min: off`) and when every loop the analysis accepts
//! runs as a kernel on the CPU backend (`fuse_min: 0`). Values are small integers, so sums in any order agree.

mod common;

use common::output;
use proptest::prelude::*;

const SETUP: &str = "\
N = 37
x = zeros(N)
w = zeros(N)
for k = 0..N - 1
    x[k] = mod(k * 7, 11) - 5
    w[k] = mod(k * 3, 5)
end
y = zeros(N)
h = zeros(6)
m = zeros(5, 8)
s = 3
t = -2
lo = 100
hi = -100
";

/// A small integer expression of the loop index `i` (reads stay inside the arrays).
fn value() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just("x[i]".to_string()),
        Just("w[i]".to_string()),
        Just("x[N - 1 - i]".to_string()),
        Just("w[mod(i * 5, N)]".to_string()),
        Just("i".to_string()),
        (-3i32..4).prop_map(|c| c.to_string()),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} + {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} - {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("max({a}, {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("({a} > {b})")),
        ]
        .boxed()
    })
    .boxed()
}

/// One loop over `i = 0..N-1` (or a nest), as source text.
fn a_loop() -> impl Strategy<Value = String> {
    prop_oneof![
        value().prop_map(|e| format!("for i = 0..N - 1\n    y[i] = {e}\nend\n")),
        (value(), value()).prop_map(|(c, e)| format!(
            "for i = 0..N - 1\n    if {c} > 0\n        y[i] = {e}\n    else\n        y[i] = -1\n    end\nend\n"
        )),
        (value(), value()).prop_map(|(a, b)| format!(
            "for i = 0..N - 1\n    s += {a}\n    t -= {b}\nend\n"
        )),
        (value(), value()).prop_map(|(a, b)| format!(
            "for i = 0..N - 1\n    lo = min(lo, {a})\n    hi = max({b}, hi)\nend\n"
        )),
        value().prop_map(|e| format!(
            "for i = 0..N - 1\n    h[mod(abs({e}), 6)] += 1\nend\n"
        )),
        (value(), value()).prop_map(|(a, b)| format!(
            "for i = 0..N - 1\n    h[2] += {a}\n    h[4] -= {b}\nend\n"
        )),
        value().prop_map(|e| format!(
            "for i = 1..N - 1\n    y[i] = y[i - 1] + {e}\nend\n"
        )),
        value().prop_map(|e| format!(
            "for a = 0..4\n    for b = 0..7\n        i = mod(a * 8 + b, N)\n        m[a, b] = {e} + a - b\n    end\nend\n"
        )),
        value().prop_map(|e| format!(
            "for i = 0..N - 1\n    v = {e}\n    y[i] = v * 2\nend\n"
        )),
        value().prop_map(|e| format!(
            "z = y\nfor i = 1..N - 1\n    z[i] = y[i - 1] + {e}\nend\n"
        )),
        value().prop_map(|e| format!(
            "for a = 0..4\n    for b = 0..7\n        i = mod(a + b, N)\n        s += {e} * (a - b)\n    end\nend\n"
        )),
    ]
}

fn program() -> impl Strategy<Value = String> {
    prop::collection::vec(a_loop(), 1..4).prop_map(|loops| {
        format!(
            "{SETUP}{}print y\nprint h\nprint m\nprint s, \" \", t, \" \", lo, \" \", hi\n",
            loops.concat()
        )
    })
}

proptest! {
    // 64 cases in CI; `PROPTEST_CASES=N` for a longer hunt.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(64),
        ..ProptestConfig::default()
    })]

    #[test]
    fn parallel_loops_print_what_serial_loops_print(src in program()) {
        let serial = output(&src, usize::MAX, false);
        let parallel = output(&src, 0, false);
        prop_assert_eq!(serial, parallel, "program:\n{}", src);
    }
}
