//! Strips of reductions, comparisons, `min`/`max`, `^` and vector math: each kernel is
//! checked to be taken by the strips and run over chunk sizes that leave threads for
//! the scalar tail, against the values the threads compute one by one.

use crate::compile;
use crate::strip::plan;
use crate::tests::{call, garr};
use blazar_kir::*;

const F: Ty = Ty::Scalar(Scalar::F32);

/// A value to store and the element it should give for each `x`.
type Case = (Expr, fn(f32) -> f32);

fn pos() -> Expr {
    Expr::new(ExprKind::Special(Special::Pos), Ty::I32)
}

fn x() -> Expr {
    Expr::new(
        ExprKind::Load {
            arr: 0,
            index: vec![pos()],
            at: Default::default(),
        },
        F,
    )
}

fn c(v: f64) -> Expr {
    Expr::new(ExprKind::Const(Const::Float(v)), F)
}

fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

fn cast(a: Expr, ty: Ty) -> Expr {
    Expr::new(ExprKind::Cast(Box::new(a)), ty)
}

fn array(name: &str) -> ArrayDecl {
    ArrayDecl {
        name: name.into(),
        ty: Ty::Array(ArrayTy {
            elem: Scalar::F32,
            rank: 1,
            read: ReadMode::Unchecked,
            write: WriteMode::Unchecked,
            is_const: false,
            space: Space::Global,
        }),
    }
}

/// A kernel over `x` (slot 0) and `y` (slot 1) with `body` and `outputs`.
fn kernel(body: Vec<StmtKind>, outputs: Vec<(Scalar, AtomicOp)>) -> Kernel {
    Kernel {
        name: "s".into(),
        rank: 1,
        params: vec![
            Param {
                name: "x".into(),
                bind: Bind::Array(0),
            },
            Param {
                name: "y".into(),
                bind: Bind::Array(1),
            },
        ],
        outputs: outputs
            .into_iter()
            .enumerate()
            .map(|(i, (ty, op))| Output {
                name: format!("o{i}"),
                ty,
                op,
            })
            .collect(),
        vars: vec![],
        arrays: vec![array("x"), array("y")],
        body: body
            .into_iter()
            .map(|kind| Stmt { kind, line: 1 })
            .collect(),
        calls: Default::default(),
        facts: Default::default(),
    }
}

fn store(value: Expr) -> StmtKind {
    StmtKind::Store {
        arr: 1,
        index: vec![pos()],
        value,
        at: Default::default(),
    }
}

/// Runs `k` over `x` in chunks of `chunk`: `y` and the outputs' result bytes.
fn run(k: &Kernel, x: &mut [f32], chunk: usize) -> (Vec<f32>, Vec<[u8; 16]>) {
    let code = compile(k, &[0, 0]).expect("compiles");
    let n = x.len();
    let mut y = vec![0f32; n];
    let arrs = [garr(x.as_mut_ptr(), &[n]), garr(y.as_mut_ptr(), &[n])];
    let (rc, err, outs) = call(&code, &arrs, &[n], chunk, k.outputs.len());
    assert_eq!((rc, err.code), (0, 0));
    (y, outs)
}

fn f32_of(b: &[u8; 16]) -> f32 {
    f32::from_ne_bytes([b[0], b[1], b[2], b[3]])
}

fn i64_of(b: &[u8; 16]) -> i64 {
    i64::from_ne_bytes(b[..8].try_into().expect("8 bytes"))
}

fn f64_of(b: &[u8; 16]) -> f64 {
    f64::from_ne_bytes(b[..8].try_into().expect("8 bytes"))
}

/// Test data: negative and positive values, zeros of both signs, NaNs.
fn data(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| match i % 11 {
            3 => f32::NAN,
            5 => -0.0,
            7 => 0.0,
            _ => (i as f32 * 37.0) % 251.0 - 100.0,
        })
        .collect()
}

const CHUNKS: [usize; 5] = [1, 4, 7, 64, 512];

#[test]
fn a_maximum_and_its_count_of_numbers_run_in_strips() {
    // `acc max= x[pos]`, `seen += i64(x[pos] == x[pos])`, as `max(x)` is lowered.
    let seen = cast(
        bin(BinOp::Eq, x(), x(), Ty::Scalar(Scalar::Bool)),
        Ty::Scalar(Scalar::I64),
    );
    let k = kernel(
        vec![
            StmtKind::Accumulate {
                output: 1,
                value: seen,
            },
            StmtKind::Accumulate {
                output: 0,
                value: x(),
            },
        ],
        vec![(Scalar::F32, AtomicOp::Max), (Scalar::I64, AtomicOp::Add)],
    );
    assert!(plan(&k).is_some(), "the strips take it");
    for n in [1usize, 5, 37, 1000] {
        let mut v = data(n);
        let want_max = v
            .iter()
            .copied()
            .filter(|v| !v.is_nan())
            .fold(f32::NEG_INFINITY, f32::max);
        let want_seen = v.iter().filter(|v| !v.is_nan()).count() as i64;
        for chunk in CHUNKS {
            let (_, outs) = run(&k, &mut v, chunk);
            assert_eq!(f32_of(&outs[0]), want_max, "n {n}, chunk {chunk}");
            assert_eq!(i64_of(&outs[1]), want_seen, "n {n}, chunk {chunk}");
        }
    }
}

