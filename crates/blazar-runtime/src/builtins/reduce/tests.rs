//! Unit tests of the reductions.

use super::*;
use crate::builtins::testing::{call, parts as arr};

fn mat23() -> Value {
    Value::array(Array::from_reals(
        vec![2, 3],
        vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        Prec::Single,
    ))
}

fn real(v: Value) -> f64 {
    match v {
        Value::Real(x) => x,
        other => panic!("not a real: {other:?}"),
    }
}

#[test]
fn whole_array() {
    assert_eq!(real(call("sum", &[mat23()]).unwrap()), 21.0);
    assert_eq!(real(call("prod", &[mat23()]).unwrap()), 720.0);
    assert_eq!(real(call("mean", &[mat23()]).unwrap()), 3.5);
    assert_eq!(real(call("max", &[mat23()]).unwrap()), 6.0);
    assert!(matches!(
        call("sum", &[Value::int(4)]).unwrap(),
        Value::Int(4, IntTy::I32)
    ));
    let ints = Value::array(Array::from_ints(vec![3], vec![1, 2, 4]));
    assert!(matches!(
        call("sum", &[ints.clone()]).unwrap(),
        Value::Int(7, IntTy::I64)
    ));
    // Sums of ints are int64: 200000 values of 100000 do not wrap (issue 32).
    let big = Value::array(Array::from_ints(vec![200000], vec![100000; 200000]));
    assert!(matches!(
        call("sum", &[big.clone()]).unwrap(),
        Value::Int(20_000_000_000, IntTy::I64)
    ));
    assert_eq!(real(call("mean", &[big]).unwrap()), 100000.0);
    assert_eq!(
        real(call("mean", &[ints]).unwrap()),
        (7.0f64 / 3.0) as f32 as f64
    );
    let u8s = Value::array(Array::new(vec![3], Buffer::U8(vec![200, 200, 200])));
    assert!(matches!(
        call("sum", &[u8s]).unwrap(),
        Value::Int(600, IntTy::I64)
    ));
    let empty = Value::array(Array::zeros(vec![0], ElemType::F32));
    assert_eq!(real(call("sum", &[empty.clone()]).unwrap()), 0.0);
    assert_eq!(real(call("prod", &[empty.clone()]).unwrap()), 1.0);
    assert_eq!(
        call("max", &[empty]).unwrap_err().message,
        "max of an empty array"
    );
    let c = Value::array(Array::from_complex(
        vec![2],
        vec![C::new(1.0, 1.0), C::new(2.0, -3.0)],
        Prec::Single,
    ));
    assert!(
        matches!(call("sum", &[c.clone()]).unwrap(), Value::Complex(z) if z == C::new(3.0, -2.0))
    );
    assert!(call("max", &[c]).is_err());
    assert!(call("sum", &[Value::str("x")]).is_err());
}

#[test]
fn along_dimension() {
    let s0 = call("sum", &[mat23(), Value::int(0)]).unwrap();
    assert_eq!(arr(&s0), (vec![3], vec![5.0, 7.0, 9.0], ElemType::F32));
    let s1 = call("sum", &[mat23(), Value::int(1)]).unwrap();
    assert_eq!(arr(&s1).1, vec![6.0, 15.0]);
    let m1 = call(
        "max",
        &[
            mat23(),
            Value::array(Array::zeros(vec![0], ElemType::F32)),
            Value::int(1),
        ],
    )
    .unwrap();
    assert_eq!(arr(&m1).1, vec![3.0, 6.0]);
    let v = Value::array(Array::from_reals(
        vec![3],
        vec![1.0, 2.0, 3.0],
        Prec::Single,
    ));
    assert_eq!(real(call("sum", &[v.clone(), Value::int(1)]).unwrap()), 6.0);
    assert_eq!(
        arr(&call("mean", &[mat23(), Value::int(0)]).unwrap()).1,
        vec![2.5, 3.5, 4.5]
    );
}

#[test]
fn cumulative_and_dot() {
    let v = Value::array(Array::from_reals(
        vec![4],
        vec![1.0, 2.0, 3.0, 4.0],
        Prec::Single,
    ));
    assert_eq!(
        arr(&call("cumsum", &[v.clone()]).unwrap()).1,
        vec![1.0, 3.0, 6.0, 10.0]
    );
    assert_eq!(
        arr(&call("cumprod", &[v.clone()]).unwrap()).1,
        vec![1.0, 2.0, 6.0, 24.0]
    );
    assert_eq!(
        arr(&call("cumsum", &[mat23()]).unwrap()).1,
        vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0]
    );
    assert_eq!(
        arr(&call("cumsum", &[mat23(), Value::int(0)]).unwrap()).1,
        vec![1.0, 2.0, 3.0, 5.0, 7.0, 9.0]
    );
    assert_eq!(
        arr(&call("cumsum", &[mat23(), Value::int(1)]).unwrap()).1,
        vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0]
    );
    assert_eq!(real(call("dotprod", &[v.clone(), v]).unwrap()), 30.0);
}
