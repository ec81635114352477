//! The scalar semantics of the operators, declared once: what `+ - * / ^ mod min max`,
//! the comparisons, truth and the bit operations compute on one element of each type.
//!
//! The host evaluator (`blazar-runtime`: its scalar fast path and its array loops), the
//! SIMT interpreter (`blazar-cpu`) and the debugger's expression evaluator
//! (`blazar-debug`) call these; the C preludes spell the same rules as `bz_*` helpers.
//! Every function is `#[inline(always)]` and generic only through monomorphic trait
//! impls, so the evaluators' inner loops stay tight (no dispatch per element).
//!
//! The rules:
//! - ints wrap (C two's complement); int `/` and `mod` by 0 give 0, `MIN / -1` and
//!   `MIN mod -1` wrap ([`crate::int::rem`]); int `^` computes in f64 and converts back
//!   (saturating), though lowering and the host make `int ^ int` real;
//! - reals follow IEEE (`mod` is C `fmod`: the sign of the dividend; `min`/`max` ignore
//!   a NaN operand);
//! - complex `^` is exact for integer exponents up to 65536 in magnitude (repeated
//!   multiplication), `0 ^ w` is 0 for `re(w) > 0` and infinite otherwise, and `powc`
//!   elsewhere; complex `<` `<=` `>` `>=` compare real parts, `==` the whole value;
//!   complex `mod`, `min`, `max` return the left operand (no language path reaches them);
//! - shifts by a negative count shift the other way; shifting every bit out gives 0
//!   (`shr` of a negative signed value: -1).

use num_complex::{Complex, Complex32, Complex64};

/// The arithmetic of one element type.
pub trait Arith: Copy + PartialEq {
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
    /// Truth: nonzero (for `&&`, `||`, `!` and conditions).
    fn truth(self) -> bool;
    #[inline(always)]
    fn gt(self, b: Self) -> bool {
        b.lt(self)
    }
    #[inline(always)]
    fn ge(self, b: Self) -> bool {
        b.le(self)
    }
}

/// The bit operations of the int types.
pub trait Bits: Arith + Ord {
    fn and(self, b: Self) -> Self;
    fn or(self, b: Self) -> Self;
    fn xor(self, b: Self) -> Self;
    fn not(self) -> Self;
    fn shl(self, b: Self) -> Self;
    fn shr(self, b: Self) -> Self;
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
            #[inline(always)] fn rem(self, b: Self) -> Self { crate::int::rem(self, b) }
            #[inline(always)] fn min(self, b: Self) -> Self { Ord::min(self, b) }
            #[inline(always)] fn max(self, b: Self) -> Self { Ord::max(self, b) }
            #[inline(always)] fn neg(self) -> Self { self.wrapping_neg() }
            #[inline(always)] fn lt(self, b: Self) -> bool { self < b }
            #[inline(always)] fn le(self, b: Self) -> bool { self <= b }
            #[inline(always)] fn truth(self) -> bool { self != 0 }
        }
    )*};
}
arith_int!(i8, i16, i32, i64, i128, u8, u16, u32, u64);

macro_rules! arith_float {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)] fn add(self, b: Self) -> Self { self + b }
            #[inline(always)] fn sub(self, b: Self) -> Self { self - b }
            #[inline(always)] fn mul(self, b: Self) -> Self { self * b }
            #[inline(always)] fn div(self, b: Self) -> Self { self / b }
            // In f64, rounded once: the host's rule, on every CPU path (f32 `powf` may be
            // an ulp away). CUDA kernels of f32 call `powf` (the C prelude's `bz_pow`).
            #[inline(always)] fn pow(self, b: Self) -> Self { (self as f64).powf(b as f64) as $t }
            #[inline(always)] fn rem(self, b: Self) -> Self { self % b }
            #[inline(always)] fn min(self, b: Self) -> Self { <$t>::min(self, b) }
            #[inline(always)] fn max(self, b: Self) -> Self { <$t>::max(self, b) }
            #[inline(always)] fn neg(self) -> Self { -self }
            #[inline(always)] fn lt(self, b: Self) -> bool { self < b }
            #[inline(always)] fn le(self, b: Self) -> bool { self <= b }
            #[inline(always)] fn truth(self) -> bool { self != 0.0 }
        }
    )*};
}
arith_float!(f32, f64);

