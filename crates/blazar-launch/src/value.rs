//! Scalar and vector values passed to a kernel and returned from its outputs.

/// A scalar value passed to or returned from a kernel.
#[derive(Clone, Debug, PartialEq)]
pub enum KValue {
    Bool(bool),
    Int(i64),
    Float(f64),
    Complex(f64, f64),
    Vector(Vec<KValue>),
}

impl KValue {
    /// The value as a real (a complex value's real part; a vector's first component).
    pub fn as_f64(&self) -> f64 {
        match self {
            KValue::Bool(b) => *b as u8 as f64,
            KValue::Int(i) => *i as f64,
            KValue::Float(f) => *f,
            KValue::Complex(re, _) => *re,
            KValue::Vector(v) => v.first().map_or(0.0, KValue::as_f64),
        }
    }

    /// The value as an integer, truncating reals.
    pub fn as_i64(&self) -> i64 {
        match self {
            KValue::Bool(b) => *b as i64,
            KValue::Int(i) => *i,
            KValue::Float(f) => *f as i64,
            KValue::Complex(re, _) => *re as i64,
            KValue::Vector(v) => v.first().map_or(0, KValue::as_i64),
        }
    }
}
