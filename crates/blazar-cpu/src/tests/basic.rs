//! Element-wise maps, boundary modes, write modes and memory errors.

use super::build::*;
use crate::*;
use blazar_kir::*;
use blazar_launch::KValue;
use blazar_runtime::Buffer;

/// `y[pos] = x[pos] ^ g` over an index space of `dims`.
fn gamma_kernel(rank: u8) -> Kernel {
    let mut b = KB::new(rank);
    let x = b.garr(Scalar::F32, rank);
    let y = b.garr(Scalar::F32, rank);
    let g = b.param(F32);
    let p = pos(rank);
    let idx: Vec<Expr> = if rank == 1 {
        vec![p]
    } else {
        (0..rank as i64).map(|d| lane(p.clone(), d)).collect()
    };
    let v = bin(BinOp::Pow, x.at(idx.clone()), g);
    b.build(vec![y.set(idx, v)])
}

fn check_gamma(dims: &[usize], block: &[usize]) {
    let n: usize = dims.iter().product();
    let xs: Vec<f32> = (0..n).map(|i| (i % 97) as f32 / 97.0).collect();
    let k = gamma_kernel(dims.len() as u8);
    let bufs = vec![
        (dims.to_vec(), Buffer::F32(xs.clone())),
        (dims.to_vec(), Buffer::F32(vec![0.0; n])),
    ];
    let args = vec![
        ArgVal::Array(0),
        ArgVal::Array(1),
        ArgVal::Value(KValue::Float(2.2)),
    ];
    let (r, out) = run(&k, dims, block, args, bufs, 0);
    r.unwrap();
    for (i, (&a, &b)) in xs.iter().zip(f32s(&out[1])).enumerate() {
        // Real powers in f64, rounded once (the host's rule).
        assert_eq!(b, (a as f64).powf(2.2f32 as f64) as f32, "element {i}");
    }
}

#[test]
fn gamma_1d_2d_3d() {
    check_gamma(&[1000], &[1]);
    check_gamma(&[37, 41], &[1, 1]);
    check_gamma(&[13, 17, 3], &[1, 1, 3]);
    check_gamma(&[64, 64, 3], &[8, 8, 1]);
}

/// `y[i] = x[i + shift]` on a vec of 5 with read mode `mode`.
fn shifted(mode: ReadMode, shift: i64) -> Result<Vec<f32>, KernelError> {
    let mut b = KB::new(1);
    let x = b.arr(Scalar::F32, 1, mode, WriteMode::Skip);
    let y = b.garr(Scalar::F32, 1);
    let k = b.build(vec![at_line(
        7,
        y.set(vec![pos(1)], x.at(vec![add(pos(1), ci(shift))])),
    )]);
    let xs = vec![10.0, 11.0, 12.0, 13.0, 14.0];
    let bufs = vec![
        (vec![5], Buffer::F32(xs)),
        (vec![5], Buffer::F32(vec![0.0; 5])),
    ];
    let (r, out) = run(&k, &[5], &[1], arrays(2), bufs, 0);
    r.map(|_| f32s(&out[1]).to_vec())
}

