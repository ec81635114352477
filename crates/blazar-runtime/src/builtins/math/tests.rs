//! Unit tests of the element-wise math builtins.

use super::*;
use crate::builtins::testing::{call, parts as arr};
use crate::ElemType;

fn real(v: Value) -> f64 {
    match v {
        Value::Real(x) => x,
        other => panic!("not a real: {other:?}"),
    }
}

fn int(v: Value) -> (i64, IntTy) {
    match v {
        Value::Int(x, t) => (x, t),
        other => panic!("not an int: {other:?}"),
    }
}

fn vecv(x: &[f64]) -> Value {
    Value::array(Array::from_reals(vec![x.len()], x.to_vec(), Prec::Single))
}

#[test]
fn rounding_and_modulo() {
    assert_eq!(real(call("round", &[Value::Real(-2.5)]).unwrap()), -3.0);
    assert_eq!(real(call("round", &[Value::Real(2.5)]).unwrap()), 3.0);
    assert_eq!(
        int(call("floor", &[Value::int(7)]).unwrap()),
        (7, IntTy::I32)
    );
    assert_eq!(
        int(call("mod", &[Value::int(-7), Value::int(3)]).unwrap()),
        (-1, IntTy::I32)
    );
    assert_eq!(
        real(call("mod", &[Value::Real(-7.0), Value::Real(3.0)]).unwrap()),
        -1.0
    );
    assert_eq!(
        int(call("periodize", &[Value::int(-7), Value::int(3)]).unwrap()),
        (2, IntTy::I32)
    );
    assert_eq!(
        real(call("periodize", &[Value::Real(-7.0), Value::Real(3.0)]).unwrap()),
        2.0
    );
    assert_eq!(real(call("frac", &[Value::Real(-1.25)]).unwrap()), 0.75);
    let m = |x| int(call("mirror_ext", &[Value::int(x), Value::int(5)]).unwrap()).0;
    assert_eq!((m(-1), m(5), m(6), m(2), m(-5)), (1, 4, 3, 2, 4));
    assert_eq!(
        int(call("mod", &[Value::int(5), Value::int(0)]).unwrap()).0,
        0
    );
}

#[test]
fn elementary_functions() {
    assert_eq!(real(call("sqrt", &[Value::int(16)]).unwrap()), 4.0);
    assert!(real(call("sqrt", &[Value::Real(-1.0)]).unwrap()).is_nan());
    let z = call("sqrt", &[Value::Complex(C::new(-4.0, 0.0))]).unwrap();
    assert!(matches!(z, Value::Complex(z) if (z - C::new(0.0, 2.0)).norm() < 1e-6));
    assert_eq!(
        real(call("abs", &[Value::Complex(C::new(3.0, 4.0))]).unwrap()),
        5.0
    );
    assert_eq!(
        int(call("abs", &[Value::int(-3)]).unwrap()),
        (3, IntTy::I32)
    );
    assert_eq!(real(call("exp2", &[Value::Real(3.0)]).unwrap()), 8.0);
    assert_eq!(real(call("sign", &[Value::Real(-0.5)]).unwrap()), -1.0);
    assert_eq!(real(call("sign", &[Value::Real(0.0)]).unwrap()), 0.0);
    assert_eq!(
        real(call("atan2", &[Value::Real(1.0), Value::Real(1.0)]).unwrap()),
        (std::f64::consts::FRAC_PI_4 as f32) as f64
    );
    let e = call("sqrt", &[Value::str("x")]).unwrap_err();
    assert_eq!(
        e.message,
        "sqrt: expected a number or numeric array, got string"
    );
    let r = call("sin", &[vecv(&[0.0, 0.0])]).unwrap();
    assert_eq!(arr(&r).1, vec![0.0, 0.0]);
    assert_eq!(real(call("isnan", &[Value::Real(f64::NAN)]).unwrap()), 1.0);
    assert_eq!(real(call("saturate", &[Value::Real(1.5)]).unwrap()), 1.0);
    // NaN saturates to 0, as `clamp(NaN, 0, 1)` and kernels.
    assert_eq!(
        real(call("saturate", &[Value::Real(f64::NAN)]).unwrap()),
        0.0
    );
    assert_eq!(
        real(call("clamp", &[Value::Real(-1.5), Value::int(0), Value::int(2)]).unwrap()),
        0.0
    );
    assert_eq!(
        real(call("pow", &[Value::int(2), Value::Real(0.5)]).unwrap()),
        (2f32).sqrt() as f64
    );
}

