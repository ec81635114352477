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
    use blazar_ops::promote::CommonInt;
    let wide = |t: Scalar| matches!(t, Scalar::I64 | Scalar::U64);
    match blazar_ops::promote::common_int(a == b, wide(a), wide(b)) {
        CommonInt::Same => a,
        CommonInt::I64 => Scalar::I64,
        CommonInt::I32 => Scalar::I32,
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
    !matches!(t, Scalar::Bool)
}

/// The complex type of the program precision (complex results have it, as reals have
/// `Prec::real`).
pub(crate) fn complex_of(prec: Prec) -> Scalar {
    match prec {
        Prec::Single => Scalar::C32,
        Prec::Double => Scalar::C64,
    }
}

/// The element type a conversion builtin gives, or `None` for any other name.
pub(crate) fn conversion(name: &str, prec: Prec) -> Option<Scalar> {
    Some(match name {
        "int" | "int32" => Scalar::I32,
        "int8" => Scalar::I8,
        "int16" => Scalar::I16,
        "int64" => Scalar::I64,
        "uint8" => Scalar::U8,
        "uint16" => Scalar::U16,
        "uint32" => Scalar::U32,
        "uint64" => Scalar::U64,
        "float" | "double" | "single" => prec.real(),
        _ => return None,
    })
}

/// A constant's bits converted from type `from` to `to`.
pub(crate) fn convert_const(bits: u64, from: Scalar, to: Scalar) -> u64 {
    let as_f64 = match from {
        Scalar::F32 | Scalar::F64 => f64::from_bits(bits),
        Scalar::U64 => bits as f64,
        _ => bits as i64 as f64,
    };
    match to {
        Scalar::F32 => (as_f64 as f32 as f64).to_bits(),
        Scalar::F64 => as_f64.to_bits(),
        t if t.is_int() && (from == Scalar::F32 || from == Scalar::F64) => {
            // Truncation toward zero, saturating at the type's limits, NaN to 0.
            let (lo, hi) = match t {
                Scalar::I8 => (i8::MIN as f64, i8::MAX as f64),
                Scalar::I16 => (i16::MIN as f64, i16::MAX as f64),
                Scalar::I32 => (i32::MIN as f64, i32::MAX as f64),
                Scalar::U8 => (0.0, u8::MAX as f64),
                Scalar::U16 => (0.0, u16::MAX as f64),
                Scalar::U32 => (0.0, u32::MAX as f64),
                Scalar::U64 => return (as_f64 as u64) as u64,
                _ => return as_f64 as i64 as u64,
            };
            as_f64.clamp(lo, hi) as i64 as u64
        }
        _ => bits,
    }
}
