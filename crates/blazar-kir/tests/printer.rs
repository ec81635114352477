//! Snapshot tests of the KIR text form.

mod common;

use blazar_kir::printer::{print_expr, print_kernel};
use blazar_kir::*;
use common::*;

#[test]
fn gamma_snapshot() {
    let want = "\
kernel gamma rank 3
  param y -> @0 : global [f32; rank 3] read=Mirror write=Skip
  param gamma -> %0 : f32
  var %0 gamma : f32
  array @0 y : global [f32; rank 3] read=Mirror write=Skip
  body
    L12 @0[lane(pos, 0), lane(pos, 1), lane(pos, 2)] = (255.0f32 * pow((@0[lane(pos, 0), lane(pos, 1), lane(pos, 2)] / 255.0f32), %0))
";
    assert_eq!(print_kernel(&gamma()), want);
}

#[test]
fn reduction_snapshot() {
    let want = "\
kernel reduce rank 1
  param x -> @0 : global [f32; rank 1] read=Unchecked write=Skip const
  param y -> @1 : global [f32; rank 1] read=Zero write=Skip
  var %0 bit : i32
  var %1 i : i32
  array @0 x : global [f32; rank 1] read=Unchecked write=Skip const
  array @1 y : global [f32; rank 1] read=Zero write=Skip
  array @2 vals : shared [f32; rank 1] read=Zero write=Skip
  body
    L3 @2 = shared(blkdim)
    L4 @2[blkpos] = @0[pos]
    L5 syncthreads
    L6 %0 = 1
    L6 while (%0 < blkdim) {
      L7 if ((blkpos % (%0 * 2)) == 0) {
        L8 atomic @2[blkpos] += @2[(blkpos + %0)]
      }
      L10 syncthreads
      L11 %0 = (%0 * 2)
    }
    L13 if (blkpos == 0) {
      L14 @1[blkidx] = @2[0]
    } else {
      L16 return
    }
    L18 for %1 = 0 .. 1 .. (size(@1, 0) - 1) {
      L19 assert (%1 >= 0)
      L20 break 0
    }
";
    assert_eq!(print_kernel(&reduction()), want);
}

#[test]
fn output_snapshot() {
    let want = "\
kernel acc rank 2
  param w -> @0 : global [f32; rank 2] read=Zero write=Skip
  param a -> %1 : f32
  output total += f32
  var %0 v : f32x3
  var %1 a : f32
  var %2 b : u8
  array @0 w : global [f32; rank 2] read=Zero write=Skip
  array @1 t : local [u8; rank 1] read=Zero write=Skip
  body
    L2 %0 = ([lane(f32x2(pos), 0), 0.5f32, -1.0f32]:f32x3 * splat(2.0f32):f32x3)
    L3 %0[2] = 1e-7f32
    L4 @1 = ones(4)
    L5 %2 = (@1[0] & 255u8)
    L6 output 0 total += select((lane(pos, 1) > 3), vsum(%0), real(complex(%1, 1.0f32)))
";
    assert_eq!(print_kernel(&with_output()), want);
}

#[test]
fn constants_carry_their_type() {
    let c = |c, ty| print_expr(&e(ExprKind::Const(c), ty));
    assert_eq!(c(Const::Int(7), Ty::I32), "7");
    assert_eq!(c(Const::Int(-7), Ty::Scalar(Scalar::I64)), "-7i64");
    assert_eq!(c(Const::Float(0.25), Ty::Scalar(Scalar::F64)), "0.25f64");
    assert_eq!(c(Const::Float(f64::INFINITY), F32), "inff32");
    assert_eq!(
        c(Const::Complex(1.0, -2.0), Ty::Scalar(Scalar::C64)),
        "(1.0, -2.0i)c64"
    );
    assert_eq!(c(Const::Bool(true), Ty::BOOL), "true");
    // Ill-typed constants still print, with the type spelled out.
    assert_eq!(
        c(Const::Float(1.0), Ty::Vector(Scalar::F32, 2)),
        "1.0:f32x2"
    );
    assert_eq!(c(Const::Bool(false), Ty::I32), "false:i32");
}

#[test]
fn malformed_kernels_print_without_panicking() {
    let mut k = with_output();
    k.params.push(param("ghost", Bind::Var(99)));
    k.params.push(param("ghost_arr", Bind::Array(99)));
    k.body.push(s(
        StmtKind::Accumulate {
            output: 9,
            value: f32c(1.0),
        },
        7,
    ));
    let text = print_kernel(&k);
    assert!(text.contains("  param ghost -> %99 : ?\n"), "{text}");
    assert!(text.contains("  param ghost_arr -> @99 : ?\n"), "{text}");
    assert!(text.contains("    L7 output 9 ? ?= 1.0f32\n"), "{text}");
}
