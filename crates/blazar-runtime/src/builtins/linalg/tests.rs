//! Properties of the decompositions on larger matrices than the golden programs use,
//! in double precision: reconstruction, orthogonality, agreement between builtins.

use crate::array::{Array, Buffer};
use crate::builtins::testing::{ctx, parts};
use crate::builtins::{get, lookup, multi, Ctx};
use crate::value::{Prec, Value};

fn mat(m: usize, n: usize, f: impl Fn(usize, usize) -> f64) -> Value {
    let data = (0..m * n).map(|k| f(k / n, k % n)).collect();
    Value::array(Array::new(vec![m, n], Buffer::F64(data)))
}

fn call(ctx: &mut Ctx, name: &str, args: &[Value]) -> Value {
    let id = lookup(name).unwrap();
    get(id).call(ctx, args).unwrap()
}

fn call_n(ctx: &mut Ctx, name: &str, args: &[Value], n: usize) -> Vec<Value> {
    (multi(name).unwrap().0)(ctx, args, n).unwrap()
}

/// A matrix as rows of reals.
fn rows(v: &Value) -> (usize, usize, Vec<f64>) {
    let (dims, data, _) = parts(v);
    match dims.as_slice() {
        [n] => (1, *n, data),
        [m, n] => (*m, *n, data),
        _ => panic!("not a matrix: {dims:?}"),
    }
}

fn product(a: &Value, b: &Value) -> Value {
    crate::ops::binary(crate::ops::BinOp::Mul, a, b, Prec::Double).unwrap()
}

fn max_diff(a: &Value, b: &Value) -> f64 {
    let (_, _, x) = rows(a);
    let (_, _, y) = rows(b);
    assert_eq!(x.len(), y.len());
    x.iter()
        .zip(&y)
        .map(|(p, q)| (p - q).abs())
        .fold(0.0, f64::max)
}

fn pseudo(i: usize, j: usize) -> f64 {
    ((7 * i * i + 13 * j + 3 * i * j) % 101) as f64 / 16.0 - 3.0
}

