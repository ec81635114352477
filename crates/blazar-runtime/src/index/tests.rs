//! Tests of array indexing: elements, slices, gathers, positions, masks, modes, cells.

use super::*;
use crate::array::Access;

fn reals(dims: Vec<usize>, data: Vec<f64>) -> ArrayRef {
    ArrayRef::new(Array::from_reals(dims, data, Prec::Double))
}

/// A `dims` array holding 0, 1, 2, ... in row-major order.
fn iota(dims: Vec<usize>) -> ArrayRef {
    let n = dims.iter().product::<usize>();
    reals(dims, (0..n).map(|i| i as f64).collect())
}

fn with_mode(a: &ArrayRef, mode: Mode) -> ArrayRef {
    a.with_mode(Access {
        mode,
        is_const: false,
    })
}

fn i(v: i64) -> IndexArg {
    IndexArg::Value(Value::int(v))
}

fn range(start: i64, step: i64, end: i64) -> IndexArg {
    IndexArg::Range { start, step, end }
}

fn ints(v: &[i32]) -> Value {
    Value::array(Array::from_ints(vec![v.len()], v.to_vec()))
}

fn num(v: Value) -> f64 {
    v.as_f64().expect("a number")
}

/// Dims and elements of an array value.
fn arr(v: Value) -> (Vec<usize>, Vec<f64>) {
    match v {
        Value::Array(r) => {
            let a = r.borrow();
            (a.dims.clone(), a.to_f64_vec())
        }
        other => panic!("not an array: {other:?}"),
    }
}

fn data(a: &ArrayRef) -> Vec<f64> {
    a.borrow().to_f64_vec()
}

fn err(r: RtResult<impl std::fmt::Debug>) -> String {
    r.expect_err("an error").message
}

#[test]
fn elements_of_vec_mat_cube() {
    let v = iota(vec![5]);
    assert_eq!(num(get(&v, &[i(3)]).unwrap()), 3.0);
    assert_eq!(num(get(&v, &[i(0), i(4)]).unwrap()), 4.0);
    let m = iota(vec![3, 4]);
    assert_eq!(num(get(&m, &[i(1), i(2)]).unwrap()), 6.0);
    assert_eq!(num(get(&m, &[i(2), i(3), i(0)]).unwrap()), 11.0);
    assert_eq!(num(get_scalar_index(&m, &[2, 1]).unwrap()), 9.0);
    let c = iota(vec![2, 3, 4]);
    assert_eq!(num(get(&c, &[i(1), i(2), i(3)]).unwrap()), 23.0);
    assert_eq!(num(get_scalar_index(&c, &[1, 0, 2]).unwrap()), 14.0);
    // Fewer arguments: the last one runs over the folded trailing dims.
    assert_eq!(num(get_scalar_index(&c, &[1, 5]).unwrap()), 17.0);
    set(&c, &[i(1), i(2), i(3)], &Value::Real(-1.0), Prec::Double).unwrap();
    set_scalar_index(&c, &[0, 0, 1], &Value::int(7)).unwrap();
    assert_eq!(data(&c)[23], -1.0);
    assert_eq!(data(&c)[1], 7.0);
    assert_eq!(
        num(get(&v, &[IndexArg::Value(Value::Real(2.0))]).unwrap()),
        2.0
    );
    assert_eq!(
        err(get(&v, &[IndexArg::Value(Value::Real(2.5))])),
        "index 2.5 is not an integer"
    );
}

#[test]
fn linear_index_on_mat() {
    let m = iota(vec![3, 4]);
    assert_eq!(num(get(&m, &[i(7)]).unwrap()), 7.0);
    set_scalar_index(&m, &[11], &Value::Real(100.0)).unwrap();
    assert_eq!(num(get_scalar_index(&m, &[2, 3]).unwrap()), 100.0);
    assert_eq!(
        err(get_scalar_index(&m, &[12])),
        "linear index 12 is out of bounds for 12 elements"
    );
    assert_eq!(arr(get(&m, &[IndexArg::All]).unwrap()).0, vec![12]);
}

