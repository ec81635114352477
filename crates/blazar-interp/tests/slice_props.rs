//! Property test of the slice and rank rules against a reference written here: random
//! arrays of rank 1 to 4 indexed with random scalar, range and `:` arguments give the
//! dims of the MATLAB rule (each indexed dimension keeps its extent, 1 for a scalar;
//! trailing singletons drop down to two; 1×N is a vec) and the elements of the
//! cartesian product in row-major order, on the host and fused into a kernel alike; and
//! a lower-rank array passed to a higher-rank parameter is promoted (vec → 1×N mat, mat
//! → M×N×1 cube, in host functions and kernels) with its elements unchanged.

mod common;

use common::output;
use proptest::prelude::*;

/// One index argument: a scalar, an inclusive range with a step, or `:`.
#[derive(Clone, Debug)]
enum Arg {
    One(usize),
    Range(usize, i64, usize),
    All,
}

impl Arg {
    fn text(&self) -> String {
        match self {
            Arg::One(i) => i.to_string(),
            Arg::Range(a, 1, b) => format!("{a}..{b}"),
            Arg::Range(a, s, b) => format!("{a}..{s}..{b}"),
            Arg::All => ":".into(),
        }
    }

    fn coords(&self, n: usize) -> Vec<usize> {
        match *self {
            Arg::One(i) => vec![i],
            Arg::All => (0..n).collect(),
            Arg::Range(a, s, b) => {
                let mut out = Vec::new();
                let mut i = a as i64;
                while (s > 0 && i <= b as i64) || (s < 0 && i >= b as i64) {
                    out.push(i as usize);
                    i += s;
                }
                out
            }
        }
    }
}

fn arg(n: usize) -> BoxedStrategy<Arg> {
    prop_oneof![
        (0..n).prop_map(Arg::One),
        Just(Arg::All),
        (0..n, 0..n, prop::sample::select(vec![1i64, 2, -1])).prop_map(|(a, b, s)| {
            if s > 0 {
                Arg::Range(a.min(b), s, a.max(b))
            } else {
                Arg::Range(a.max(b), s, a.min(b))
            }
        }),
    ]
    .boxed()
}

fn case() -> impl Strategy<Value = (Vec<usize>, Vec<Arg>)> {
    prop::collection::vec(1usize..4, 2..=4).prop_flat_map(|dims| {
        let args: Vec<_> = dims.iter().map(|&n| arg(n)).collect();
        (Just(dims), args)
    })
}

/// The reference: dims by the MATLAB rule and the elements in row-major order.
fn reference(dims: &[usize], args: &[Arg]) -> (Vec<usize>, Vec<usize>) {
    let lists: Vec<Vec<usize>> = args.iter().zip(dims).map(|(a, &n)| a.coords(n)).collect();
    let mut shape: Vec<usize> = lists.iter().map(Vec::len).collect();
    while shape.len() > 2 && shape.last() == Some(&1) {
        shape.pop();
    }
    if shape.len() == 2 && shape[0] == 1 {
        shape.remove(0);
    }
    let mut elems = vec![0usize];
    for (d, l) in lists.iter().enumerate() {
        let stride: usize = dims[d + 1..].iter().product();
        elems = elems
            .iter()
            .flat_map(|&base| l.iter().map(move |&c| base + c * stride))
            .collect();
    }
    (shape, elems)
}

fn list(v: &[usize]) -> String {
    let items: Vec<String> = v.iter().map(usize::to_string).collect();
    format!("[{}]", items.join(","))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(200),
        .. ProptestConfig::default()
    })]

    #[test]
    fn slices_keep_dimensions_as_matlab_does((dims, args) in case()) {
        prop_assume!(!args.iter().all(|a| matches!(a, Arg::One(_))));
        let n: usize = dims.iter().product();
        let idx: Vec<String> = args.iter().map(Arg::text).collect();
        let src = format!(
            "x = reshape(0..{}, {})\ny = x[{}] + 0\nprint size(y)\nprint y[0..numel(y) - 1]\n",
            n - 1,
            list(&dims),
            idx.join(", ")
        );
        let (shape, elems) = reference(&dims, &args);
        let want_size = if shape.len() == 1 {
            list(&[1, shape[0]])
        } else {
            list(&shape)
        };
        let want = format!("{want_size}\n{}\n", list(&elems));
        let host = output(&src, usize::MAX, false);
        prop_assert_eq!(&host, &want, "{}", src);
        let fused = output(&src, 0, false);
        prop_assert_eq!(&fused, &want, "{}", src);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(60),
        .. ProptestConfig::default()
    })]

    #[test]
    fn lower_ranks_are_promoted((m, n, i, j) in (1usize..5, 1usize..5).prop_flat_map(|(m, n)| (Just(m), Just(n), 0..m, 0..n))) {
        // A mat given for a cube (host function and kernel), a vec for a mat.
        let src = format!(
            "function y = host(x : cube, i : int, j : int)\n\
             \x20 [M, N, C] = size(x)\n\
             \x20 y = [M, N, C, x[i, j, 0]]\n\
             end\n\
             function [] = __kernel__ k(x : cube, y : mat, pos : ivec3)\n\
             \x20 y[pos[0], pos[1]] = 2 * x[pos[0], pos[1], pos[2]]\n\
             end\n\
             function y = row(v : mat, j : int)\n\
             \x20 y = [size(v, 0), v[0, j]]\n\
             end\n\
             x = reshape(0..{last}, [{m}, {n}]) + 0.0\n\
             print host(x, {i}, {j})\n\
             y = zeros({m}, {n})\n\
             parallel_do(size(x), x, y, k)\n\
             print y[{i}, {j}]\n\
             print row(0..{nl}, {j})\n",
            last = m * n - 1,
            nl = n - 1,
        );
        let e = i * n + j;
        let want = format!("[{m},{n},1,{e}]\n{}\n[1,{j}]\n", 2 * e);
        let host = output(&src, usize::MAX, false);
        prop_assert_eq!(&host, &want, "{}", src);
    }
}
