//! Arithmetic over lanes: unary and binary operators, comparisons, select.
//!
//! Each function dispatches once on the register types and then runs one tight,
//! branch-free (where the semantics allow) loop over the first `n` lanes, which LLVM
//! vectorises for the common float and int cases. Ints wrap; int division and
//! remainder by zero give 0; a shift by a negative count shifts the other way, and one
//! by the width or more gives 0 (`shr` of a negative value: -1), as in host code.

use crate::values::{LaneTy, Lanes};
use blazar_kir::{BinOp, UnOp};
use num_complex::{Complex32, Complex64};

/// Runs `$body` with `$T` bound to the Rust type of a numeric (non-bool) scalar type;
/// `$other` for bool.
macro_rules! with_num {
    ($s:expr, $T:ident => $body:expr, $other:expr) => {{
        use blazar_kir::Scalar as S_;
        match $s {
            S_::F32 => {
                type $T = f32;
                $body
            }
            S_::F64 => {
                type $T = f64;
                $body
            }
            S_::C32 => {
                type $T = num_complex::Complex32;
                $body
            }
            S_::C64 => {
                type $T = num_complex::Complex64;
                $body
            }
            S_::Bool => $other,
            ints => $crate::ops::with_int!(ints, $T => $body, $other),
        }
    }};
}
pub(crate) use with_num;

/// Runs `$body` with `$T` bound to an integer type; `$other` otherwise.
macro_rules! with_int {
    ($s:expr, $T:ident => $body:expr, $other:expr) => {{
        use blazar_kir::Scalar as S_;
        match $s {
            S_::I8 => {
                type $T = i8;
                $body
            }
            S_::I16 => {
                type $T = i16;
                $body
            }
            S_::I32 => {
                type $T = i32;
                $body
            }
            S_::I64 => {
                type $T = i64;
                $body
            }
            S_::U8 => {
                type $T = u8;
                $body
            }
            S_::U16 => {
                type $T = u16;
                $body
            }
            S_::U32 => {
                type $T = u32;
                $body
            }
            S_::U64 => {
                type $T = u64;
                $body
            }
            _ => $other,
        }
    }};
}
pub(crate) use with_int;

/// The binary arithmetic of one numeric type (complex: `rem`/`min`/`max` unused).
pub(crate) trait Arith: LaneTy + PartialEq {
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    fn div(self, b: Self) -> Self;
    fn pow(self, b: Self) -> Self;
    fn rem(self, b: Self) -> Self;
    fn min(self, b: Self) -> Self;
    fn max(self, b: Self) -> Self;
    fn neg(self) -> Self;
    fn lt(self, b: Self) -> bool;
    fn le(self, b: Self) -> bool;
}

macro_rules! arith_int {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)] fn add(self, b: Self) -> Self { self.wrapping_add(b) }
            #[inline(always)] fn sub(self, b: Self) -> Self { self.wrapping_sub(b) }
            #[inline(always)] fn mul(self, b: Self) -> Self { self.wrapping_mul(b) }
            #[inline(always)] fn div(self, b: Self) -> Self {
                if b == 0 { 0 } else { self.wrapping_div(b) }
            }
            #[inline(always)] fn pow(self, b: Self) -> Self { (self as f64).powf(b as f64) as $t }
            #[inline(always)] fn rem(self, b: Self) -> Self { blazar_ops::int::rem(self, b) }
            #[inline(always)] fn min(self, b: Self) -> Self { Ord::min(self, b) }
            #[inline(always)] fn max(self, b: Self) -> Self { Ord::max(self, b) }
            #[inline(always)] fn neg(self) -> Self { self.wrapping_neg() }
            #[inline(always)] fn lt(self, b: Self) -> bool { self < b }
            #[inline(always)] fn le(self, b: Self) -> bool { self <= b }
        }
    )*};
}
arith_int!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! arith_float {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)] fn add(self, b: Self) -> Self { self + b }
            #[inline(always)] fn sub(self, b: Self) -> Self { self - b }
            #[inline(always)] fn mul(self, b: Self) -> Self { self * b }
            #[inline(always)] fn div(self, b: Self) -> Self { self / b }
            // In f64, rounded once (as the host; f32 `powf` is up to 1 ulp away).
            #[inline(always)] fn pow(self, b: Self) -> Self { (self as f64).powf(b as f64) as $t }
            #[inline(always)] fn rem(self, b: Self) -> Self { self % b }
            #[inline(always)] fn min(self, b: Self) -> Self { <$t>::min(self, b) }
            #[inline(always)] fn max(self, b: Self) -> Self { <$t>::max(self, b) }
            #[inline(always)] fn neg(self) -> Self { -self }
            #[inline(always)] fn lt(self, b: Self) -> bool { self < b }
            #[inline(always)] fn le(self, b: Self) -> bool { self <= b }
        }
    )*};
}
arith_float!(f32, f64);

