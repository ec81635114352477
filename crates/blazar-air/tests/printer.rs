//! The text form of regions built as the interpreter builds them (`blazar emit air`):
//! each region is printed whole and compared with its expected text, and every region
//! the builder finishes passes the verifier.

use blazar_air::{
    print_region, verify, Arg, Axis, Builder, JoinKind, NodeRef, Prec, Reduce, Region, ScalarArg,
};
use blazar_kir::{ReadMode, Scalar};
use blazar_ops::{BinOp, Binary};

/// The text of a finished region, checked by the verifier first.
fn show(region: &Region) -> String {
    if let Err(errs) = verify(region) {
        panic!("the builder made an invalid region:\n{}", errs.join("\n"));
    }
    print_region("t", region)
}

fn konst(b: &mut Builder, x: f64) -> NodeRef {
    b.scalar(ScalarArg::Real(x), Scalar::I32, true)
}

#[test]
fn a_chain_of_arithmetic_is_one_flat_region() {
    // y = 2 * x + 1, x an f32 matrix
    let mut b = Builder::new(Prec::Single);
    let x = b.array(0, Scalar::F32, &[4, 3]).unwrap();
    let two = konst(&mut b, 2.0);
    let m = b.binary(Binary::Op(BinOp::Mul), two, x).unwrap();
    let one = konst(&mut b, 1.0);
    let y = b.binary(Binary::Op(BinOp::Add), m, one).unwrap();
    let done = b.finish(y, None).unwrap();
    assert_eq!(
        show(&done.region),
        "region t: rank 2, flat\n\
         \x20 in0 = array f32, rank 2\n\
         \x20 %0: f32 = in0\n\
         \x20 %1: f32 = const 2.0\n\
         \x20 %2: f32 = mul %1, %0\n\
         \x20 %3: f32 = const 1.0\n\
         \x20 %4: f32 = add %2, %3\n\
         \x20 result %4\n"
    );
}

#[test]
fn a_broadcast_reduction_shows_its_unit_dimension_and_accumulator() {
    // sum(x .* w) with x an f32 4x3 matrix and w a 1x3 row of f64, by a run-time scale
    let mut b = Builder::new(Prec::Single);
    let x = b.array(0, Scalar::F32, &[4, 3]).unwrap();
    let w = b.array(1, Scalar::F64, &[1, 3]).unwrap();
    let s = b.scalar(ScalarArg::Real(0.5), Scalar::I32, false);
    let xw = b.binary(Binary::Op(BinOp::Mul), x, w).unwrap();
    let y = b.binary(Binary::Op(BinOp::Mul), xw, s).unwrap();
    let done = b.finish(y, Some(Reduce::Sum)).unwrap();
    assert_eq!(
        show(&done.region),
        "region t: rank 2, indexed\n\
         \x20 in0 = array f32, rank 2\n\
         \x20 in1 = array f64, rank 2, unit [0]\n\
         \x20 in2 = scalar f32\n\
         \x20 %0: f32 = in0\n\
         \x20 %1: f64 = in1\n\
         \x20 %2: f32 = in2\n\
         \x20 %3: f64 = cast %0\n\
         \x20 %4: f64 = mul %3, %1\n\
         \x20 %5: f32 = cast %4\n\
         \x20 %6: f32 = mul %5, %2\n\
         \x20 result sum(%6) in f64\n"
    );
}

#[test]
fn a_view_a_math_function_and_a_comparison() {
    // sqrt(A[2, 1..6]) > 0.5 at double precision: a fixed row and a range of columns
    let mut b = Builder::new(Prec::Double);
    let v = b
        .view(
            7,
            Scalar::F64,
            vec![Axis::Fixed, Axis::Range(0)],
            vec![2, 1, 1],
            vec![5],
        )
        .unwrap();
    let r = b.math("sqrt", v).unwrap();
    let half = konst(&mut b, 0.5);
    let c = b.binary(Binary::Op(BinOp::Gt), r, half).unwrap();
    let done = b.finish(c, None).unwrap();
    assert_eq!(
        show(&done.region),
        "region t: rank 1, indexed\n\
         \x20 in0 = view f64, rank 1, of [fixed, shift 0]\n\
         \x20 %0: f64 = in0\n\
         \x20 %1: f64 = sqrt %0\n\
         \x20 %2: f64 = const 0.5\n\
         \x20 %3: bool = gt %1, %2\n\
         \x20 %4: f64 = cast %3\n\
         \x20 result %4\n"
    );
    // The range of step 1 is a shift: its start alone is a parameter.
    assert_eq!(done.args, vec![Arg::View(7, vec![2, 1])]);
}

