//! Unit tests of the construction and shape builtins.

use crate::array::{Array, ElemType};
use crate::builtins::testing::{call, parts as arr};
use crate::value::{IntTy, Prec, Value};

fn ints(x: &[i32]) -> Value {
    Value::array(Array::from_ints(vec![x.len()], x.to_vec()))
}

fn mat(m: usize, n: usize) -> Value {
    Value::array(Array::from_reals(
        vec![m, n],
        (0..m * n).map(|i| i as f64).collect(),
        Prec::Single,
    ))
}

#[test]
fn zeros_shapes() {
    assert_eq!(arr(&call("zeros", &[Value::int(5)]).unwrap()).0, vec![5]);
    assert_eq!(
        arr(&call("zeros", &[Value::int(2), Value::int(3)]).unwrap()).0,
        vec![2, 3]
    );
    assert_eq!(
        arr(&call("zeros", &[ints(&[1, 1, 4])]).unwrap()).0,
        vec![1, 1, 4]
    );
    assert_eq!(
        arr(&call("zeros", &[ints(&[4, 1, 1])]).unwrap()).0,
        vec![4, 1]
    );
    assert_eq!(
        arr(&call("zeros", &[Value::int(1), Value::int(5)]).unwrap()).0,
        vec![5]
    );
    assert_eq!(
        arr(&call("zeros", &[Value::int(5), Value::int(1)]).unwrap()).0,
        vec![5, 1]
    );
    let o = call("ones", &[Value::int(2), Value::int(2), Value::int(2)]).unwrap();
    assert_eq!(arr(&o), (vec![2, 2, 2], vec![1.0; 8], ElemType::F32));
    assert!(call("zeros", &[Value::Real(-1.0)]).is_err());
    assert!(call("zeros", &[Value::Real(1.5)]).is_err());
    assert!(call("zeros", &[Value::str("a")]).is_err());
    assert!(call("zeros", &[Value::Real(1e12), Value::Real(1e12)]).is_err());
    assert_eq!(
        arr(&call("eye", &[Value::int(2)]).unwrap()).1,
        vec![1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        arr(&call("linspace", &[Value::int(0), Value::int(1), Value::int(5)]).unwrap()).1,
        vec![0.0, 0.25, 0.5, 0.75, 1.0]
    );
    let c = call("cell", &[Value::int(3)]).unwrap();
    assert_eq!(arr(&c).2, ElemType::Cell);
}

#[test]
fn size_numel_ndims() {
    let s = call(
        "size",
        &[Value::array(Array::zeros(vec![5], ElemType::F32))],
    )
    .unwrap();
    assert_eq!(
        arr(&s),
        (vec![2], vec![1.0, 5.0], ElemType::Int(IntTy::I32))
    );
    assert!(matches!(
        call("size", &[mat(2, 3), Value::int(1)]).unwrap(),
        Value::Int(3, IntTy::I32)
    ));
    assert!(matches!(
        call("size", &[mat(2, 3), Value::int(4)]).unwrap(),
        Value::Int(1, IntTy::I32)
    ));
    assert_eq!(
        arr(&call("size", &[mat(2, 3), ints(&[0, 1])]).unwrap()).1,
        vec![2.0, 3.0]
    );
    assert_eq!(
        arr(&call("size", &[Value::Real(1.0)]).unwrap()).1,
        vec![1.0, 1.0]
    );
    assert!(matches!(
        call("numel", &[Value::str("héllo")]).unwrap(),
        Value::Int(5, _)
    ));
    assert!(matches!(
        call("numel", &[mat(2, 3)]).unwrap(),
        Value::Int(6, _)
    ));
    assert!(matches!(
        call("ndims", &[mat(2, 3)]).unwrap(),
        Value::Int(2, _)
    ));
}

#[test]
fn reshape_repmat_transpose() {
    let r = call("reshape", &[mat(2, 3), Value::int(3), Value::int(2)]).unwrap();
    assert_eq!(arr(&r).0, vec![3, 2]);
    assert!(call("reshape", &[mat(2, 3), Value::int(4)]).is_err());
    let t = call("transpose", &[mat(2, 3)]).unwrap();
    assert_eq!(
        arr(&t),
        (
            vec![3, 2],
            vec![0.0, 3.0, 1.0, 4.0, 2.0, 5.0],
            ElemType::F32
        )
    );
    let v = Value::array(Array::from_reals(
        vec![3],
        vec![1.0, 2.0, 3.0],
        Prec::Single,
    ));
    assert_eq!(arr(&call("transpose", &[v.clone()]).unwrap()).0, vec![3, 1]);
    assert_eq!(arr(&call("transpose", &[mat(3, 1)]).unwrap()).0, vec![3]);
    let rep = call("repmat", &[v.clone(), Value::int(2), Value::int(2)]).unwrap();
    assert_eq!(arr(&rep).0, vec![2, 6]);
    assert_eq!(
        arr(&rep).1,
        vec![1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0]
    );
    let rep = call("repmat", &[mat(2, 1), ints(&[1, 2])]).unwrap();
    assert_eq!(
        arr(&rep),
        (vec![2, 2], vec![0.0, 0.0, 1.0, 1.0], ElemType::F32)
    );
    let sq = call(
        "squeeze",
        &[Value::array(Array::zeros(vec![3, 1, 2], ElemType::F32))],
    )
    .unwrap();
    assert_eq!(arr(&sq).0, vec![3, 2]);
}

#[test]
fn positions_and_copies() {
    assert!(matches!(
        call("pos2ind", &[ints(&[4, 5]), ints(&[2, 3])]).unwrap(),
        Value::Int(13, _)
    ));
    assert_eq!(
        arr(&call("ind2pos", &[ints(&[4, 5]), Value::int(13)]).unwrap()).1,
        vec![2.0, 3.0]
    );
    let a = mat(2, 2);
    let b = call("copy", &[a.clone()]).unwrap();
    if let (Value::Array(x), Value::Array(y)) = (&a, &b) {
        assert!(!std::rc::Rc::ptr_eq(&x.data, &y.data));
    }
    let inner = mat(1, 2);
    let cell = Value::array(Array::cell(vec![1], vec![inner.clone()]));
    let shallow = call("copy", &[cell.clone()]).unwrap();
    let deep = call("deepcopy", &[cell]).unwrap();
    let first = |v: &Value| match v {
        Value::Array(a) => a.borrow().get_value(0),
        _ => unreachable!(),
    };
    let same = |x: &Value, y: &Value| match (x, y) {
        (Value::Array(x), Value::Array(y)) => std::rc::Rc::ptr_eq(&x.data, &y.data),
        _ => false,
    };
    assert!(same(&first(&shallow), &inner));
    assert!(!same(&first(&deep), &inner));
    assert!(matches!(call("object", &[]).unwrap(), Value::Object(_)));
}
