//! Host functions that compiled kernels call (by address), so that they compute
//! exactly what the interpreter computes: the same Rust functions on the same types.

use blazar_kir::{AtomicOp, MathFn, Scalar};
use blazar_ops::scalar::{Arith, Bits};
use blazar_ops::Eval;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::*;

/// `x ^ y` in f64, rounded once (the host's rule for every type).
pub(crate) extern "C" fn pow(x: f64, y: f64) -> f64 {
    x.powf(y)
}

pub(crate) extern "C" fn fmod64(x: f64, y: f64) -> f64 {
    x % y
}

pub(crate) extern "C" fn fmod32(x: f32, y: f32) -> f32 {
    x % y
}

macro_rules! periodize {
    ($name:ident, $t:ty) => {
        /// The remainder moved into `[0, |y|)`, as host code computes it.
        pub(crate) extern "C" fn $name(x: $t, y: $t) -> $t {
            let r = x % y;
            let r = if r < 0.0 { r + y.abs() } else { r };
            if r >= y.abs() {
                0.0
            } else {
                r
            }
        }
    };
}
periodize!(periodize64, f64);
periodize!(periodize32, f32);

macro_rules! wrap1 {
    ($($f:ident: $n64:ident, $n32:ident, $m:ident);* $(;)?) => {
        $(
            extern "C" fn $n64(x: f64) -> f64 { x.$m() }
            extern "C" fn $n32(x: f32) -> f32 { x.$m() }
        )*
        /// The address of the host's `f` on f64 (`wide`) or f32, for the functions
        /// the interpreter calls by name.
        pub(crate) fn unary(f: MathFn, wide: bool) -> Option<usize> {
            Some(match f {
                $( MathFn::$f => if wide { $n64 as *const () as usize } else { $n32 as *const () as usize }, )*
                _ => return None,
            })
        }
    };
}
wrap1! {
    Exp: exp64, exp32, exp;
    Exp2: exp2_64, exp2_32, exp2;
    Log: ln64, ln32, ln;
    Log2: log2_64, log2_32, log2;
    Log10: log10_64, log10_32, log10;
    Sin: sin64, sin32, sin;
    Cos: cos64, cos32, cos;
    Tan: tan64, tan32, tan;
    Asin: asin64, asin32, asin;
    Acos: acos64, acos32, acos;
    Atan: atan64, atan32, atan;
    Sinh: sinh64, sinh32, sinh;
    Cosh: cosh64, cosh32, cosh;
    Tanh: tanh64, tanh32, tanh;
    Round: round64, round32, round;
}

extern "C" fn call1_64(f: usize, x: f64) -> f64 {
    // SAFETY: `f` is a `fn(f64) -> f64` of `blazar_ops::MATH` (see `table`).
    let f: fn(f64) -> f64 = unsafe { std::mem::transmute(f) };
    f(x)
}
extern "C" fn call1_32(f: usize, x: f32) -> f32 {
    // SAFETY: `f` is a `fn(f32) -> f32` of `blazar_ops::MATH` (see `table`).
    let f: fn(f32) -> f32 = unsafe { std::mem::transmute(f) };
    f(x)
}
extern "C" fn call2_64(f: usize, x: f64, y: f64) -> f64 {
    // SAFETY: `f` is a `fn(f64, f64) -> f64` of `blazar_ops::MATH` (see `table`).
    let f: fn(f64, f64) -> f64 = unsafe { std::mem::transmute(f) };
    f(x, y)
}
extern "C" fn call2_32(f: usize, x: f32, y: f32) -> f32 {
    // SAFETY: `f` is a `fn(f32, f32) -> f32` of `blazar_ops::MATH` (see `table`).
    let f: fn(f32, f32) -> f32 = unsafe { std::mem::transmute(f) };
    f(x, y)
}