#[test]
fn a_maximum_of_signed_zeros_and_nans_keeps_the_first_zero() {
    // `acc max= x[pos]` over zeros of both signs, NaNs and -1, element 0 a zero: the
    // zero it gives, sign included, is element 0's, as with one thread a work item (no
    // strips; the partials folded in thread order): the strip lane holding element 0
    // is folded first, and equal values keep the first.
    let k = kernel(
        vec![StmtKind::Accumulate {
            output: 0,
            value: x(),
        }],
        vec![(Scalar::F32, AtomicOp::Max)],
    );
    assert!(plan(&k).is_some(), "the strips take it");
    for first in [-0.0f32, 0.0] {
        let mut v: Vec<f32> = (0..203)
            .map(|i| match i % 5 {
                0 => first,
                1 => f32::NAN,
                2 => -1.0,
                _ => -first,
            })
            .collect();
        let (_, one) = run(&k, &mut v, 1);
        for chunk in [64, 512] {
            let (_, outs) = run(&k, &mut v, chunk);
            assert_eq!(
                f32_of(&outs[0]).to_bits(),
                f32_of(&one[0]).to_bits(),
                "first zero {first}, chunk {chunk}"
            );
        }
    }
}

#[test]
fn a_sum_of_f32_values_runs_in_f64_strips() {
    let k = kernel(
        vec![StmtKind::Accumulate {
            output: 0,
            value: cast(x(), Ty::Scalar(Scalar::F64)),
        }],
        vec![(Scalar::F64, AtomicOp::Add)],
    );
    assert!(plan(&k).is_some(), "the strips take it");
    // Small integers: every order of summation gives the same f64.
    let mut v: Vec<f32> = (0..999).map(|i| ((i * 7) % 255) as f32 - 50.0).collect();
    let want: f64 = v.iter().map(|&v| v as f64).sum();
    for chunk in CHUNKS {
        let (_, outs) = run(&k, &mut v, chunk);
        assert_eq!(f64_of(&outs[0]), want, "chunk {chunk}");
    }
}

#[test]
fn min_max_with_a_scalar_and_comparisons_run_in_strips() {
    let bool_t = Ty::Scalar(Scalar::Bool);
    let cases: Vec<Case> = vec![
        // `max(x, 100)`: 100 where x is NaN (the other operand), x where equal.
        (bin(BinOp::Max, x(), c(100.0), F), |v| {
            if v.is_nan() || 100.0 > v {
                100.0
            } else {
                v
            }
        }),
        (bin(BinOp::Min, c(-0.0), x(), F), |v| {
            if v.is_nan() {
                -0.0
            } else if v < -0.0 {
                v
            } else {
                -0.0
            }
        }),
        // Signed zeros against both operand orders: the first operand where they are
        // equal, the other where one is NaN (as the threads compute, bit for bit).
        (bin(BinOp::Max, x(), c(0.0), F), |v| lane_max(v, 0.0)),
        (bin(BinOp::Max, c(-0.0), x(), F), |v| lane_max(-0.0, v)),
        (bin(BinOp::Min, x(), c(0.0), F), |v| lane_min(v, 0.0)),
        (bin(BinOp::Max, x(), x(), F), |v| lane_max(v, v)),
        // `f32(x > 20)`.
        (cast(bin(BinOp::Gt, x(), c(20.0), bool_t), F), |v| {
            (v > 20.0) as u8 as f32
        }),
        (cast(bin(BinOp::Ne, x(), x(), bool_t), F), |v| {
            v.is_nan() as u8 as f32
        }),
    ];
    for (value, want) in cases {
        let k = kernel(vec![store(value)], vec![]);
        assert!(plan(&k).is_some(), "the strips take it");
        let mut v = data(203);
        for chunk in CHUNKS {
            let (y, _) = run(&k, &mut v, chunk);
            for (i, (&a, &b)) in v.iter().zip(&y).enumerate() {
                assert_eq!(
                    b.to_bits(),
                    want(a).to_bits(),
                    "x = {a} at {i}, chunk {chunk}"
                );
            }
        }
    }
}

/// The language's `max(a, b)`: `b` when `a` is NaN, else `b` only when it is greater.
fn lane_max(a: f32, b: f32) -> f32 {
    if a.is_nan() || b > a {
        b
    } else {
        a
    }
}

/// The language's `min(a, b)`: `b` when `a` is NaN, else `b` only when it is less.
fn lane_min(a: f32, b: f32) -> f32 {
    if a.is_nan() || b < a {
        b
    } else {
        a
    }
}

