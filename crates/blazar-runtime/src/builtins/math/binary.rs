//! Two-argument element-wise builtins: `mod periodize mirror_ext pow min max clamp` and
//! the bit operations `and or xor shl shr` (functions of reals such as `atan2` come
//! from their rows of `blazar_ops::MATH`, [`super::by_row`]).
//!
//! They broadcast like the operators. Two int arguments give an int of the common type
//! (`mod`, `periodize`, `mirror_ext`, `min`, `max`, bit operations); otherwise results
//! are reals. Bit operations on reals truncate to integers and give reals.

use super::bi;
use crate::builtins::{Builtin, Ctx};
use crate::ops::{binary as op_binary, elementwise, BinOp, CplxMode, HostOp, Kernel2, Who};
use crate::value::{IntTy, Prec, Value};
use crate::{rt_bail, RtResult};
use blazar_ops::scalar::{Arith as A, Bits};
use num_complex::Complex64;

type C = Complex64;

macro_rules! kernel {
    ($name:ident, int: |$a:ident, $b:ident, $t:ident| $ie:expr, real: |$x:ident, $y:ident| $re:expr) => {
        pub(in crate::builtins) struct $name;
        impl Kernel2 for $name {
            const INT: bool = true;
            #[inline(always)]
            fn int($a: i64, $b: i64, $t: IntTy) -> i64 {
                $ie
            }
            #[inline(always)]
            fn real($x: f64, $y: f64) -> f64 {
                $re
            }
        }
    };
}

fn unsigned(t: IntTy) -> bool {
    t == IntTy::U64
}

kernel!(ModK,
    int: |a, b, t| if unsigned(t) { A::rem(a as u64, b as u64) as i64 } else { A::rem(a, b) },
    real: |a, b| A::rem(a, b));
kernel!(PeriodizeK,
    int: |a, b, t| if b == 0 { 0 } else if unsigned(t) { ((a as u64) % (b as u64)) as i64 } else { a.checked_rem_euclid(b).unwrap_or(0) },
    real: |a, b| { let r = a.rem_euclid(b); if r >= b.abs() { 0.0 } else { r } });
kernel!(MirrorK,
    int: |x, n, _t| mirror_int(x, n),
    real: |x, n| mirror_real(x, n));
kernel!(MinK,
    int: |a, b, t| if unsigned(t) { A::min(a as u64, b as u64) as i64 } else { A::min(a, b) },
    real: |a, b| A::min(a, b));
kernel!(MaxK,
    int: |a, b, t| if unsigned(t) { A::max(a as u64, b as u64) as i64 } else { A::max(a, b) },
    real: |a, b| A::max(a, b));
kernel!(AndK, int: |a, b, _t| a.and(b), real: |a, b| (a as i64).and(b as i64) as f64);
kernel!(OrK, int: |a, b, _t| a.or(b), real: |a, b| (a as i64).or(b as i64) as f64);
kernel!(XorK, int: |a, b, _t| a.xor(b), real: |a, b| (a as i64).xor(b as i64) as f64);
kernel!(ShlK,
    int: |a, n, t| if unsigned(t) { (a as u64).shl(n as u64) as i64 } else { a.shl(n) },
    real: |a, n| (a as i64).shl(n as i64) as f64);
kernel!(ShrK,
    int: |a, n, t| if unsigned(t) { (a as u64).shr(n as u64) as i64 } else { a.shr(n) },
    real: |a, n| (a as i64).shr(n as i64) as f64);

/// Mirror extension of index `x` into `[0, n)`: `m = |x| mod 2n; if m >= n: 2n-1-m`.
fn mirror_int(x: i64, n: i64) -> i64 {
    if n <= 0 {
        return 0;
    }
    let p = n.saturating_mul(2);
    let m = (x.unsigned_abs() % p as u64) as i64;
    if m >= n {
        p - 1 - m
    } else {
        m
    }
}

fn mirror_real(x: f64, n: f64) -> f64 {
    if n.is_nan() || x.is_nan() || n <= 0.0 {
        return 0.0;
    }
    let p = 2.0 * n;
    let m = x.abs() % p;
    if m >= n {
        p - 1.0 - m
    } else {
        m
    }
}

/// `complex(re, im)` with `re` already complex: takes its real part and `im`'s.
struct MakeComplexK;
impl Kernel2 for MakeComplexK {
    const CPLX: CplxMode = CplxMode::Complex;
    fn real(a: f64, _b: f64) -> f64 {
        a
    }
    fn cplx(a: C, b: C) -> C {
        C::new(a.re, b.re)
    }
}

