//! Math functions and numeric conversions over lanes.
//!
//! Conversions follow C casts (`as` in Rust: float to int truncates toward zero and
//! saturates, ints wrap); bool converts to 0/1 and from `x != 0`; reals become complex
//! with a zero imaginary part.

use crate::ops::{map1, map2, with_int};
use crate::values::{LaneTy, Lanes};
use blazar_kir::{MathFn, Scalar};
use blazar_ops::Eval;
use num_complex::{Complex, Complex32, Complex64};

/// A C-style conversion from `S`.
pub(crate) trait CastFrom<S>: Sized {
    fn cast(s: S) -> Self;
}

macro_rules! cast_one {
    ($s:ty; [$($d:ty),*]) => {$(
        impl CastFrom<$s> for $d {
            #[inline(always)]
            fn cast(s: $s) -> $d { s as $d }
        }
    )*
        impl CastFrom<$s> for bool {
            #[inline(always)]
            fn cast(s: $s) -> bool { s != (0 as $s) }
        }
        impl CastFrom<bool> for $s {
            #[inline(always)]
            fn cast(s: bool) -> $s { s as u8 as $s }
        }
    };
}
macro_rules! cast_all {
    ([$($s:ty),*] $d:tt) => { $( cast_one!($s; $d); )* };
}
cast_all!([i8, i16, i32, i64, u8, u16, u32, u64, f32, f64]
          [i8, i16, i32, i64, u8, u16, u32, u64, f32, f64]);
impl CastFrom<bool> for bool {
    #[inline(always)]
    fn cast(s: bool) -> bool {
        s
    }
}

/// Runs `$body` with `$T` bound to a non-complex scalar type; `$other` for complex.
macro_rules! with_real {
    ($s:expr, $T:ident => $body:expr, $other:expr) => {{
        use blazar_kir::Scalar as S_;
        match $s {
            S_::Bool => { type $T = bool; $body }
            S_::F32 => { type $T = f32; $body }
            S_::F64 => { type $T = f64; $body }
            s => with_int!(s, $T => $body, $other),
        }
    }};
}

fn to_complex<F: LaneTy + Copy, S: LaneTy>(d: &mut Lanes, a: &Lanes, lo: usize, n: usize)
where
    F: CastFrom<S> + Default,
    Complex<F>: LaneTy,
{
    map1(
        &mut Complex::<F>::get_mut(d)[lo..n],
        &S::get(a)[lo..],
        |x| Complex::new(F::cast(x), F::default()),
    );
}

/// `d = ty(a)` on lanes `lo..n`.
pub(crate) fn cast(d: &mut Lanes, a: &Lanes, lo: usize, n: usize) {
    let (sa, sd) = (a.scalar(), d.scalar());
    match (sd, sa) {
        _ if sa == sd => crate::values::with_scalar!(sa, T => {
            T::get_mut(d)[lo..n].copy_from_slice(&T::get(a)[lo..n])
        }),
        (Scalar::C32, Scalar::C64) => map1(
            &mut Complex32::get_mut(d)[lo..n],
            &Complex64::get(a)[lo..],
            |x| Complex32::new(x.re as f32, x.im as f32),
        ),
        (Scalar::C64, Scalar::C32) => map1(
            &mut Complex64::get_mut(d)[lo..n],
            &Complex32::get(a)[lo..],
            |x| Complex64::new(x.re as f64, x.im as f64),
        ),
        (Scalar::C32, _) => with_real!(sa, S => to_complex::<f32, S>(d, a, lo, n), ()),
        (Scalar::C64, _) => with_real!(sa, S => to_complex::<f64, S>(d, a, lo, n), ()),
        // Complex to real is rejected by the verifier; take the real part anyway.
        (_, Scalar::C32) => with_real!(sd, D => {
            map1(&mut D::get_mut(d)[lo..n], &Complex32::get(a)[lo..], |x| D::cast(x.re))
        }, ()),
        (_, Scalar::C64) => with_real!(sd, D => {
            map1(&mut D::get_mut(d)[lo..n], &Complex64::get(a)[lo..], |x| D::cast(x.re))
        }, ()),
        _ => with_real!(sd, D => with_real!(sa, S => {
            map1(&mut D::get_mut(d)[lo..n], &S::get(a)[lo..], <D as CastFrom<S>>::cast)
        }, ()), ()),
    }
}