macro_rules! arith_complex {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)] fn add(self, b: Self) -> Self { self + b }
            #[inline(always)] fn sub(self, b: Self) -> Self { self - b }
            #[inline(always)] fn mul(self, b: Self) -> Self { self * b }
            #[inline(always)] fn div(self, b: Self) -> Self { self / b }
            #[inline(always)] fn pow(self, b: Self) -> Self {
                if b.im == 0.0 { self.powf(b.re) } else { self.powc(b) }
            }
            #[inline(always)] fn rem(self, _b: Self) -> Self { self }
            #[inline(always)] fn min(self, _b: Self) -> Self { self }
            #[inline(always)] fn max(self, _b: Self) -> Self { self }
            #[inline(always)] fn neg(self) -> Self { -self }
            #[inline(always)] fn lt(self, _b: Self) -> bool { false }
            #[inline(always)] fn le(self, b: Self) -> bool { self == b }
        }
    )*};
}
arith_complex!(Complex32, Complex64);

/// Bitwise operations of the integer types.
pub(crate) trait Bits: Arith + Ord {
    fn and(self, b: Self) -> Self;
    fn or(self, b: Self) -> Self;
    fn xor(self, b: Self) -> Self;
    fn not(self) -> Self;
    fn shl(self, b: Self) -> Self;
    fn shr(self, b: Self) -> Self;
}

/// `x << m` for a count `m` of any size: 0 once every bit is shifted out.
macro_rules! shl_by {
    ($t:ty, $x:expr, $m:expr) => {{
        let (x, m): ($t, u64) = ($x, $m);
        if m < u64::from(<$t>::BITS) {
            x << m
        } else {
            0
        }
    }};
}

/// `x >> m` (arithmetic on signed types) for a count `m` of any size: 0, or -1 for a
/// negative `x`, once every bit is shifted out.
macro_rules! shr_by {
    ($t:ty, $x:expr, $m:expr) => {{
        let (x, m): ($t, u64) = ($x, $m);
        let bits = <$t>::BITS;
        if m < u64::from(bits) {
            x >> m
        } else {
            (x >> (bits - 1)) >> 1
        }
    }};
}

macro_rules! bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            #[inline(always)] fn and(self, b: Self) -> Self { self & b }
            #[inline(always)] fn or(self, b: Self) -> Self { self | b }
            #[inline(always)] fn xor(self, b: Self) -> Self { self ^ b }
            #[inline(always)] fn not(self) -> Self { !self }
            #[inline(always)] fn shl(self, b: Self) -> Self {
                let n = b as i64;
                if n >= 0 { shl_by!($t, self, n.unsigned_abs()) } else { shr_by!($t, self, n.unsigned_abs()) }
            }
            #[inline(always)] fn shr(self, b: Self) -> Self {
                let n = b as i64;
                if n >= 0 { shr_by!($t, self, n.unsigned_abs()) } else { shl_by!($t, self, n.unsigned_abs()) }
            }
        }
    )*};
}
bits!(i8, i16, i32, i64, u8, u16, u32, u64);

#[inline(always)]
pub(crate) fn map1<A: Copy, D>(d: &mut [D], a: &[A], f: impl Fn(A) -> D) {
    let n = d.len();
    let a = &a[..n];
    for i in 0..n {
        d[i] = f(a[i]);
    }
}

#[inline(always)]
pub(crate) fn map2<A: Copy, B: Copy, D>(d: &mut [D], a: &[A], b: &[B], f: impl Fn(A, B) -> D) {
    let n = d.len();
    let (a, b) = (&a[..n], &b[..n]);
    for i in 0..n {
        d[i] = f(a[i], b[i]);
    }
}

fn arith<T: Arith>(op: BinOp, d: &mut Lanes, a: &Lanes, b: &Lanes, lo: usize, n: usize) {
    let (d, a, b) = (
        &mut T::get_mut(d)[lo..n],
        &T::get(a)[lo..],
        &T::get(b)[lo..],
    );
    match op {
        BinOp::Add => map2(d, a, b, T::add),
        BinOp::Sub => map2(d, a, b, T::sub),
        BinOp::Mul => map2(d, a, b, T::mul),
        BinOp::Div => map2(d, a, b, T::div),
        BinOp::Pow => map2(d, a, b, T::pow),
        BinOp::Rem => map2(d, a, b, T::rem),
        BinOp::Min => map2(d, a, b, T::min),
        BinOp::Max => map2(d, a, b, T::max),
        _ => {}
    }
}