#[test]
fn min_max_elementwise_and_reduce() {
    let r = call("max", &[vecv(&[1.0, 5.0, -2.0]), Value::Real(0.0)]).unwrap();
    assert_eq!(arr(&r).1, vec![1.0, 5.0, 0.0]);
    assert_eq!(real(call("max", &[vecv(&[1.0, 5.0, -2.0])]).unwrap()), 5.0);
    assert_eq!(real(call("min", &[vecv(&[1.0, 5.0, -2.0])]).unwrap()), -2.0);
    assert_eq!(
        int(call("max", &[Value::int(3), Value::int(9)]).unwrap()),
        (9, IntTy::I32)
    );
}

#[test]
fn conversions() {
    assert_eq!(
        int(call("int", &[Value::Real(-3.7)]).unwrap()),
        (-3, IntTy::I32)
    );
    assert_eq!(
        int(call("uint8", &[Value::Real(300.0)]).unwrap()),
        (255, IntTy::U8)
    );
    // MATLAB's conversions saturate ints too, and round reals halves away from zero.
    assert_eq!(
        int(call("uint8", &[Value::int(-1)]).unwrap()),
        (0, IntTy::U8)
    );
    assert_eq!(
        int(call("uint8", &[Value::int(300)]).unwrap()),
        (255, IntTy::U8)
    );
    assert_eq!(
        int(call("uint8", &[Value::Real(250.5)]).unwrap()),
        (251, IntTy::U8)
    );
    assert_eq!(
        int(call("int8", &[Value::Real(-2.5)]).unwrap()),
        (-3, IntTy::I8)
    );
    assert_eq!(
        int(call("uint64", &[Value::Int(-5, IntTy::I64)]).unwrap()),
        (0, IntTy::U64)
    );
    assert_eq!(
        int(call("int64", &[Value::Int(-1, IntTy::U64)]).unwrap()),
        (i64::MAX, IntTy::I64)
    );
    assert!(call("int", &[Value::str("3")]).is_err());
    let r = call("int", &[vecv(&[1.5, -2.5])]).unwrap();
    assert_eq!(arr(&r).2, ElemType::Int(IntTy::I32));
    assert_eq!(arr(&r).1, vec![1.0, -2.0]);
    assert_eq!(real(call("float", &[Value::int(3)]).unwrap()), 3.0);
    let z = call("complex", &[Value::Real(1.0), Value::Real(-2.0)]).unwrap();
    assert!(matches!(z, Value::Complex(z) if z == C::new(1.0, -2.0)));
    let z = call("complex", &[vecv(&[1.0, 2.0]), Value::Real(1.0)]).unwrap();
    assert_eq!(arr(&z).2, ElemType::C32);
    assert_eq!(
        real(call("imag", &[Value::Complex(C::new(1.0, 2.0))]).unwrap()),
        2.0
    );
    assert_eq!(
        real(call("angle", &[Value::Real(-1.0)]).unwrap()),
        std::f32::consts::PI as f64
    );
}

#[test]
fn bits_and_powers_of_two() {
    assert_eq!(
        int(call("and", &[Value::int(12), Value::int(10)]).unwrap()).0,
        8
    );
    assert_eq!(
        int(call("or", &[Value::int(12), Value::int(10)]).unwrap()).0,
        14
    );
    assert_eq!(
        int(call("xor", &[Value::int(12), Value::int(10)]).unwrap()).0,
        6
    );
    assert_eq!(int(call("not", &[Value::int(0)]).unwrap()).0, -1);
    assert_eq!(
        int(call("not", &[Value::Int(0, IntTy::U8)]).unwrap()),
        (255, IntTy::U8)
    );
    assert_eq!(
        int(call("shl", &[Value::int(1), Value::int(4)]).unwrap()).0,
        16
    );
    assert_eq!(
        int(call("shr", &[Value::int(-16), Value::int(2)]).unwrap()).0,
        -4
    );
    assert_eq!(int(call("prevpow2", &[Value::int(100)]).unwrap()).0, 64);
    assert_eq!(int(call("prevpow2", &[Value::int(64)]).unwrap()).0, 64);
    assert_eq!(int(call("nextpow2", &[Value::int(100)]).unwrap()).0, 128);
    assert_eq!(int(call("nextpow2", &[Value::Real(64.0)]).unwrap()).0, 64);
    let r = call("prevpow2", &[vecv(&[3.0, 9.0])]).unwrap();
    assert_eq!(arr(&r).1, vec![2.0, 8.0]);
}
