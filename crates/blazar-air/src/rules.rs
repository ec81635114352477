//! The host's typing rules for element-wise operations, as AIR applies them: which
//! type a result has and in which type it is computed, so that a fused kernel gives
//! what the host interpreter gives (`blazar_runtime::ops`, LANGUAGE.md §3/§4).

use blazar_kir::Scalar;

/// The program precision: the type of every real result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prec {
    Single,
    Double,
}

impl Prec {
    pub fn real(self) -> Scalar {
        match self {
            Prec::Single => Scalar::F32,
            Prec::Double => Scalar::F64,
        }
    }
}

/// The int type of a result combining two int types (`runtime::ops::common_int`).
pub(crate) fn common_int(a: Scalar, b: Scalar) -> Scalar {
    let wide = |t: Scalar| matches!(t, Scalar::I64 | Scalar::U64);
    if a == b {
        a
    } else if wide(a) || wide(b) {
        Scalar::I64
    } else {
        Scalar::I32
    }
}

/// Int types whose arithmetic AIR computes in the type itself: the host wraps each
/// result to the type, and so does KIR's arithmetic on these.
pub(crate) fn int_arith(t: Scalar) -> bool {
    matches!(t, Scalar::I32 | Scalar::I64)
}

/// Whether an f64 is an f32 without loss (NaN included).
pub(crate) fn f32_exact(x: f64) -> bool {
    x as f32 as f64 == x || x.is_nan()
}

/// Element types an array input may have.
pub(crate) fn array_elem(t: Scalar) -> bool {
    !matches!(t, Scalar::Bool | Scalar::C32 | Scalar::C64)
}