#[test]
fn position_vectors() {
    let c = iota(vec![2, 3, 4]);
    assert_eq!(
        num(get(&c, &[IndexArg::Value(ints(&[1, 2, 3]))]).unwrap()),
        23.0
    );
    let m = iota(vec![3, 4]);
    assert_eq!(
        num(get(&m, &[IndexArg::Value(ints(&[2, 1]))]).unwrap()),
        9.0
    );
    set(
        &m,
        &[IndexArg::Value(ints(&[0, 3]))],
        &Value::Real(-5.0),
        Prec::Double,
    )
    .unwrap();
    assert_eq!(data(&m)[3], -5.0);
    // On a vec, an int vector is a gather.
    let v = iota(vec![5]);
    assert_eq!(
        arr(get(&v, &[IndexArg::Value(ints(&[0, 2]))]).unwrap()),
        (vec![2], vec![0.0, 2.0])
    );
}

#[test]
fn gathers_and_ranges() {
    let v = iota(vec![10]);
    let g = get(&v, &[IndexArg::Value(ints(&[4, 1, 1]))]).unwrap();
    assert_eq!(arr(g), (vec![3], vec![4.0, 1.0, 1.0]));
    let rev = arr(get(&v, &[range(9, -1, 0)]).unwrap());
    assert_eq!(rev.1, (0..10).rev().map(|x| x as f64).collect::<Vec<_>>());
    assert_eq!(
        arr(get(&v, &[range(1, 3, 8)]).unwrap()).1,
        vec![1.0, 4.0, 7.0]
    );
    assert_eq!(arr(get(&v, &[range(3, 1, 2)]).unwrap()), (vec![0], vec![]));
    assert!(get(&v, &[range(0, 0, 2)]).is_err());
    let real_idx = Value::array(Array::from_reals(vec![2], vec![3.0, 5.0], Prec::Single));
    assert_eq!(
        arr(get(&v, &[IndexArg::Value(real_idx)]).unwrap()).1,
        vec![3.0, 5.0]
    );
    let m = iota(vec![3, 4]);
    let g = get(&m, &[IndexArg::Value(ints(&[2, 0])), range(1, 1, 2)]).unwrap();
    assert_eq!(arr(g), (vec![2, 2], vec![9.0, 10.0, 1.0, 2.0]));
}

#[test]
fn slice_dims_follow_matlab() {
    let m = iota(vec![3, 4]);
    assert_eq!(
        arr(get(&m, &[i(1), IndexArg::All]).unwrap()),
        (vec![4], vec![4.0, 5.0, 6.0, 7.0])
    );
    assert_eq!(
        arr(get(&m, &[IndexArg::All, i(2)]).unwrap()),
        (vec![3, 1], vec![2.0, 6.0, 10.0])
    );
    let q = arr(get(&m, &[range(0, 1, 1), range(2, 1, 3)]).unwrap());
    assert_eq!(q, (vec![2, 2], vec![2.0, 3.0, 6.0, 7.0]));
    assert_eq!(
        arr(get(&m, &[range(0, 1, 0), range(1, 1, 1)]).unwrap()),
        (vec![1], vec![1.0])
    );
    let c = iota(vec![2, 3, 4]);
    let plane = arr(get(&c, &[IndexArg::All, IndexArg::All, i(0)]).unwrap());
    assert_eq!(plane, (vec![2, 3], vec![0.0, 4.0, 8.0, 12.0, 16.0, 20.0]));
    assert_eq!(
        arr(get(&c, &[i(1), i(2), range(0, 1, 2)]).unwrap()),
        (vec![1, 1, 3], vec![20.0, 21.0, 22.0])
    );
    let row = arr(get(&c, &[i(1), IndexArg::All, IndexArg::All]).unwrap());
    assert_eq!(row.0, vec![1, 3, 4]);
    let col = arr(get(&c, &[IndexArg::All, i(1), i(2)]).unwrap());
    assert_eq!(col, (vec![2, 1], vec![6.0, 18.0]));
    // The result is a copy.
    let Value::Array(r) = get(&m, &[i(0), IndexArg::All]).unwrap() else {
        panic!()
    };
    assert!(!std::rc::Rc::ptr_eq(&r.data, &m.data));
    assert_eq!(r.borrow().elem(), ElemType::F64);
}

