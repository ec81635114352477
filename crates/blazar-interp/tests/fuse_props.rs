//! Differential property test of fusion: random whole-array expressions (operators,
//! comparisons, logic, exact builtins, broadcasting, slices (MATLAB shapes: columns
//! `b[:, 2]`, 1×N×C cubes `c[1, :, :]`), conversions, reductions,
//! running sums; int and real arrays with NaN and infinities) print exactly the same
//! when the host evaluates them (`fuse_min: off`) and when each runs as one fused
//! kernel on the SIMT interpreter (`fuse_min: 0`). Transcendental functions are left
//! out: they are exact only to their library's error.

mod common;

use common::output;
use proptest::prelude::*;

const SETUP: &str = "\
nan = 0 / 0
inf = 1 / 0
a = [[1, -2, 0.5], [nan, 4, -inf]]
b = [[3, 0, -1.5], [2, -4, 8]]
r = [1, 2, -3]
i = int32([[7, -3, 0], [12, 5, -8]])
j = int32([[2, 0, -5], [3, 3, 1]])
c = ones(2, 3, 2) * 3 - 1
";

/// A random expression of `depth` over the setup's arrays, as source text.
fn expr(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("r".to_string()),
        Just("i".to_string()),
        Just("j".to_string()),
        Just("c[:, :, 1]".to_string()),
        Just("a[0..1, 0..2]".to_string()),
        Just("b[1, :]".to_string()),
        Just("b[:, 2]".to_string()),
        Just("a[0..1, 1]".to_string()),
        Just("c[1, :, :]".to_string()),
        Just("c[:, 0..1, 1]".to_string()),
        Just("c[0..0, 0..2, 0]".to_string()),
        Just("a .* b".to_string()),
        Just("i + j".to_string()),
        Just("2".to_string()),
        Just("0.5".to_string()),
        Just("int32(-3)".to_string()),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    let sub = expr(depth - 1);
    let bin = (
        sub.clone(),
        prop::sample::select(vec![
            "+", "-", ".*", "./", "==", "!=", "<", ">", "<=", ">=", "&&", "||",
        ]),
        sub.clone(),
    )
        .prop_map(|(x, op, y)| format!("({x} {op} {y})"));
    let un = (
        prop::sample::select(vec![
            "-", "!", "abs", "floor", "ceil", "round", "sign", "isnan", "isinf", "isfinite",
            "sqrt", "int", "uint8", "float", "frac",
        ]),
        sub.clone(),
    )
        .prop_map(|(f, x)| match f {
            "-" | "!" => format!("{f}({x})"),
            f => format!("{f}({x})"),
        });
    let two = (
        prop::sample::select(vec!["min", "max", "mod"]),
        sub.clone(),
        sub.clone(),
    )
        .prop_map(|(f, x, y)| format!("{f}({x}, {y})"));
    let sq = sub.clone().prop_map(|x| format!("({x}) .^ 2"));
    prop_oneof![leaf, bin, un, two, sq].boxed()
}

fn statement() -> impl Strategy<Value = String> {
    (
        expr(3),
        prop::sample::select(vec![
            "", "sum", "max", "min", "mean", "prod", "sum2", "cumsum0", "cumsum1", "cumprod1",
        ]),
    )
        .prop_map(|(e, red)| match red {
            "" => format!("print {e}"),
            "sum2" => format!("print sum(({e}) + b * 0, 1)"),
            "cumsum0" => format!("print cumsum(({e}) + b * 0)"),
            "cumsum1" => format!("print cumsum(({e}) + b * 0, 1)"),
            "cumprod1" => format!("print cumprod(({e}) + b * 0, 1)"),
            f => format!("print {f}(({e}) + b * 0)"),
        })
}

proptest! {
    // 300 cases in CI; `PROPTEST_CASES=N` for a longer hunt.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300),
        .. ProptestConfig::default()
    })]

    #[test]
    fn fused_expressions_print_what_the_host_prints(s in statement(), double in any::<bool>()) {
        let src = format!("{SETUP}{s}\n");
        let host = output(&src, usize::MAX, double);
        let fused = output(&src, 0, double);
        prop_assert_eq!(host, fused, "{}", src);
    }
}
