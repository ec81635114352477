//! Data movement, ordering and statistics on shapes and types the golden programs do
//! not reach: cubes, cells, int element types, NaN.

use crate::array::{Array, Buffer, ElemType};
use crate::builtins::testing::{call, parts};
use crate::builtins::{multi, testing::ctx};
use crate::value::{IntTy, Prec, Value};

fn cube(m: usize, n: usize, c: usize) -> Value {
    let data = (0..m * n * c).map(|k| k as f32).collect();
    Value::array(Array::new(vec![m, n, c], Buffer::F32(data)))
}

fn reals(v: &[f64]) -> Value {
    Value::array(Array::new(vec![v.len()], Buffer::F64(v.to_vec())))
}

#[test]
fn circshift_of_a_cube_moves_each_dimension() {
    // x[i, j, k] = 6i + 3j + k on 2x2x3; shift [1, 0, 1]: y[i, j, k] = x[i-1, j, k-1].
    let y = call("circshift", &[cube(2, 2, 3), reals(&[1.0, 0.0, 1.0])]).unwrap();
    let (dims, data, elem) = parts(&y);
    assert_eq!((dims, elem), (vec![2, 2, 3], ElemType::F32));
    let at = |i: usize, j: usize, k: usize| data[(i * 2 + j) * 3 + k];
    assert_eq!(at(0, 0, 0), (6 + 2) as f64);
    assert_eq!(at(1, 1, 2), (3 + 1) as f64);
}

#[test]
fn flips_and_joins_keep_cells_and_int_types() {
    let cell = Value::array(Array::cell(
        vec![3],
        vec![Value::int(1), Value::str("a"), Value::int(3)],
    ));
    let f = call("fliplr", &[cell]).unwrap();
    let a = crate::builtins::testing::array(&f);
    assert!(a.is_cell());
    assert_eq!(a.get_value(0).as_i64(), Some(3));
    let i8s = Value::array(Array::new(vec![2], Buffer::I8(vec![1, -2])));
    let j = call("vertcat", &[i8s.clone(), i8s]).unwrap();
    let (dims, data, elem) = parts(&j);
    assert_eq!(
        (dims, data, elem),
        (
            vec![2, 2],
            vec![1.0, -2.0, 1.0, -2.0],
            ElemType::Int(IntTy::I8)
        )
    );
}

#[test]
fn cat_along_a_new_third_dimension() {
    let m = Value::array(Array::new(
        vec![2, 2],
        Buffer::F32(vec![1.0, 2.0, 3.0, 4.0]),
    ));
    let c = call("cat", &[Value::int(2), m.clone(), m.clone(), m]).unwrap();
    let (dims, data, _) = parts(&c);
    assert_eq!(dims, vec![2, 2, 3]);
    assert_eq!(&data[..6], &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
}

#[test]
fn sort_puts_nan_last_ascending_and_first_descending() {
    let x = reals(&[2.0, f64::NAN, -1.0, 2.0]);
    let mut c = ctx(Prec::Double);
    let up = (multi("sort").unwrap().0)(&mut c, &[x.clone()], 2).unwrap();
    let (_, s, _) = parts(&up[0]);
    assert_eq!(&s[..3], &[-1.0, 2.0, 2.0]);
    assert!(s[3].is_nan());
    assert_eq!(parts(&up[1]).1, vec![2.0, 0.0, 3.0, 1.0]);
    let down = (multi("sort").unwrap().0)(&mut c, &[x, Value::str("descend")], 2).unwrap();
    assert!(parts(&down[0]).1[0].is_nan());
    // stable: the two 2s keep their order
    assert_eq!(parts(&down[1]).1, vec![1.0, 0.0, 3.0, 2.0]);
}

#[test]
fn sort_of_a_cube_along_its_last_dimension() {
    let y = call(
        "sort",
        &[cube(1, 2, 3), Value::int(2), Value::str("descend")],
    )
    .unwrap();
    let (dims, data, _) = parts(&y);
    assert_eq!(dims, vec![1, 2, 3]);
    assert_eq!(data, vec![2.0, 1.0, 0.0, 5.0, 4.0, 3.0]);
}

#[test]
fn median_with_nan_is_nan_and_along_a_dimension_of_a_cube() {
    let m = call("median", &[reals(&[1.0, f64::NAN, 3.0])]).unwrap();
    assert!(m.as_f64().unwrap().is_nan());
    let c = call("median", &[cube(2, 2, 2), Value::int(2)]).unwrap();
    assert_eq!(parts(&c).1, vec![0.5, 2.5, 4.5, 6.5]);
}

#[test]
fn rot90_of_a_vector_is_a_column() {
    let r = call("rot90", &[reals(&[1.0, 2.0, 3.0])]).unwrap();
    let (dims, data, _) = parts(&r);
    assert_eq!((dims, data), (vec![3, 1], vec![3.0, 2.0, 1.0]));
}