#[test]
fn a_view_keeps_a_range_of_another_step() {
    // A[0..2..8, 3] and A[7..-1..0, 3]: ranges of steps 2 and -1 keep both parameters.
    for (start, step) in [(0, 2), (7, -1)] {
        let mut b = Builder::new(Prec::Single);
        let v = b
            .view(
                3,
                Scalar::F32,
                vec![Axis::Range(0), Axis::Fixed],
                vec![start, step, 3],
                vec![5],
            )
            .unwrap();
        let done = b.finish(v, None).unwrap();
        assert!(
            show(&done.region).contains("of [range 0, fixed]"),
            "{}",
            show(&done.region)
        );
        assert_eq!(done.args, vec![Arg::View(3, vec![start, step, 3])]);
    }
}

#[test]
fn a_gather_reads_its_table_at_int_indices() {
    // t[idx] with idx an int32 vec and t an f32 matrix read 'checked
    let mut b = Builder::new(Prec::Single);
    let idx = b.array(0, Scalar::I32, &[6]).unwrap();
    let g = b.gather(1, Scalar::F32, 2, ReadMode::Checked, idx).unwrap();
    let done = b.finish(g, None).unwrap();
    assert_eq!(
        show(&done.region),
        "region t: rank 1, flat\n\
         \x20 in0 = array i32, rank 1\n\
         \x20 in1 = table f32, rank 2, read checked\n\
         \x20 %0: i32 = in0\n\
         \x20 %1: i64 = cast %0\n\
         \x20 %2: f32 = gather in1[%1]\n\
         \x20 result %2\n"
    );
}

#[test]
fn a_join_lists_its_parts() {
    // [x, 2 * x] along columns (horzcat) of f32 matrices
    let mut b = Builder::new(Prec::Single);
    let x = b.array(0, Scalar::F32, &[2, 3]).unwrap();
    let two = konst(&mut b, 2.0);
    let y = b.binary(Binary::Op(BinOp::Mul), two, x).unwrap();
    let j = b.join(JoinKind::Cat(1), &[x, y]).unwrap();
    let done = b.finish(j, None).unwrap();
    assert_eq!(done.dims, vec![2, 6]);
    assert_eq!(
        show(&done.region),
        "region t: rank 2, indexed\n\
         \x20 in0 = array f32, rank 2\n\
         \x20 in1 = scalar i32\n\
         \x20 in2 = scalar i32\n\
         \x20 in3 = scalar i32\n\
         \x20 in4 = scalar i32\n\
         \x20 %0: f32 = in0\n\
         \x20 %1: f32 = const 2.0\n\
         \x20 %2: f32 = mul %1, %0\n\
         \x20 %3: i32 = in1\n\
         \x20 %4: i32 = in2\n\
         \x20 %5: i32 = in3\n\
         \x20 %6: i32 = in4\n\
         \x20 %7: f32 = join axis 1, rank 2: %0 at %3 len %4 dims [0, 1]; %2 at %5 len %6 dims [0, 1]\n\
         \x20 result %7\n"
    );
}

#[test]
fn a_mean_along_a_dimension_and_a_running_sum() {
    let mut b = Builder::new(Prec::Single);
    let x = b.array(0, Scalar::I32, &[4, 5]).unwrap();
    let mean = b.finish_along(x, Reduce::Sum, 1, true).unwrap();
    assert_eq!(
        show(&mean.region),
        "region t: rank 2, indexed\n\
         \x20 in0 = array i32, rank 2\n\
         \x20 %0: i32 = in0\n\
         \x20 result mean(%0) along 1 in f64 as f32\n"
    );
    let scan = b.finish_scan(x, Reduce::Prod, 0).unwrap();
    assert_eq!(
        show(&scan.region).lines().last(),
        Some("  result cumprod(%0) along 0 in i32 as i32")
    );
}