/// Units in the last place between two finite `f32`s of one sign.
fn ulps(a: f32, b: f32) -> u32 {
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
}

#[test]
fn powers_and_math_functions_run_in_strips_within_4_ulp() {
    let Some(_) = crate::vmath::pow(Scalar::F32) else {
        eprintln!("no vector math library here: the strips decline math calls");
        return;
    };
    // `255 * (x / 255) ^ 0.45` (against the host's `^`: f64, rounded once) and
    // `exp(-x / 64)`.
    let gamma = bin(
        BinOp::Mul,
        c(255.0),
        bin(
            BinOp::Pow,
            bin(BinOp::Div, x(), c(255.0), F),
            c(0.45f32 as f64),
            F,
        ),
        F,
    );
    let exp = Expr::new(
        ExprKind::Math(
            MathFn::Exp,
            vec![bin(
                BinOp::Div,
                Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(x())), F),
                c(64.0),
                F,
            )],
        ),
        F,
    );
    let cases: Vec<Case> = vec![
        (gamma, |v| {
            255.0 * ((v / 255.0) as f64).powf(0.45f32 as f64) as f32
        }),
        (exp, |v| (-v / 64.0).exp()),
    ];
    for (value, want) in cases {
        let k = kernel(vec![store(value)], vec![]);
        assert!(plan(&k).is_some(), "the strips take it");
        let mut v: Vec<f32> = (0..301).map(|i| i as f32 * 0.85).collect();
        for chunk in CHUNKS {
            let (y, _) = run(&k, &mut v, chunk);
            for (&a, &b) in v.iter().zip(&y) {
                assert!(ulps(b, want(a)) <= 4, "x = {a}: {b} against {}", want(a));
            }
        }
    }
}

#[test]
fn vector_powers_keep_the_hosts_special_values() {
    if crate::vmath::pow(Scalar::F32).is_none() {
        return;
    }
    let special = [
        f32::NEG_INFINITY,
        -0.0,
        0.0,
        f32::INFINITY,
        f32::NAN,
        1.0,
        -1.0,
        -2.5,
        0.5,
        3.0,
        1e-30,
        7e30,
    ];
    let mut v: Vec<f32> = (0..96).map(|i| special[i % special.len()]).collect();
    for e in [0.5f32, 0.45, 2.0, -1.5, 0.0, f32::NAN, f32::INFINITY] {
        let k = kernel(vec![store(bin(BinOp::Pow, x(), c(e as f64), F))], vec![]);
        assert!(plan(&k).is_some(), "the strips take it");
        let (y, _) = run(&k, &mut v, 64);
        for (&a, &b) in v.iter().zip(&y) {
            let want = (a as f64).powf(e as f64) as f32;
            let same = if want.is_finite() && want != 0.0 {
                want.is_sign_negative() == b.is_sign_negative() && ulps(b, want) <= 4
            } else {
                b.to_bits() == want.to_bits() || (b.is_nan() && want.is_nan())
            };
            assert!(same, "{a} ^ {e}: {b} against {want}");
        }
    }
}

#[test]
fn a_value_read_twice_calls_its_power_once_per_strip() {
    if crate::vmath::pow(Scalar::F32).is_none() {
        return;
    }
    // `y = 255 * (x / 255) ^ 0.45; t = y > 128; e = sum(t .* y)` as one fused kernel:
    // `y` appears twice in the tree, the strip computes its power once.
    let y = || {
        bin(
            BinOp::Mul,
            c(255.0),
            bin(
                BinOp::Pow,
                bin(BinOp::Div, x(), c(255.0), F),
                c(0.45f32 as f64),
                F,
            ),
            F,
        )
    };
    let t = cast(bin(BinOp::Gt, y(), c(128.0), Ty::Scalar(Scalar::Bool)), F);
    let value = cast(bin(BinOp::Mul, t, y(), F), Ty::Scalar(Scalar::F64));
    let k = kernel(
        vec![StmtKind::Accumulate { output: 0, value }],
        vec![(Scalar::F64, AtomicOp::Add)],
    );
    assert!(plan(&k).is_some(), "the strips take it");
    let mut v: Vec<f32> = (0..1001).map(|i| (i % 256) as f32).collect();
    v[17] = -0.0;
    let one = |a: f32| {
        let y = 255.0 * ((a / 255.0) as f64).powf(0.45f32 as f64) as f32;
        if y > 128.0 {
            y
        } else {
            0.0
        }
    };
    let want: f64 = v.iter().map(|&a| one(a) as f64).sum();
    for chunk in CHUNKS {
        let (_, outs) = run(&k, &mut v, chunk);
        let got = f64_of(&outs[0]);
        // Each term within 4 ulp of the host's (about 3e-5 relative at 255).
        assert!(
            (got - want).abs() <= want * 1e-6,
            "chunk {chunk}: {got} against {want}"
        );
    }
}
