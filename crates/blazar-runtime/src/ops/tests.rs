//! Unit tests of the operators.

use super::*;
use crate::array::ElemType;

fn vecv(x: &[f64]) -> Value {
    Value::array(Array::from_reals(vec![x.len()], x.to_vec(), Prec::Single))
}

fn mat(m: usize, n: usize, x: &[f64]) -> Value {
    Value::array(Array::from_reals(vec![m, n], x.to_vec(), Prec::Single))
}

fn arr(v: &Value) -> (Vec<usize>, Vec<f64>, ElemType) {
    match v {
        Value::Array(a) => {
            let a = a.borrow();
            (a.dims.clone(), a.to_f64_vec(), a.elem())
        }
        other => panic!("not an array: {other:?}"),
    }
}

const S: Prec = Prec::Single;

#[test]
fn int_division_is_real() {
    let v = binary(BinOp::Div, &Value::int(7), &Value::int(2), S).unwrap();
    assert!(matches!(v, Value::Real(x) if x == 3.5));
    let v = binary(BinOp::Add, &Value::int(7), &Value::int(2), S).unwrap();
    assert!(matches!(v, Value::Int(9, IntTy::I32)));
    let v = binary(
        BinOp::Add,
        &Value::Int(250, IntTy::U8),
        &Value::Int(10, IntTy::U8),
        S,
    )
    .unwrap();
    assert!(matches!(v, Value::Int(4, IntTy::U8)));
    let v = binary(BinOp::Mul, &Value::Int(3, IntTy::I64), &Value::int(2), S).unwrap();
    assert!(matches!(v, Value::Int(6, IntTy::I64)));
    let v = binary(BinOp::Pow, &Value::int(2), &Value::int(3), S).unwrap();
    assert!(matches!(v, Value::Real(x) if x == 8.0));
}

#[test]
fn scalars_round_to_precision() {
    let v = binary(BinOp::Div, &Value::Real(1.0), &Value::Real(3.0), S).unwrap();
    assert!(matches!(v, Value::Real(x) if x == (1.0f32 / 3.0) as f64));
    let v = binary(
        BinOp::Div,
        &Value::Real(1.0),
        &Value::Real(3.0),
        Prec::Double,
    )
    .unwrap();
    assert!(matches!(v, Value::Real(x) if x == 1.0 / 3.0));
}

#[test]
fn complex_and_comparisons() {
    let i = Value::Complex(C::new(0.0, 1.0));
    let v = binary(BinOp::Mul, &i, &i, S).unwrap();
    assert!(matches!(v, Value::Complex(z) if z == C::new(-1.0, 0.0)));
    let v = binary(BinOp::Add, &Value::int(1), &i, S).unwrap();
    assert!(matches!(v, Value::Complex(z) if z == C::new(1.0, 1.0)));
    let v = binary(BinOp::Lt, &Value::int(1), &Value::Real(1.5), S).unwrap();
    assert!(matches!(v, Value::Real(x) if x == 1.0));
    let v = binary(BinOp::Eq, &i, &Value::Complex(C::new(0.0, 1.0)), S).unwrap();
    assert!(matches!(v, Value::Real(x) if x == 1.0));
    let v = binary(BinOp::Eq, &Value::str("ab"), &Value::str("ab"), S).unwrap();
    assert!(matches!(v, Value::Real(x) if x == 1.0));
    let e = binary(BinOp::Add, &Value::str("a"), &Value::Real(1.0), S).unwrap_err();
    assert_eq!(
        e.message,
        "operator `+` cannot be applied to string and scalar"
    );
    let v = binary(
        BinOp::Pow,
        &Value::Complex(C::new(0.0, 0.0)),
        &Value::Real(2.0),
        S,
    )
    .unwrap();
    assert!(matches!(v, Value::Complex(z) if z == C::new(0.0, 0.0)));
}