#[test]
fn slice_assignment() {
    let m = iota(vec![3, 4]);
    set(&m, &[i(1), IndexArg::All], &Value::Real(0.0), Prec::Double).unwrap();
    assert_eq!(&data(&m)[4..8], &[0.0; 4]);
    let src = Value::array(Array::from_ints(vec![2, 2], vec![1, 2, 3, 4]));
    set(&m, &[range(0, 2, 2), range(3, -1, 2)], &src, Prec::Double).unwrap();
    let d = data(&m);
    assert_eq!((d[3], d[2], d[11], d[10]), (1.0, 2.0, 3.0, 4.0));
    let six = Value::array(Array::from_ints(vec![6], vec![0; 6]));
    assert_eq!(
        err(set(
            &m,
            &[range(0, 1, 1), range(0, 1, 1)],
            &six,
            Prec::Double
        )),
        "cannot assign 6 values to 4 elements"
    );
    // Duplicates: the last write wins; the source may alias the target.
    let v = iota(vec![5]);
    set(
        &v,
        &[IndexArg::Value(ints(&[1, 1]))],
        &ints(&[7, 8]),
        Prec::Double,
    )
    .unwrap();
    assert_eq!(data(&v)[1], 8.0);
    let alias = Value::Array(v.clone());
    set(&v, &[range(4, -1, 0)], &alias, Prec::Double).unwrap();
    assert_eq!(data(&v), vec![4.0, 3.0, 2.0, 8.0, 0.0]);
}

#[test]
fn masks() {
    let a = reals(vec![2, 2], vec![-1.0, 2.0, -3.0, 4.0]);
    let mask = Value::array(Array::from_reals(
        vec![2, 2],
        vec![1.0, 0.0, 1.0, 0.0],
        Prec::Single,
    ));
    assert_eq!(
        arr(get(&a, &[IndexArg::Value(mask.clone())]).unwrap()),
        (vec![2], vec![-1.0, -3.0])
    );
    set(
        &a,
        &[IndexArg::Value(mask.clone())],
        &Value::Real(0.0),
        Prec::Double,
    )
    .unwrap();
    assert_eq!(data(&a), vec![0.0, 2.0, 0.0, 4.0]);
    // Same-shape value: element-wise select.
    let c = Value::array(Array::from_reals(
        vec![2, 2],
        vec![10.0, 20.0, 30.0, 40.0],
        Prec::Double,
    ));
    set(&a, &[IndexArg::Value(mask.clone())], &c, Prec::Double).unwrap();
    assert_eq!(data(&a), vec![10.0, 2.0, 30.0, 4.0]);
    // A vec with as many elements as selected.
    set(&a, &[IndexArg::Value(mask)], &ints(&[5, 6]), Prec::Double).unwrap();
    assert_eq!(data(&a), vec![5.0, 2.0, 6.0, 4.0]);
}

