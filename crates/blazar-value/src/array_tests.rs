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
    assert_eq!(Array::canonical_dims(&[]), vec![0]);
    assert_eq!(Array::canonical_dims(&[7]), vec![7]);
    assert_eq!(Array::canonical_dims(&[1, 1, 1]), vec![1]);
}

#[test]
fn owned_canonical_dims_match_and_keep_their_buffer() {
    for d in [
        &[][..],
        &[5],
        &[1, 4],
        &[4, 1, 1],
        &[1, 1, 4],
        &[2, 3, 1, 1],
        &[1, 1],
        &[3, 1],
        &[1024, 3072],
    ] {
        assert_eq!(
            Array::into_canonical_dims(d.to_vec()),
            Array::canonical_dims(d)
        );
    }
    let dims = vec![1024, 3072];
    let at = dims.as_ptr();
    assert_eq!(Array::into_canonical_dims(dims).as_ptr(), at);
    // Slices keep an empty or single length as it is.
    assert_eq!(slice_dims(&[]), Vec::<usize>::new());
    assert_eq!(slice_dims(&[1]), vec![1]);
    assert_eq!(slice_dims(&[1, 1, 5, 1]), vec![1, 1, 5]);
}

#[test]
fn conversions_truncate_like_c() {
    let mut b = Buffer::zeros(ElemType::Int(IntTy::U8), 2);
    b.set_f64(0, 3.9);
    b.set_f64(1, -1.0);
    assert_eq!(b.get_f64(0), 3.0);
    assert_eq!(b.get_f64(1), 0.0);
}