#[test]
fn broadcasting() {
    let m = mat(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let r = binary(BinOp::Add, &m, &vecv(&[10.0, 20.0, 30.0]), S).unwrap();
    assert_eq!(arr(&r).0, vec![2, 3]);
    assert_eq!(arr(&r).1, vec![11.0, 22.0, 33.0, 14.0, 25.0, 36.0]);
    let r = binary(BinOp::Sub, &Value::Real(1.0), &m, S).unwrap();
    assert_eq!(arr(&r).1, vec![0.0, -1.0, -2.0, -3.0, -4.0, -5.0]);
    let col = mat(2, 1, &[100.0, 200.0]);
    let r = binary(HostOp::dot(BinOp::Mul), &col, &vecv(&[1.0, 2.0, 3.0]), S).unwrap();
    assert_eq!(arr(&r).0, vec![2, 3]);
    assert_eq!(arr(&r).1, vec![100.0, 200.0, 300.0, 200.0, 400.0, 600.0]);
    // Leading dimensions line up (MATLAB's rule): per-channel weights are 1×1×3, and
    // an M×N mat against an M×N×1 cube is element by element, never M×N×M.
    let cube = Value::array(Array::from_reals(vec![2, 1, 3], vec![1.0; 6], S));
    let w = Value::array(Array::from_reals(vec![1, 1, 3], vec![1.0, 2.0, 3.0], S));
    let r = binary(HostOp::dot(BinOp::Mul), &cube, &w, S).unwrap();
    assert_eq!(arr(&r).1, vec![1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    let r = binary(HostOp::dot(BinOp::Mul), &cube, &vecv(&[1.0, 2.0, 3.0]), S).unwrap();
    assert_eq!(arr(&r).0, vec![2, 3, 3]);
    let gray = Value::array(Array::from_reals(vec![2, 3, 1], vec![1.0; 6], S));
    let r = binary(BinOp::Sub, &m, &gray, S).unwrap();
    assert_eq!(arr(&r).0, vec![2, 3, 1]);
    assert_eq!(arr(&r).1, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let e = binary(BinOp::Sub, &gray, &vecv(&[1.0, 2.0]), S).unwrap_err();
    assert_eq!(e.message, "cannot combine arrays of size [2,3,1] and [1,2]");
    let e = binary(BinOp::Add, &m, &vecv(&[1.0, 2.0, 3.0, 4.0]), S).unwrap_err();
    assert_eq!(e.message, "cannot combine arrays of size [2,3] and [1,4]");
    let r = binary(BinOp::Gt, &m, &Value::Real(3.0), S).unwrap();
    assert_eq!(arr(&r).1, vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    let ints = Value::array(Array::from_ints(vec![3], vec![1, 2, 3]));
    let r = binary(BinOp::Mul, &ints, &Value::int(2), S).unwrap();
    assert_eq!(arr(&r).2, ElemType::Int(IntTy::I32));
    assert_eq!(arr(&r).1, vec![2.0, 4.0, 6.0]);
    let r = binary(BinOp::Div, &ints, &Value::int(2), Prec::Double).unwrap();
    assert_eq!(arr(&r).2, ElemType::F64);
    assert_eq!(arr(&r).1, vec![0.5, 1.0, 1.5]);
}

#[test]
fn matrix_product() {
    let a = mat(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let b = mat(2, 2, &[5.0, 6.0, 7.0, 8.0]);
    let r = binary(BinOp::Mul, &a, &b, S).unwrap();
    assert_eq!(arr(&r).1, vec![19.0, 22.0, 43.0, 50.0]);
    let r = binary(BinOp::Mul, &vecv(&[1.0, 2.0]), &a, S).unwrap();
    assert_eq!(arr(&r).0, vec![2]);
    assert_eq!(arr(&r).1, vec![7.0, 10.0]);
    let col = mat(2, 1, &[1.0, 1.0]);
    let r = binary(BinOp::Mul, &vecv(&[3.0, 4.0]), &col, S).unwrap();
    assert!(matches!(r, Value::Real(x) if x == 7.0));
    let m23 = mat(2, 3, &[0.0; 6]);
    let e = binary(BinOp::Mul, &m23, &m23, S).unwrap_err();
    assert_eq!(
        e.message,
        "matrix product: inner dimensions differ (2x3 times 2x3)"
    );
    let r = binary(BinOp::Mul, &vecv(&[2.0]), &a, S).unwrap();
    assert_eq!(arr(&r).1, vec![2.0, 4.0, 6.0, 8.0]);
    let r = binary(BinOp::Mul, &vecv(&[2.0]), &vecv(&[3.0]), S).unwrap();
    assert!(matches!(r, Value::Real(x) if x == 6.0));
    let r = binary(BinOp::Mul, &a, &Value::Real(2.0), S).unwrap();
    assert_eq!(arr(&r).1, vec![2.0, 4.0, 6.0, 8.0]);
}

#[test]
fn unary_ops() {
    let r = unary(UnOp::Neg, &vecv(&[1.0, -2.0]), S).unwrap();
    assert_eq!(arr(&r).1, vec![-1.0, 2.0]);
    let r = unary(UnOp::Not, &vecv(&[0.0, 3.0]), S).unwrap();
    assert_eq!(arr(&r).1, vec![1.0, 0.0]);
    assert!(matches!(
        unary(UnOp::Neg, &Value::Int(-128, IntTy::I8), S).unwrap(),
        Value::Int(-128, IntTy::I8)
    ));
    assert!(unary(UnOp::Neg, &Value::str("x"), S).is_err());
}

#[test]
fn image_sized_f32_chain_broadcasts_per_channel() {
    let n = 64 * 64 * 3;
    let img = Value::array(Array::new(vec![64, 64, 3], Buffer::F32(vec![0.5; n])));
    let r = binary(HostOp::dot(BinOp::Mul), &img, &Value::Real(2.0), S).unwrap();
    let r2 = binary(BinOp::Add, &r, &img, S).unwrap();
    let w = Value::array(Array::from_reals(vec![1, 1, 3], vec![1.0, 2.0, 3.0], S));
    let r3 = binary(HostOp::dot(BinOp::Mul), &r2, &w, S).unwrap();
    assert_eq!(arr(&r3).1[..6], [1.5, 3.0, 4.5, 1.5, 3.0, 4.5]);
}
