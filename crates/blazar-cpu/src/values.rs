//! Lane registers: one typed vector of per-thread values per virtual register.
//!
//! A register is a [`Lanes`] value (a `Vec` of one scalar type); instructions match on
//! the variant once and then run a tight loop over the lanes. [`LaneTy`] gives generic
//! code typed access to a register, and [`with_scalar!`] picks the Rust type of a KIR
//! scalar type.

use blazar_kir::{Const, Scalar};
pub(crate) use blazar_launch::KValue;
use num_complex::{Complex32, Complex64};

/// Per-lane values of one virtual register.
#[derive(Clone, Debug)]
pub(crate) enum Lanes {
    Bool(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    C32(Vec<Complex32>),
    C64(Vec<Complex64>),
}

impl Default for Lanes {
    fn default() -> Self {
        Lanes::Bool(Vec::new())
    }
}

/// Runs `$body` with `$T` bound to the Rust type of scalar type `$s`.
macro_rules! with_scalar {
    ($s:expr, $T:ident => $body:expr) => {{
        match $s {
            blazar_kir::Scalar::Bool => {
                type $T = bool;
                $body
            }
            s => $crate::ops::with_num!(s, $T => $body, unreachable!("bool is matched above")),
        }
    }};
}
pub(crate) use with_scalar;

/// Typed access to registers and conversions from constants and kernel values.
pub(crate) trait LaneTy: Copy + Default + Send + Sync + 'static {
    const SCALAR: Scalar;
    fn get(l: &Lanes) -> &[Self];
    fn get_mut(l: &mut Lanes) -> &mut Vec<Self>;
    fn wrap(v: Vec<Self>) -> Lanes;
    fn from_kvalue(v: &KValue) -> Self;
    fn to_kvalue(self) -> KValue;
}

/// Register types are fixed when the kernel is compiled, so a mismatch is a bug in
/// this crate, never a property of the kernel or its data.
#[cold]
fn bad_register(want: Scalar) -> ! {
    unreachable!(
        "blazar-cpu internal error: register is not of type {}",
        want.name()
    )
}

macro_rules! lane_ty {
    ($t:ty, $V:ident, $from:expr, $to:expr) => {
        impl LaneTy for $t {
            const SCALAR: Scalar = Scalar::$V;
            #[inline(always)]
            fn get(l: &Lanes) -> &[Self] {
                match l {
                    Lanes::$V(v) => v,
                    _ => bad_register(Scalar::$V),
                }
            }
            #[inline(always)]
            fn get_mut(l: &mut Lanes) -> &mut Vec<Self> {
                match l {
                    Lanes::$V(v) => v,
                    _ => bad_register(Scalar::$V),
                }
            }
            fn wrap(v: Vec<Self>) -> Lanes {
                Lanes::$V(v)
            }
            fn from_kvalue(v: &KValue) -> Self {
                let f: fn(&KValue) -> $t = $from;
                f(v)
            }
            fn to_kvalue(self) -> KValue {
                let f: fn($t) -> KValue = $to;
                f(self)
            }
        }
    };
}

macro_rules! lane_int {
    ($($t:ty, $V:ident);*) => {$(
        lane_ty!($t, $V, |v| v.as_i64() as $t, |x| KValue::Int(x as i64));
    )*};
}
lane_int!(i8, I8; i16, I16; i32, I32; i64, I64; u8, U8; u16, U16; u32, U32; u64, U64);
lane_ty!(bool, Bool, |v| v.as_i64() != 0, KValue::Bool);
lane_ty!(f32, F32, |v| v.as_f64() as f32, |x| KValue::Float(x as f64));
lane_ty!(f64, F64, |v| v.as_f64(), KValue::Float);
lane_ty!(
    Complex32,
    C32,
    |v| match v {
        KValue::Complex(re, im) => Complex32::new(*re as f32, *im as f32),
        v => Complex32::new(v.as_f64() as f32, 0.0),
    },
    |x| KValue::Complex(x.re as f64, x.im as f64)
);
lane_ty!(
    Complex64,
    C64,
    |v| match v {
        KValue::Complex(re, im) => Complex64::new(*re, *im),
        v => Complex64::new(v.as_f64(), 0.0),
    },
    |x| KValue::Complex(x.re, x.im)
);

impl Lanes {
    /// A register of `n` default (zero) lanes.
    pub(crate) fn new(s: Scalar, n: usize) -> Lanes {
        with_scalar!(s, T => T::wrap(vec![T::default(); n]))
    }

    pub(crate) fn scalar(&self) -> Scalar {
        match self {
            Lanes::Bool(_) => Scalar::Bool,
            Lanes::I8(_) => Scalar::I8,
            Lanes::I16(_) => Scalar::I16,
            Lanes::I32(_) => Scalar::I32,
            Lanes::I64(_) => Scalar::I64,
            Lanes::U8(_) => Scalar::U8,
            Lanes::U16(_) => Scalar::U16,
            Lanes::U32(_) => Scalar::U32,
            Lanes::U64(_) => Scalar::U64,
            Lanes::F32(_) => Scalar::F32,
            Lanes::F64(_) => Scalar::F64,
            Lanes::C32(_) => Scalar::C32,
            Lanes::C64(_) => Scalar::C64,
        }
    }

    /// Sets the first `n` lanes to `v`.
    pub(crate) fn fill(&mut self, v: &KValue, n: usize) {
        with_scalar!(self.scalar(), T => {
            let x = T::from_kvalue(v);
            for y in &mut T::get_mut(self)[..n] {
                *y = x;
            }
        })
    }

    /// Lane `i` as a kernel value.
    pub(crate) fn lane(&self, i: usize) -> KValue {
        with_scalar!(self.scalar(), T => T::get(self)[i].to_kvalue())
    }

    /// Lane `i` as an index (ints and truncated reals; 0 for others).
    pub(crate) fn lane_i64(&self, i: usize) -> i64 {
        match self {
            Lanes::Bool(v) => v[i] as i64,
            Lanes::I8(v) => v[i] as i64,
            Lanes::I16(v) => v[i] as i64,
            Lanes::I32(v) => v[i] as i64,
            Lanes::I64(v) => v[i],
            Lanes::U8(v) => v[i] as i64,
            Lanes::U16(v) => v[i] as i64,
            Lanes::U32(v) => v[i] as i64,
            Lanes::U64(v) => v[i] as i64,
            Lanes::F32(v) => v[i] as i64,
            Lanes::F64(v) => v[i] as i64,
            Lanes::C32(v) => v[i].re as i64,
            Lanes::C64(v) => v[i].re as i64,
        }
    }

    /// Copies lanes `i` where `mask[i]` from `src` (same type).
    pub(crate) fn copy_masked(&mut self, src: &Lanes, mask: &[bool], full: bool) {
        let n = mask.len();
        with_scalar!(self.scalar(), T => {
            let d = &mut T::get_mut(self)[..n];
            let s = &T::get(src)[..n];
            if full {
                d.copy_from_slice(s);
            } else if let Some((lo, hi)) = crate::exec::active_range(mask) {
                // Branch-free, so that it vectorises.
                for i in lo..hi {
                    d[i] = if mask[i] { s[i] } else { d[i] };
                }
            }
        })
    }
}

/// The kernel value of a KIR constant.
pub(crate) fn const_value(c: &Const) -> KValue {
    match *c {
        Const::Bool(b) => KValue::Bool(b),
        Const::Int(i) => KValue::Int(i),
        Const::Float(f) => KValue::Float(f),
        Const::Complex(re, im) => KValue::Complex(re, im),
    }
}