#[test]
fn read_modes_at_the_edges() {
    let v = reals(vec![5], vec![10.0, 11.0, 12.0, 13.0, 14.0]);
    let at = |mode, k: i64| num(get_scalar_index(&with_mode(&v, mode), &[k]).unwrap());
    let cases = [
        (Mode::Circular, [14.0, 10.0, 14.0, 10.0]),
        (Mode::Mirror, [11.0, 14.0, 13.0, 10.0]),
        (Mode::Clamped, [10.0, 14.0, 10.0, 14.0]),
        (Mode::Safe, [0.0; 4]),
    ];
    for (mode, want) in cases {
        let got: Vec<f64> = [-1, 5, -6, 10].iter().map(|&k| at(mode, k)).collect();
        assert_eq!(got, want, "{mode:?}");
    }
    assert_eq!(resolve_read(-1, 5, Mode::Mirror, 0).unwrap(), Some(1));
    assert_eq!(resolve_read(3, 0, Mode::Safe, 0).unwrap(), None);
    assert!(resolve_read(3, 0, Mode::Circular, 0).is_err());
    for mode in [Mode::Default, Mode::Checked, Mode::Unchecked] {
        let e = err(get_scalar_index(&with_mode(&v, mode), &[5]));
        assert_eq!(e, "index 5 is out of bounds for dimension 0 of size 5 (indices start at 0: the last is 4, \
             and a loop over the dimension is `for i = 0..4`)");
    }
    let m = with_mode(&iota(vec![3, 4]), Mode::Default);
    assert_eq!(
        err(get(&m, &[i(1), i(-1)])),
        "index -1 is out of bounds for dimension 1 of size 4"
    );
    // Slices: only the outside elements are zero.
    let s = get(&with_mode(&v, Mode::Safe), &[range(3, 1, 6)]).unwrap();
    assert_eq!(arr(s).1, vec![13.0, 14.0, 0.0, 0.0]);
    let c = get(&with_mode(&v, Mode::Circular), &[range(-2, 1, 1)]).unwrap();
    assert_eq!(arr(c).1, vec![13.0, 14.0, 10.0, 11.0]);
}

#[test]
fn write_modes_and_const() {
    let v = iota(vec![5]);
    for mode in [
        Mode::Default,
        Mode::Safe,
        Mode::Circular,
        Mode::Mirror,
        Mode::Clamped,
    ] {
        set_scalar_index(&with_mode(&v, mode), &[7], &Value::Real(9.0)).unwrap();
        set(
            &with_mode(&v, mode),
            &[range(3, 1, 6)],
            &ints(&[1, 2, 3, 4]),
            Prec::Double,
        )
        .unwrap();
    }
    assert_eq!(data(&v), vec![0.0, 1.0, 2.0, 1.0, 2.0]);
    for mode in [Mode::Checked, Mode::Unchecked] {
        let e = err(set_scalar_index(
            &with_mode(&v, mode),
            &[5],
            &Value::Real(1.0),
        ));
        assert_eq!(
            e,
            "index 5 is out of bounds for dimension 0 of size 5 (indices start at 0: the last is 4, \
             and a loop over the dimension is `for i = 0..4`)"
        );
    }
    assert!(set(
        &with_mode(&v, Mode::Checked),
        &[i(-1)],
        &Value::Real(1.0),
        Prec::Double
    )
    .is_err());
    let c = v.with_mode(Access {
        mode: Mode::Default,
        is_const: true,
    });
    assert_eq!(
        err(set_scalar_index(&c, &[0], &Value::Real(1.0))),
        "cannot write to a 'const array"
    );
    assert_eq!(
        err(set(&c, &[IndexArg::All], &Value::Real(1.0), Prec::Double)),
        "cannot write to a 'const array"
    );
    let z = Value::Complex(Complex64::new(1.0, 2.0));
    assert_eq!(
        err(set_scalar_index(&v, &[0], &z)),
        "cannot store a complex value in a real array"
    );
    assert!(set_scalar_index(&v, &[0], &Value::str("x")).is_err());
    assert!(get(&v, &[IndexArg::Value(z)]).is_err());
}