#[test]
fn read_modes_at_edges() {
    assert_eq!(
        shifted(ReadMode::Zero, -2).unwrap(),
        [0.0, 0.0, 10.0, 11.0, 12.0]
    );
    assert_eq!(
        shifted(ReadMode::Zero, 2).unwrap(),
        [12.0, 13.0, 14.0, 0.0, 0.0]
    );
    assert_eq!(
        shifted(ReadMode::Unchecked, 3).unwrap(),
        [13.0, 14.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(
        shifted(ReadMode::Circular, -2).unwrap(),
        [13.0, 14.0, 10.0, 11.0, 12.0]
    );
    assert_eq!(
        shifted(ReadMode::Circular, 7).unwrap(),
        [12.0, 13.0, 14.0, 10.0, 11.0]
    );
    // Mirror: -1 -> 1, -2 -> 2, 5 -> 4, 6 -> 3.
    assert_eq!(
        shifted(ReadMode::Mirror, -2).unwrap(),
        [12.0, 11.0, 10.0, 11.0, 12.0]
    );
    assert_eq!(
        shifted(ReadMode::Mirror, 2).unwrap(),
        [12.0, 13.0, 14.0, 14.0, 13.0]
    );
    assert_eq!(
        shifted(ReadMode::Clamped, -2).unwrap(),
        [10.0, 10.0, 10.0, 11.0, 12.0]
    );
    assert_eq!(
        shifted(ReadMode::Clamped, 3).unwrap(),
        [13.0, 14.0, 14.0, 14.0, 14.0]
    );
    assert_eq!(
        shifted(ReadMode::Checked, 0).unwrap(),
        [10.0, 11.0, 12.0, 13.0, 14.0]
    );
    let e = shifted(ReadMode::Checked, 1).unwrap_err();
    assert_eq!(e.kind, KernelErrorKind::OutOfBounds);
    assert_eq!(e.line, 7);
    assert_eq!(e.message, blazar_launch::out_of_bounds_message(5, 0, 5));
}

#[test]
fn read_modes_2d_and_linear_index() {
    // 3x4 matrix; y[i,j] = x[i-1, j+1] (circular) and a linear index read.
    let mut b = KB::new(2);
    let x = b.arr(Scalar::I32, 2, ReadMode::Circular, WriteMode::Skip);
    let y = b.garr(Scalar::I32, 2);
    let z = b.garr(Scalar::I32, 2);
    let p = pos(2);
    let (i, j) = (lane(p.clone(), 0), lane(p.clone(), 1));
    let lin = add(mul(i.clone(), ci(4)), j.clone());
    let k = b.build(vec![
        y.set(
            vec![i.clone(), j.clone()],
            x.at(vec![sub(i.clone(), ci(1)), add(j.clone(), ci(1))]),
        ),
        z.set(vec![i.clone(), j.clone()], x.at(vec![sub(ci(11), lin)])),
    ]);
    let xs: Vec<i32> = (0..12).collect();
    let bufs = vec![
        (vec![3, 4], Buffer::I32(xs)),
        (vec![3, 4], Buffer::I32(vec![0; 12])),
        (vec![3, 4], Buffer::I32(vec![0; 12])),
    ];
    let (r, out) = run(&k, &[3, 4], &[1, 1], arrays(3), bufs, 0);
    r.unwrap();
    let want: Vec<i32> = (0..12)
        .map(|l| (((l / 4) + 2) % 3) * 4 + ((l % 4) + 1) % 4)
        .collect();
    assert_eq!(i32s(&out[1]), &want[..]);
    let rev: Vec<i32> = (0..12).rev().collect();
    assert_eq!(i32s(&out[2]), &rev[..]);
}

/// `y[i + 2] = i` on a vec of 5 with write mode `mode`.
fn write_shifted(mode: WriteMode) -> (Result<Vec<KValue>, KernelError>, Vec<i32>) {
    let mut b = KB::new(1);
    let y = b.arr(Scalar::I32, 1, ReadMode::Zero, mode);
    let k = b.build(vec![at_line(3, y.set(vec![add(pos(1), ci(2))], pos(1)))]);
    let (r, out) = run(
        &k,
        &[5],
        &[1],
        arrays(1),
        vec![(vec![5], Buffer::I32(vec![-1; 5]))],
        0,
    );
    (r, i32s(&out[0]).to_vec())
}

#[test]
fn write_modes() {
    let (r, y) = write_shifted(WriteMode::Skip);
    r.unwrap();
    assert_eq!(y, [-1, -1, 0, 1, 2]);
    let (r, y) = write_shifted(WriteMode::Unchecked);
    r.unwrap();
    assert_eq!(y, [-1, -1, 0, 1, 2]);
    let (r, _) = write_shifted(WriteMode::Checked);
    let e = r.unwrap_err();
    assert_eq!((e.kind, e.line), (KernelErrorKind::OutOfBounds, 3));
    assert_eq!(e.message, blazar_launch::out_of_bounds_message(5, 0, 5));
}

#[test]
fn lazy_select_skips_checked_loads() {
    // y[i] = i < 3 ? x'checked[i + 2] : -1 on 5 elements: lanes 3 and 4 would be outside.
    let mut b = KB::new(1);
    let x = b.arr(Scalar::I32, 1, ReadMode::Checked, WriteMode::Skip);
    let y = b.garr(Scalar::I32, 1);
    let v = select(lt(pos(1), ci(3)), x.at(vec![add(pos(1), ci(2))]), ci(-1));
    let k = b.build(vec![y.set(vec![pos(1)], v)]);
    let bufs = vec![
        (vec![5], Buffer::I32(vec![0, 1, 2, 3, 4])),
        (vec![5], Buffer::I32(vec![0; 5])),
    ];
    let (r, out) = run(&k, &[5], &[1], arrays(2), bufs, 0);
    r.unwrap();
    assert_eq!(i32s(&out[1]), [2, 3, 4, -1, -1]);
}

#[test]
fn element_conversion_between_buffer_and_kernel_types() {
    // The kernel sees f32 elements; the buffers hold u8 and i16.
    let mut b = KB::new(1);
    let x = b.garr(Scalar::F32, 1);
    let y = b.garr(Scalar::F32, 1);
    let k = b.build(vec![y.set(vec![pos(1)], mul(x.at(vec![pos(1)]), cf(2.6)))]);
    let bufs = vec![
        (vec![4], Buffer::U8(vec![1, 2, 100, 200])),
        (vec![4], Buffer::I16(vec![0; 4])),
    ];
    let (r, out) = run(&k, &[4], &[1], arrays(2), bufs, 0);
    r.unwrap();
    let Buffer::I16(v) = &out[1] else { panic!() };
    assert_eq!(v, &[2, 5, 260, 520]);
}

#[test]
fn bad_launches() {
    let k = gamma_kernel(1);
    let bufs = vec![
        (vec![10], Buffer::F32(vec![0.0; 10])),
        (vec![10], Buffer::F32(vec![0.0; 10])),
    ];
    let args = vec![
        ArgVal::Array(0),
        ArgVal::Array(1),
        ArgVal::Value(KValue::Float(1.0)),
    ];
    let (r, _) = run(&k, &[10], &[3], args.clone(), bufs, 0);
    assert_eq!(r.unwrap_err().kind, KernelErrorKind::BadLaunch);
    let bufs = vec![
        (vec![10], Buffer::F32(vec![0.0; 10])),
        (vec![10], Buffer::F32(vec![0.0; 9])),
    ];
    let (r, _) = run(&k, &[10], &[1], args, bufs, 0);
    assert_eq!(r.unwrap_err().kind, KernelErrorKind::BadLaunch);
}
