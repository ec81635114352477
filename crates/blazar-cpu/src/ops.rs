//! Arithmetic over lanes: unary and binary operators, comparisons, select.
//!
//! Each function dispatches once on the register types and then runs one tight,
//! branch-free (where the semantics allow) loop over the first `n` lanes, which LLVM
//! vectorises for the common float and int cases. Ints wrap; int division and
//! remainder by zero give 0; a shift by a negative count shifts the other way, and one
//! by the width or more gives 0 (`shr` of a negative value: -1), as in host code.

use crate::values::{LaneTy, Lanes};
use blazar_kir::{BinOp, UnOp};
use blazar_ops::scalar::{self, Arith as _, Bits as _};

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

/// The arithmetic of one numeric lane type: the scalar semantics declared once in
/// `blazar_ops::scalar`, on a type the interpreter holds in lanes.
pub(crate) trait Arith: LaneTy + scalar::Arith {}
impl<T: LaneTy + scalar::Arith> Arith for T {}

/// The bit operations of one int lane type (`blazar_ops::scalar::Bits`).
pub(crate) trait Bits: Arith + scalar::Bits {}
impl<T: Arith + scalar::Bits> Bits for T {}

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