#[test]
fn cells() {
    let inner = Value::array(Array::from_reals(
        vec![2, 2],
        vec![1.0, 2.0, 3.0, 4.0],
        Prec::Double,
    ));
    let c = ArrayRef::new(Array::cell(
        vec![3],
        vec![inner, Value::int(5), Value::str("s")],
    ));
    assert_eq!(
        arr(get(&c, &[i(0)]).unwrap()),
        (vec![2, 2], vec![1.0, 2.0, 3.0, 4.0])
    );
    assert_eq!(num(get_scalar_index(&c, &[1]).unwrap()), 5.0);
    set_scalar_index(&c, &[2], &ints(&[8, 9])).unwrap();
    assert_eq!(arr(get(&c, &[i(2)]).unwrap()), (vec![2], vec![8.0, 9.0]));
    set(&c, &[i(1)], &Value::str("t"), Prec::Double).unwrap();
    assert!(matches!(get_scalar_index(&c, &[1]).unwrap(), Value::Str(s) if &*s == "t"));
    let safe = with_mode(&c, Mode::Safe);
    assert_eq!(num(get_scalar_index(&safe, &[7]).unwrap()), 0.0);
    let Value::Array(sl) = get(&c, &[range(0, 1, 1)]).unwrap() else {
        panic!()
    };
    assert!(sl.borrow().is_cell());
    assert_eq!(sl.borrow().len(), 2);
}

#[test]
fn odd_inputs_do_not_panic() {
    let v = iota(vec![4]);
    let huge = range(0, 1, i64::MAX);
    assert!(get(&with_mode(&v, Mode::Circular), &[huge.clone()]).is_err());
    assert!(get(&v, &[range(i64::MIN, 1, i64::MAX)]).is_err());
    assert_eq!(
        num(get_scalar_index(&with_mode(&v, Mode::Mirror), &[i64::MIN]).unwrap()),
        0.0
    );
    assert!(get(&v, &[]).is_err());
    let e = iota(vec![0, 3]);
    assert!(get(&e, &[i(0), i(0)]).is_err());
    assert_eq!(
        arr(get(&e, &[IndexArg::All, i(1)]).unwrap()),
        (vec![0, 1], vec![])
    );
    assert_eq!(
        num(get_scalar_index(&with_mode(&e, Mode::Safe), &[0, 0]).unwrap()),
        0.0
    );
    let bad = ArrayRef::new(Array {
        dims: vec![3],
        buf: Buffer::F32(vec![0.0]),
    });
    assert!(get_scalar_index(&bad, &[2]).is_err());
}

#[test]
fn slices_of_whole_rows_copy_blocks_and_match_the_element_rule() {
    // Rows of a cube (one block), a band of rows and channels of a matrix of blocks,
    // and a 'safe slice reaching outside: each as the element-by-element definition.
    let x = iota(vec![8, 6, 4]);
    let expect = |rows: std::ops::Range<usize>, cols: std::ops::Range<usize>| {
        let mut v = Vec::new();
        for r in rows.clone() {
            for c in cols.clone() {
                for k in 0..4 {
                    v.push(((r * 6 + c) * 4 + k) as f64);
                }
            }
        }
        v
    };
    let rows = get(&x, &[range(2, 1, 5), IndexArg::All, IndexArg::All]).unwrap();
    assert_eq!(arr(rows), (vec![4, 6, 4], expect(2..6, 0..6)));
    let band = get(&x, &[range(1, 1, 6), range(1, 1, 4), IndexArg::All]).unwrap();
    assert_eq!(arr(band), (vec![6, 4, 4], expect(1..7, 1..5)));
    let safe = with_mode(&x, Mode::Safe);
    let (dims, v) = arr(get(&safe, &[range(6, 1, 9), IndexArg::All, IndexArg::All]).unwrap());
    assert_eq!(dims, vec![4, 6, 4]);
    assert_eq!(v[..48], expect(6..8, 0..6)[..]);
    assert!(v[48..].iter().all(|&e| e == 0.0), "outside reads as 0");
}