macro_rules! float_math {
    ($name:ident, $t:ident) => {
        fn $name(f: MathFn, d: &mut Lanes, a: &Lanes, b: Option<&Lanes>, lo: usize, n: usize) {
            use MathFn::*;
            let a = &<$t>::get(a)[lo..];
            let b = b.map_or(a, |b| &<$t>::get(b)[lo..]);
            if matches!(f, IsNan | IsInf | IsFinite) {
                let d = &mut bool::get_mut(d)[lo..n];
                match f {
                    IsNan => map1(d, a, <$t>::is_nan),
                    IsInf => map1(d, a, <$t>::is_infinite),
                    _ => map1(d, a, <$t>::is_finite),
                }
                return;
            }
            if f == MakeComplex {
                map2(&mut Complex::<$t>::get_mut(d)[lo..n], a, b, Complex::new);
                return;
            }
            let d = &mut <$t>::get_mut(d)[lo..n];
            match f {
                Abs => map1(d, a, <$t>::abs),
                Sqrt => map1(d, a, <$t>::sqrt),
                Rsqrt => map1(d, a, |x| 1.0 / x.sqrt()),
                Exp => map1(d, a, <$t>::exp),
                Exp2 => map1(d, a, <$t>::exp2),
                Log => map1(d, a, <$t>::ln),
                Log2 => map1(d, a, <$t>::log2),
                Log10 => map1(d, a, <$t>::log10),
                Sin => map1(d, a, <$t>::sin),
                Cos => map1(d, a, <$t>::cos),
                Tan => map1(d, a, <$t>::tan),
                Asin => map1(d, a, <$t>::asin),
                Acos => map1(d, a, <$t>::acos),
                Atan => map1(d, a, <$t>::atan),
                Sinh => map1(d, a, <$t>::sinh),
                Cosh => map1(d, a, <$t>::cosh),
                Tanh => map1(d, a, <$t>::tanh),
                Floor => map1(d, a, <$t>::floor),
                Ceil => map1(d, a, <$t>::ceil),
                Round => map1(d, a, <$t>::round),
                Frac => map1(d, a, |x| x - x.floor()),
                Sign => map1(d, a, |x| {
                    if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else {
                        x
                    }
                }),
                Periodize => map2(d, a, b, |x, y| {
                    // As host code: the remainder moved into [0, |y|).
                    let r = x % y;
                    let r = if r < 0.0 { r + y.abs() } else { r };
                    if r >= y.abs() {
                        0.0
                    } else {
                        r
                    }
                }),
                Real | Conj => map1(d, a, |x| x),
                Imag => map1(d, a, |_| 0.0),
                Angle => map1(d, a, |x| if x < 0.0 { std::$t::consts::PI } else { 0.0 }),
                IsNan | IsInf | IsFinite | MakeComplex => {}
                // Functions of reals the table computes (`atan2`, ...).
                _ => match f.def().eval {
                    Eval::One(f64, f32) => map1(d, a, <$t as Pick>::pick1(f64, f32)),
                    Eval::Two(f64, f32) => map2(d, a, b, <$t as Pick>::pick2(f64, f32)),
                    Eval::Own => {}
                },
            }
        }
    };
}
/// The f32 or the f64 function of a row of `blazar_ops::MATH`.
trait Pick: Sized {
    fn pick1(f64: fn(f64) -> f64, f32: fn(f32) -> f32) -> fn(Self) -> Self;
    fn pick2(f64: fn(f64, f64) -> f64, f32: fn(f32, f32) -> f32) -> fn(Self, Self) -> Self;
}
impl Pick for f32 {
    fn pick1(_: fn(f64) -> f64, f32: fn(f32) -> f32) -> fn(f32) -> f32 {
        f32
    }
    fn pick2(_: fn(f64, f64) -> f64, f32: fn(f32, f32) -> f32) -> fn(f32, f32) -> f32 {
        f32
    }
}
impl Pick for f64 {
    fn pick1(f64: fn(f64) -> f64, _: fn(f32) -> f32) -> fn(f64) -> f64 {
        f64
    }
    fn pick2(f64: fn(f64, f64) -> f64, _: fn(f32, f32) -> f32) -> fn(f64, f64) -> f64 {
        f64
    }
}

