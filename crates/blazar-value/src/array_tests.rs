//! Tests of `Array`: shapes, element access and conversions.

use super::*;

#[test]
fn vec_reports_row_size() {
    let a = Array::zeros(vec![5], ElemType::F32);
    assert_eq!(a.size(), vec![1, 5]);
    assert_eq!(a.size_at(2), 1);
}

#[test]
fn canonical_dims_drop_trailing_singletons() {
    assert_eq!(Array::canonical_dims(&[1, 1, 4]), vec![1, 1, 4]);
    assert_eq!(Array::canonical_dims(&[1, 4]), vec![4]);
    assert_eq!(Array::canonical_dims(&[4, 1, 1]), vec![4, 1]);
    assert_eq!(Array::canonical_dims(&[1, 3, 2]), vec![1, 3, 2]);
    assert_eq!(Array::canonical_dims(&[2, 3]), vec![2, 3]);
    assert_eq!(Array::canonical_dims(&[1, 1]), vec![1]);
    assert_eq!(Array::canonical_dims(&[4, 1]), vec![4, 1]);
}

#[test]
fn conversions_truncate_like_c() {
    let mut b = Buffer::zeros(ElemType::Int(IntTy::U8), 2);
    b.set_f64(0, 3.9);
    b.set_f64(1, -1.0);
    assert_eq!(b.get_f64(0), 3.0);
    assert_eq!(b.get_f64(1), 0.0);
}