macro_rules! arith_complex {
    ($($t:ty: $f:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)] fn add(self, b: Self) -> Self { self + b }
            #[inline(always)] fn sub(self, b: Self) -> Self { self - b }
            #[inline(always)] fn mul(self, b: Self) -> Self { self * b }
            #[inline(always)] fn div(self, b: Self) -> Self { self / b }
            #[inline(always)] fn pow(self, b: Self) -> Self {
                if b.im == 0.0 && b.re.fract() == 0.0 && b.re.abs() <= 65536.0 {
                    return self.powi(b.re as i32);
                }
                if self.re == 0.0 && self.im == 0.0 {
                    let r: $f = if b.re > 0.0 { 0.0 } else { <$f>::INFINITY };
                    return Complex::new(r, 0.0);
                }
                self.powc(b)
            }
            #[inline(always)] fn rem(self, _b: Self) -> Self { self }
            #[inline(always)] fn min(self, _b: Self) -> Self { self }
            #[inline(always)] fn max(self, _b: Self) -> Self { self }
            #[inline(always)] fn neg(self) -> Self { -self }
            #[inline(always)] fn lt(self, b: Self) -> bool { self.re < b.re }
            #[inline(always)] fn le(self, b: Self) -> bool { self.re <= b.re }
            #[inline(always)] fn truth(self) -> bool { self.re != 0.0 || self.im != 0.0 }
        }
    )*};
}
arith_complex!(Complex32: f32, Complex64: f64);

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

#[cfg(test)]
mod tests {
    use super::{Arith, Bits};
    use num_complex::{Complex32, Complex64};

    #[test]
    fn ints_wrap_and_divide_by_zero_to_zero() {
        assert_eq!(Arith::add(i32::MAX, 1), i32::MIN);
        assert_eq!(Arith::div(7i64, 0), 0);
        assert_eq!(Arith::div(i64::MIN, -1), i64::MIN);
        assert_eq!(Arith::rem(-7i32, 3), -1);
        assert_eq!(Arith::min(3u8, 200), 3);
        assert_eq!(Arith::pow(2i32, 10), 1024);
    }

    #[test]
    fn reals_follow_ieee() {
        assert_eq!(Arith::rem(-7.5f64, 2.0), -1.5);
        assert_eq!(Arith::min(f64::NAN, 1.0), 1.0);
        assert!(Arith::gt(2.0f32, 1.0));
        assert!(!Arith::truth(0.0f64));
    }

    #[test]
    fn complex_power_is_exact_for_integer_exponents() {
        let i = Complex64::new(0.0, 1.0);
        assert_eq!(
            Arith::pow(i, Complex64::new(2.0, 0.0)),
            Complex64::new(-1.0, 0.0)
        );
        assert_eq!(
            Arith::pow(i, Complex64::new(4.0, 0.0)),
            Complex64::new(1.0, 0.0)
        );
        let z = Complex32::new(0.0, 0.0);
        assert_eq!(
            Arith::pow(z, Complex32::new(0.5, 1.0)),
            Complex32::new(0.0, 0.0)
        );
        assert!(Arith::pow(z, Complex32::new(-0.5, 0.0)).re.is_infinite());
        assert_eq!(
            Arith::pow(z, Complex32::new(0.0, 0.0)),
            Complex32::new(1.0, 0.0)
        );
    }

    #[test]
    fn complex_order_compares_real_parts() {
        let (a, b) = (Complex64::new(1.0, 5.0), Complex64::new(2.0, -1.0));
        assert!(a.lt(b) && a.le(b) && b.gt(a) && !a.ge(b));
    }

    #[test]
    fn shifts_follow_the_count() {
        assert_eq!(Bits::shl(1i32, 4), 16);
        assert_eq!(Bits::shl(16i32, -4), 1);
        assert_eq!(Bits::shl(1i64, 64), 0);
        assert_eq!(Bits::shr(-8i64, 100), -1);
        assert_eq!(Bits::shr(8u8, 9), 0);
        assert_eq!(Bits::shr(1u8, 255), 0);
    }
}