float_math!(math_f32, f32);
float_math!(math_f64, f64);

/// `|z|` as `hypot` computes it, in a form that vectorises: f32 parts are squared and
/// summed in f64 (exact) and rounded once, which is what glibc's `hypotf` does.
trait NormFast: Sized {
    fn norm_fast(z: Complex<Self>) -> Self;
}
impl NormFast for f32 {
    #[inline(always)]
    fn norm_fast(z: Complex<f32>) -> f32 {
        let (re, im) = (z.re as f64, z.im as f64);
        let r = (re * re + im * im).sqrt() as f32;
        // Branch-free, so that it vectorises.
        let inf = z.re.is_infinite() | z.im.is_infinite();
        if inf {
            f32::INFINITY
        } else {
            r
        }
    }
}
impl NormFast for f64 {
    #[inline(always)]
    fn norm_fast(z: Complex<f64>) -> f64 {
        z.norm()
    }
}

macro_rules! complex_math {
    ($name:ident, $t:ident) => {
        fn $name(f: MathFn, d: &mut Lanes, a: &Lanes, lo: usize, n: usize) {
            use MathFn::*;
            let a = &Complex::<$t>::get(a)[lo..];
            if matches!(f, Abs | Real | Imag | Angle) {
                let d = &mut <$t>::get_mut(d)[lo..n];
                match f {
                    Abs => map1(d, a, <$t as NormFast>::norm_fast),
                    Real => map1(d, a, |x| x.re),
                    Imag => map1(d, a, |x| x.im),
                    _ => map1(d, a, |x| x.arg()),
                }
                return;
            }
            let d = &mut Complex::<$t>::get_mut(d)[lo..n];
            match f {
                Sqrt => map1(d, a, |x| x.sqrt()),
                Exp => map1(d, a, |x| x.exp()),
                Log => map1(d, a, |x| x.ln()),
                Sin => map1(d, a, |x| x.sin()),
                Cos => map1(d, a, |x| x.cos()),
                Tan => map1(d, a, |x| x.tan()),
                Sinh => map1(d, a, |x| x.sinh()),
                Cosh => map1(d, a, |x| x.cosh()),
                Tanh => map1(d, a, |x| x.tanh()),
                Conj => map1(d, a, |x| x.conj()),
                _ => map1(d, a, |x| x),
            }
        }
    };
}
complex_math!(math_c32, f32);
complex_math!(math_c64, f64);

fn math_int<T: crate::ops::Bits + CastFrom<u8>>(
    f: MathFn,
    d: &mut Lanes,
    a: &Lanes,
    b: Option<&Lanes>,
    lo: usize,
    n: usize,
) {
    let zero = T::cast(0u8);
    let one = T::cast(1u8);
    let a = &T::get(a)[lo..];
    let b = b.map_or(a, |b| &T::get(b)[lo..]);
    let d = &mut T::get_mut(d)[lo..n];
    match f {
        MathFn::Abs => map1(d, a, |x| if x < zero { x.neg() } else { x }),
        MathFn::Sign => map1(d, a, |x| {
            if x > zero {
                one
            } else if x < zero {
                one.neg()
            } else {
                zero
            }
        }),
        MathFn::Periodize => map2(d, a, b, |x, y| {
            // As host code: the remainder moved into [0, |y|), 0 for y = 0.
            let r = x.rem(y);
            if r >= zero {
                r
            } else if y < zero {
                r.sub(y)
            } else {
                r.add(y)
            }
        }),
        MathFn::Imag => map1(d, a, |_| zero),
        MathFn::Angle => map1(d, a, |x| if x < zero { T::cast(3u8) } else { zero }),
        _ => map1(d, a, |x| x),
    }
}

/// `d = f(args)` on lanes `lo..n`.
pub(crate) fn math(f: MathFn, d: &mut Lanes, a: &Lanes, b: Option<&Lanes>, lo: usize, n: usize) {
    match a.scalar() {
        Scalar::F32 => math_f32(f, d, a, b, lo, n),
        Scalar::F64 => math_f64(f, d, a, b, lo, n),
        Scalar::C32 => math_c32(f, d, a, lo, n),
        Scalar::C64 => math_c64(f, d, a, lo, n),
        Scalar::Bool => {}
        s => with_int!(s, T => math_int::<T>(f, d, a, b, lo, n), ()),
    }
}