pub(in crate::builtins) fn make_complex(re: &Value, im: &Value, prec: Prec) -> RtResult<Value> {
    elementwise::<MakeComplexK>(Who::Func("complex"), re, im, prec)
}

/// Element-wise `min(a, b)` (NaN-ignoring for reals).
pub(in crate::builtins) fn min2(a: &Value, b: &Value, prec: Prec) -> RtResult<Value> {
    elementwise::<MinK>(Who::Func("min"), a, b, prec)
}

pub(in crate::builtins) fn max2(a: &Value, b: &Value, prec: Prec) -> RtResult<Value> {
    elementwise::<MaxK>(Who::Func("max"), a, b, prec)
}

macro_rules! binary_fn {
    ($($fname:ident => $qname:literal, $k:ty;)*) => {
        $(fn $fname(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
            elementwise::<$k>(Who::Func($qname), &args[0], &args[1], ctx.prec)
        })*
    };
}

binary_fn! {
    modulo => "mod", ModK;
    periodize => "periodize", PeriodizeK;
    mirror_ext => "mirror_ext", MirrorK;
    bit_and => "and", AndK;
    bit_or => "or", OrK;
    bit_xor => "xor", XorK;
    bit_shl => "shl", ShlK;
    bit_shr => "shr", ShrK;
}

fn pow(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    op_binary(HostOp::dot(BinOp::Pow), &args[0], &args[1], ctx.prec).map_err(|e| {
        crate::RtError::new(e.message.replace(
            "operator `.^` cannot be applied to",
            "pow: cannot be applied to",
        ))
    })
}

/// `clamp(x, lo, hi)` = `min(max(x, lo), hi)`; `clamp(x, hi)` clamps to `[0, hi]`.
fn clamp(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (lo, hi) = match args {
        [_, hi] => (&Value::int(0), hi),
        [_, lo, hi, ..] => (lo, hi),
        _ => rt_bail!("clamp takes 2 or 3 arguments"),
    };
    let lower = elementwise::<MaxK>(Who::Func("clamp"), &args[0], lo, ctx.prec)?;
    elementwise::<MinK>(Who::Func("clamp"), &lower, hi, ctx.prec)
}

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi("mod", modulo, 2, 2).doc(
        "mod(x, n)",
        "The remainder of x / n with the sign of x (C's fmod), element by element with broadcasting; ints stay ints. For an index that wraps around use `periodize`.",
        "print mod(7, 3), \" \", mod(-7, 3), \" \", mod([5.5, 6], 2)",
        "1 -1 [1.5,0]",
    ),
    bi("periodize", periodize, 2, 2),
    bi("mirror_ext", mirror_ext, 2, 2).doc(
        "mirror_ext(i, n)",
        "Index i reflected into 0..n-1 (-1 reads 1, n reads n-1): the index rule of mirror boundary access.",
        "print mirror_ext([-1, 0, 4, 5], 5)",
        "[1,0,4,4]",
    ),
    bi("pow", pow, 2, 2).doc(
        "pow(x, y)",
        "x raised to the power y, element by element with broadcasting (as `x .^ y`).",
        "print pow(2, 10), \" \", pow([1, 2, 3], 2)",
        "1024 [1,4,9]",
    ),
    bi("clamp", clamp, 2, 3).doc(
        "clamp(x, hi) · clamp(x, lo, hi)",
        "Each element of x limited to lo..hi (to 0..hi with two arguments).",
        "print clamp([-3, 2, 9], 0, 5), \" \", clamp(7, 5)",
        "[0,2,5] 5",
    ),
    bi("and", bit_and, 2, 2).doc(
        "and(a, b)",
        "The bitwise and of ints, element by element (`&&` is the logical and).",
        "print and(12, 10)",
        "8",
    ),
    bi("or", bit_or, 2, 2).doc(
        "or(a, b)",
        "The bitwise or of ints, element by element (`||` is the logical or).",
        "print or(12, 10)",
        "14",
    ),
    bi("xor", bit_xor, 2, 2).doc(
        "xor(a, b)",
        "The bitwise exclusive or of ints, element by element.",
        "print xor(12, 10)",
        "6",
    ),
    bi("shl", bit_shl, 2, 2).doc(
        "shl(a, n)",
        "The bits of int a shifted left by n (a negative n shifts right).",
        "print shl(1, 4), \" \", shl(256, -2)",
        "16 64",
    ),
    bi("shr", bit_shr, 2, 2).doc(
        "shr(a, n)",
        "The bits of int a shifted right by n (a negative n shifts left).",
        "print shr(256, 2)",
        "64",
    ),
];