/// For a function that `blazar_ops::MATH` computes on reals: the trampoline's address,
/// the function's address and its arity.
pub(crate) fn table(f: MathFn, wide: bool) -> Option<(usize, usize, usize)> {
    Some(match (f.def().eval, wide) {
        (Eval::One(f64f, _), true) => (call1_64 as *const () as usize, f64f as usize, 1),
        (Eval::One(_, f32f), false) => (call1_32 as *const () as usize, f32f as usize, 1),
        (Eval::Two(f64f, _), true) => (call2_64 as *const () as usize, f64f as usize, 2),
        (Eval::Two(_, f32f), false) => (call2_32 as *const () as usize, f32f as usize, 2),
        (Eval::Own, _) => return None,
    })
}

/// The code of an element type passed to [`update`].
pub(crate) fn elem_code(s: Scalar) -> i64 {
    match s {
        Scalar::I8 => 0,
        Scalar::I16 => 1,
        Scalar::I32 => 2,
        Scalar::I64 => 3,
        Scalar::U8 => 4,
        Scalar::U16 => 5,
        Scalar::U32 => 6,
        Scalar::U64 => 7,
        Scalar::F32 => 8,
        _ => 9,
    }
}

const OPS: [AtomicOp; 10] = [
    AtomicOp::Add,
    AtomicOp::Sub,
    AtomicOp::Mul,
    AtomicOp::Div,
    AtomicOp::Pow,
    AtomicOp::Min,
    AtomicOp::Max,
    AtomicOp::And,
    AtomicOp::Or,
    AtomicOp::Xor,
];

/// The code of an update op passed to [`update`].
pub(crate) fn op_code(op: AtomicOp) -> i64 {
    OPS.iter().position(|&o| o == op).unwrap_or(0) as i64
}

fn arith<T: Arith>(op: AtomicOp, v: T, x: T) -> T {
    match op {
        AtomicOp::Add => v.add(x),
        AtomicOp::Sub => v.sub(x),
        AtomicOp::Mul => v.mul(x),
        AtomicOp::Div => v.div(x),
        AtomicOp::Pow => v.pow(x),
        AtomicOp::Min => v.min(x),
        AtomicOp::Max => v.max(x),
        AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => v,
    }
}

fn bits<T: Bits>(op: AtomicOp, v: T, x: T) -> T {
    match op {
        AtomicOp::And => v.and(x),
        AtomicOp::Or => v.or(x),
        AtomicOp::Xor => v.xor(x),
        _ => arith(op, v, x),
    }
}

/// `*p = *p op x` atomically on a global array element of type `elem` (`x` its bits,
/// zero-extended), as the interpreter updates global arrays.
pub(crate) extern "C" fn update(p: *mut u8, elem: i64, op: i64, x: u64) {
    let op = OPS[(op as usize).min(OPS.len() - 1)];
    macro_rules! int {
        ($t:ty, $A:ty) => {{
            // SAFETY: `p` points to an element of this type inside a global array that
            // the launch holds, aligned (arrays are vectors of it); all concurrent
            // accesses of compiled code to written arrays are plain moves or these
            // atomics, as in the interpreter.
            let a = unsafe { &*(p as *const $A) };
            let _ = a.fetch_update(Relaxed, Relaxed, |v| Some(bits(op, v, x as $t)));
        }};
    }
    macro_rules! float {
        ($t:ty, $A:ty, $u:ty) => {{
            // SAFETY: as for the ints.
            let a = unsafe { &*(p as *const $A) };
            let x = <$t>::from_bits(x as $u);
            let _ = a.fetch_update(Relaxed, Relaxed, |v| {
                Some(arith(op, <$t>::from_bits(v), x).to_bits())
            });
        }};
    }
    match elem {
        0 => int!(i8, AtomicI8),
        1 => int!(i16, AtomicI16),
        2 => int!(i32, AtomicI32),
        3 => int!(i64, AtomicI64),
        4 => int!(u8, AtomicU8),
        5 => int!(u16, AtomicU16),
        6 => int!(u32, AtomicU32),
        7 => int!(u64, AtomicU64),
        8 => float!(f32, AtomicU32, u32),
        _ => float!(f64, AtomicU64, u64),
    }
}