fn compare<T: Arith>(op: BinOp, d: &mut Lanes, a: &Lanes, b: &Lanes, lo: usize, n: usize) {
    let (d, a, b) = (
        &mut bool::get_mut(d)[lo..n],
        &T::get(a)[lo..],
        &T::get(b)[lo..],
    );
    match op {
        BinOp::Eq => map2(d, a, b, |x, y| x == y),
        BinOp::Ne => map2(d, a, b, |x, y| x != y),
        BinOp::Lt => map2(d, a, b, T::lt),
        BinOp::Le => map2(d, a, b, T::le),
        BinOp::Gt => map2(d, a, b, |x, y| y.lt(x)),
        BinOp::Ge => map2(d, a, b, |x, y| y.le(x)),
        _ => {}
    }
}

fn bitwise<T: Bits>(op: BinOp, d: &mut Lanes, a: &Lanes, b: &Lanes, lo: usize, n: usize) {
    let (d, a, b) = (
        &mut T::get_mut(d)[lo..n],
        &T::get(a)[lo..],
        &T::get(b)[lo..],
    );
    match op {
        BinOp::BitAnd => map2(d, a, b, T::and),
        BinOp::BitOr => map2(d, a, b, T::or),
        BinOp::BitXor => map2(d, a, b, T::xor),
        BinOp::Shl => map2(d, a, b, T::shl),
        BinOp::Shr => map2(d, a, b, T::shr),
        _ => {}
    }
}

fn logic(op: BinOp, d: &mut Lanes, a: &Lanes, b: &Lanes, lo: usize, n: usize) {
    let (d, a, b) = (
        &mut bool::get_mut(d)[lo..n],
        &bool::get(a)[lo..],
        &bool::get(b)[lo..],
    );
    match op {
        BinOp::And => map2(d, a, b, |x, y| x & y),
        BinOp::Or => map2(d, a, b, |x, y| x | y),
        BinOp::Eq => map2(d, a, b, |x, y| x == y),
        BinOp::Ne => map2(d, a, b, |x, y| x != y),
        _ => {}
    }
}

/// `d = a op b` on lanes `lo..n`; `a` and `b` have the same type.
pub(crate) fn binary(op: BinOp, d: &mut Lanes, a: &Lanes, b: &Lanes, lo: usize, n: usize) {
    use BinOp::*;
    let s = a.scalar();
    match op {
        Add | Sub | Mul | Div | Pow | Rem | Min | Max => {
            with_num!(s, T => arith::<T>(op, d, a, b, lo, n), ())
        }
        Eq | Ne | Lt | Gt | Le | Ge => {
            with_num!(s, T => compare::<T>(op, d, a, b, lo, n), logic(op, d, a, b, lo, n))
        }
        And | Or => logic(op, d, a, b, lo, n),
        BitAnd | BitOr | BitXor | Shl | Shr => {
            with_int!(s, T => bitwise::<T>(op, d, a, b, lo, n), ())
        }
    }
}

/// `d = op a` on lanes `lo..n`.
pub(crate) fn unary(op: UnOp, d: &mut Lanes, a: &Lanes, lo: usize, n: usize) {
    let s = a.scalar();
    match op {
        UnOp::Neg => {
            with_num!(s, T => map1(&mut T::get_mut(d)[lo..n], &T::get(a)[lo..], T::neg), ())
        }
        UnOp::Not => map1(&mut bool::get_mut(d)[lo..n], &bool::get(a)[lo..], |x| !x),
        UnOp::BitNot => {
            with_int!(s, T => map1(&mut T::get_mut(d)[lo..n], &T::get(a)[lo..], T::not), ())
        }
    }
}

/// `d = c ? a : b` lane by lane.
pub(crate) fn select(d: &mut Lanes, c: &Lanes, a: &Lanes, b: &Lanes, lo: usize, n: usize) {
    let c = &bool::get(c)[lo..n];
    crate::values::with_scalar!(a.scalar(), T => {
        let (d, a, b) = (&mut T::get_mut(d)[lo..n], &T::get(a)[lo..n], &T::get(b)[lo..n]);
        for i in 0..d.len() {
            d[i] = if c[i] { a[i] } else { b[i] };
        }
    })
}

/// `v = v op x` for a scalar update (shared and local memory, output partials).
#[inline]
pub(crate) fn apply_atomic<T: Arith>(op: blazar_kir::AtomicOp, v: T, x: T) -> T {
    use blazar_kir::AtomicOp::*;
    match op {
        Add => v.add(x),
        Sub => v.sub(x),
        Mul => v.mul(x),
        Div => v.div(x),
        Pow => v.pow(x),
        Min => v.min(x),
        Max => v.max(x),
        And | Or | Xor => v,
    }
}

/// Bitwise atomic ops on ints (`apply_atomic` handles the arithmetic ones).
#[inline]
pub(crate) fn apply_bits<T: Bits>(op: blazar_kir::AtomicOp, v: T, x: T) -> T {
    use blazar_kir::AtomicOp::*;
    match op {
        And => v.and(x),
        Or => v.or(x),
        Xor => v.xor(x),
        _ => apply_atomic(op, v, x),
    }
}