#[test]
fn svd_reconstructs_a_tall_matrix() {
    let mut c = ctx(Prec::Double);
    let a = mat(40, 30, pseudo);
    let out = call_n(&mut c, "svd", &[a.clone()], 3);
    let (m, n, _) = rows(&out[1]);
    assert_eq!((m, n), (40, 30));
    let vt = call(&mut c, "transpose", &[out[2].clone()]);
    let back = product(&product(&out[0], &out[1]), &vt);
    assert!(max_diff(&back, &a) < 1e-10);
    let s = call(&mut c, "svd", &[a]);
    let (_, k, sv) = rows(&s);
    assert_eq!(k, 30);
    assert!(sv.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn symeig_vectors_are_orthonormal() {
    let mut c = ctx(Prec::Double);
    let h = mat(50, 50, |i, j| pseudo(i, j) + pseudo(j, i));
    let out = call_n(&mut c, "symeig", &[h.clone()], 2);
    let vt = call(&mut c, "transpose", &[out[0].clone()]);
    let eye = call(&mut c, "eye", &[Value::int(50)]);
    assert!(max_diff(&product(&vt, &out[0]), &eye) < 1e-10);
    let d = call(&mut c, "diag", &[out[1].clone()]);
    let lhs = product(&h, &out[0]);
    let rhs = product(&out[0], &d);
    assert!(max_diff(&lhs, &rhs) < 1e-9);
}

#[test]
fn inv_det_logdet_and_solve_agree() {
    let mut c = ctx(Prec::Double);
    let a = mat(30, 30, |i, j| pseudo(i, j) + if i == j { 8.0 } else { 0.0 });
    let ai = call(&mut c, "inv", &[a.clone()]);
    let eye = call(&mut c, "eye", &[Value::int(30)]);
    assert!(max_diff(&product(&a, &ai), &eye) < 1e-10);
    let det = call(&mut c, "det", &[a.clone()]).as_f64().unwrap();
    let logdet = call(&mut c, "logdet", &[a.clone()]).as_f64().unwrap();
    assert!((det.abs().ln() - logdet).abs() < 1e-9);
    let b = Value::array(Array::new(
        vec![30],
        Buffer::F64((0..30).map(|k| k as f64).collect()),
    ));
    let x = call(&mut c, "linsolve", &[a.clone(), b.clone()]);
    assert_eq!(parts(&x).0, vec![30]);
    let bt = call(&mut c, "transpose", &[b]);
    let xt = call(&mut c, "transpose", &[x]);
    assert!(max_diff(&product(&a, &xt), &bt) < 1e-9);
}

#[test]
fn chol_is_the_upper_factor() {
    let mut c = ctx(Prec::Double);
    let g = mat(20, 20, pseudo);
    let gt = call(&mut c, "transpose", &[g.clone()]);
    let eye = call(&mut c, "eye", &[Value::int(20)]);
    let spd = crate::ops::binary(
        crate::ops::BinOp::Add,
        &product(&gt, &g),
        &eye,
        Prec::Double,
    )
    .unwrap();
    let r = call(&mut c, "chol", &[spd.clone()]);
    let (_, n, data) = rows(&r);
    assert!((0..n).all(|i| (0..i).all(|j| data[i * n + j] == 0.0)));
    let rt = call(&mut c, "transpose", &[r.clone()]);
    assert!(max_diff(&product(&rt, &r), &spd) < 1e-9);
}

/// A complex matrix of pseudo-random parts.
fn cmat(m: usize, n: usize) -> Value {
    let data = (0..m * n)
        .map(|k| num_complex::Complex64::new(pseudo(k / n, k % n), pseudo(k % n + 3, k / n)))
        .collect();
    Value::array(Array::new(vec![m, n], Buffer::C64(data)))
}

/// The largest element-wise distance between two complex (or real) arrays.
fn cmax_diff(a: &Value, b: &Value) -> f64 {
    let (x, y) = (
        crate::builtins::testing::array(a),
        crate::builtins::testing::array(b),
    );
    assert_eq!(x.dims, y.dims);
    let (x, y) = (
        crate::ops::complexes_of(&x.buf).into_owned(),
        crate::ops::complexes_of(&y.buf).into_owned(),
    );
    x.iter()
        .zip(&y)
        .map(|(p, q)| (p - q).norm())
        .fold(0.0, f64::max)
}

fn adjoint(c: &mut Ctx, a: &Value) -> Value {
    let t = call(c, "transpose", &[a.clone()]);
    call(c, "conj", &[t])
}

#[test]
fn complex_svd_reconstructs_in_full_and_economy_size() {
    let mut c = ctx(Prec::Double);
    let a = cmat(12, 7);
    for econ in [false, true] {
        let args = if econ {
            vec![a.clone(), Value::str("econ")]
        } else {
            vec![a.clone()]
        };
        let out = call_n(&mut c, "svd", &args, 3);
        let k = if econ { 7 } else { 12 };
        assert_eq!(parts(&out[0]).0, vec![12, k]);
        let vh = adjoint(&mut c, &out[2]);
        let back = product(&product(&out[0], &out[1]), &vh);
        assert!(cmax_diff(&back, &a) < 1e-10);
    }
}

#[test]
fn complex_inv_chol_and_hermitian_eigen() {
    let mut c = ctx(Prec::Double);
    let g = cmat(9, 9);
    let eye = call(&mut c, "eye", &[Value::int(9)]);
    let gi = call(&mut c, "inv", &[g.clone()]);
    assert!(cmax_diff(&product(&g, &gi), &eye) < 1e-10);
    let gh = adjoint(&mut c, &g);
    let h = crate::ops::binary(
        crate::ops::BinOp::Add,
        &product(&gh, &g),
        &eye,
        Prec::Double,
    )
    .unwrap();
    let r = call(&mut c, "chol", &[h.clone()]);
    let rh = adjoint(&mut c, &r);
    assert!(cmax_diff(&product(&rh, &r), &h) < 1e-9);
    let out = call_n(&mut c, "symeig", &[h.clone()], 2);
    let d = call(&mut c, "diag", &[out[1].clone()]);
    let lhs = product(&h, &out[0]);
    assert!(cmax_diff(&lhs, &product(&out[0], &d)) < 1e-9);
    let det = call(&mut c, "det", &[h.clone()]);
    let logdet = call(&mut c, "logdet", &[h]).as_f64().unwrap();
    let Value::Complex(z) = det else {
        panic!("det of a complex matrix is complex")
    };
    assert!((z.norm().ln() - logdet).abs() < 1e-9 && z.im.abs() < 1e-6 * z.norm());
}

#[test]
fn every_multi_output_builtin_has_its_one_output_form() {
    for name in ["sort", "unique", "meshgrid", "svd", "symeig", "eig"] {
        assert!(lookup(name).is_some(), "{name}");
        assert!(multi(name).is_some(), "{name}");
    }
}
