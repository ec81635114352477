//! Run-time values of host code: scalars, strings, arrays, functions and objects.

use crate::aref::ArrayRef;
use crate::array::{Access, Array};
use num_complex::Complex64;
use std::cell::RefCell;
use std::rc::Rc;

/// Floating-point precision of `scalar`: f32 by default, f64 with `--double`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Prec {
    #[default]
    Single,
    Double,
}

impl Prec {
    /// Rounds a computed f64 to the precision of `scalar`.
    #[inline(always)]
    pub fn round(self, x: f64) -> f64 {
        match self {
            Prec::Single => x as f32 as f64,
            Prec::Double => x,
        }
    }

    #[inline]
    pub fn round_c(self, z: Complex64) -> Complex64 {
        Complex64::new(self.round(z.re), self.round(z.im))
    }
}

/// The integer scalar types. `int` is `I32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntTy {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
}

impl IntTy {
    pub fn name(self) -> &'static str {
        match self {
            IntTy::I8 => "int8",
            IntTy::I16 => "int16",
            IntTy::I32 => "int",
            IntTy::I64 => "int64",
            IntTy::U8 => "uint8",
            IntTy::U16 => "uint16",
            IntTy::U32 => "uint32",
            IntTy::U64 => "uint64",
        }
    }

    /// Wraps an i64 to this width (two's complement), as C casts do.
    #[inline]
    pub fn wrap(self, v: i64) -> i64 {
        match self {
            IntTy::I8 => v as i8 as i64,
            IntTy::I16 => v as i16 as i64,
            IntTy::I32 => v as i32 as i64,
            IntTy::I64 => v,
            IntTy::U8 => v as u8 as i64,
            IntTy::U16 => v as u16 as i64,
            IntTy::U32 => v as u32 as i64,
            IntTy::U64 => v,
        }
    }

    /// Converts a real to this type: truncation toward zero, saturating at the bounds.
    pub fn from_f64(self, x: f64) -> i64 {
        match self {
            IntTy::I8 => x as i8 as i64,
            IntTy::I16 => x as i16 as i64,
            IntTy::I32 => x as i32 as i64,
            IntTy::I64 => x as i64,
            IntTy::U8 => x as u8 as i64,
            IntTy::U16 => x as u16 as i64,
            IntTy::U32 => x as u32 as i64,
            IntTy::U64 => x as u64 as i64,
        }
    }

    /// The value as f64 (`U64` is stored as its bit pattern in an i64).
    #[inline]
    pub fn to_f64(self, v: i64) -> f64 {
        if self == IntTy::U64 {
            v as u64 as f64
        } else {
            v as f64
        }
    }
}

/// A function value: a user function (index into the program's function table) or a
/// builtin, with the values it captured when it was created.
#[derive(Clone, Debug)]
pub struct Closure {
    pub func: FuncRef,
    pub captures: Vec<Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncRef {
    User(u32),
    Builtin(u32),
}

/// A dynamic object (`object()`) or an instance of a user class.
#[derive(Clone, Debug, Default)]
pub struct Object {
    pub class: Option<Rc<str>>,
    pub fields: Vec<(Rc<str>, Value)>,
}

impl Object {
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| v)
    }

    pub fn set(&mut self, name: &str, v: Value) {
        match self.fields.iter_mut().find(|(n, _)| &**n == name) {
            Some(slot) => slot.1 = v,
            None => self.fields.push((Rc::from(name), v)),
        }
    }
}

#[derive(Clone, Debug)]
pub enum Value {
    /// `scalar`: stored as f64, rounded to the program's [`Prec`] after each operation.
    Real(f64),
    /// Any integer type; the value is wrapped to the type's width.
    Int(i64, IntTy),
    /// `cscalar`.
    Complex(Complex64),
    Str(crate::Text),
    /// Arrays of any element type and rank, cells included. Shared by reference.
    Array(ArrayRef),
    Func(Rc<Closure>),
    Object(Rc<RefCell<Object>>),
}

impl Value {
    #[inline]
    pub fn int(v: i64) -> Value {
        Value::Int(IntTy::I32.wrap(v), IntTy::I32)
    }

    pub fn str(s: &str) -> Value {
        Value::Str(crate::Text::new(s))
    }

    pub fn array(a: Array) -> Value {
        Value::Array(ArrayRef::new(a))
    }

    pub fn array_with(a: Array, mode: Access) -> Value {
        Value::Array(ArrayRef::of(Rc::new(crate::store::Store::new(a)), mode))
    }

    /// The value as a real number, if it is a real or integer scalar.
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Real(x) => Some(*x),
            Value::Int(v, t) => Some(t.to_f64(*v)),
            _ => None,
        }
    }

    /// The value as an integer, if it is an integer or an integral real.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(v, _) => Some(*v),
            Value::Real(x) if x.fract() == 0.0 && x.is_finite() => Some(*x as i64),
            _ => None,
        }
    }

    pub fn as_complex(&self) -> Option<Complex64> {
        match self {
            Value::Complex(z) => Some(*z),
            _ => self.as_f64().map(|x| Complex64::new(x, 0.0)),
        }
    }

    pub fn is_scalar(&self) -> bool {
        matches!(self, Value::Real(_) | Value::Int(..) | Value::Complex(_))
    }

    /// Truth value of a condition: non-zero numbers are true; an array is true when
    /// it is non-empty and all its elements are non-zero.
    pub fn truthy(&self) -> Option<bool> {
        match self {
            Value::Real(x) => Some(*x != 0.0),
            Value::Int(v, _) => Some(*v != 0),
            Value::Complex(z) => Some(z.re != 0.0 || z.im != 0.0),
            Value::Array(a) => {
                let a = a.borrow();
                if a.is_cell() {
                    return None;
                }
                Some(a.len() > 0 && (0..a.len()).all(|i| a.get_c(i) != Complex64::new(0.0, 0.0)))
            }
            _ => None,
        }
    }

    /// A short name of the kind of value, for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Real(_) => "scalar",
            Value::Int(..) => "int",
            Value::Complex(_) => "cscalar",
            Value::Str(_) => "string",
            Value::Array(a) => {
                if a.borrow().is_cell() {
                    "cell array"
                } else {
                    "array"
                }
            }
            Value::Func(_) => "function",
            Value::Object(_) => "object",
        }
    }
}
