//! Arithmetic, comparison and logic operators on run-time values.
//!
//! Scalars follow the rules of LANGUAGE.md §3/§4: int op int stays int for `+ - * .*`
//! (wrapped to the type; mixed int types give `int64` when either is 64-bit, else
//! `int`), `/` and `^` give reals, anything with a complex operand is complex, and every
//! real result is rounded to the program precision. Arrays combine element-wise with
//! numpy-style broadcasting (trailing alignment). `*` of two arrays of rank ≤ 2 is the
//! matrix product (a one-element array times a non-conformable one acts as a scalar); `/` and `^` with array
//! operands are always element-wise (there is no matrix division or matrix power).

mod broadcast;
mod matmul;

pub(crate) use broadcast::{
    common_int, complex_buffer, complexes_of, elementwise, elementwise_real, int_buffer, ints_of,
    numeric_class, real_buffer, reals_of, CplxMode, Kernel2, Who,
};

use crate::array::{Array, Buffer};
use crate::value::{IntTy, Prec, Value};
use crate::{rt_bail, RtResult};
use blazar_ops::scalar::Arith as A;
use num_complex::Complex64;

type C = Complex64;

pub use blazar_ops::{BinOp, UnOp};

/// A binary operator of host code as written: its element-wise operation (declared
/// once, in `blazar-ops`) and whether it was written with a dot (`.*`, `./`, `.^`).
/// `*` without a dot is the matrix product of two arrays (element-wise otherwise);
/// `/` and `^` are element-wise with or without the dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HostOp {
    pub op: BinOp,
    pub dotted: bool,
}

impl HostOp {
    /// The dotted operator of `op` (`.*`, `./`, `.^`).
    pub const fn dot(op: BinOp) -> HostOp {
        HostOp { op, dotted: true }
    }

    /// `*` of two arrays: the matrix product.
    pub fn is_matrix_product(self) -> bool {
        self.op == BinOp::Mul && !self.dotted
    }

    /// The operator as written in source.
    pub fn symbol(self) -> &'static str {
        match (self.op, self.dotted) {
            (BinOp::Mul, true) => ".*",
            (BinOp::Div, true) => "./",
            (BinOp::Pow, true) => ".^",
            (op, _) => op.symbol(),
        }
    }
}

impl From<BinOp> for HostOp {
    fn from(op: BinOp) -> HostOp {
        HostOp { op, dotted: false }
    }
}

#[inline(always)]
fn b2f(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// A real scalar operation, rounded to `prec`; `None` for an operation that is no
/// operator of host code (`mod`, `min`, bit operations: builtins). What
/// [`binary_scalar`] computes when either operand is a real and neither is complex.
#[inline(always)]
pub fn real_scalar(op: BinOp, x: f64, y: f64, prec: Prec) -> Option<f64> {
    Some(match op {
        BinOp::Add => prec.round(A::add(x, y)),
        BinOp::Sub => prec.round(A::sub(x, y)),
        BinOp::Mul => prec.round(A::mul(x, y)),
        BinOp::Div => prec.round(A::div(x, y)),
        BinOp::Pow => prec.round(A::pow(x, y)),
        BinOp::Eq => b2f(x == y),
        BinOp::Ne => b2f(x != y),
        BinOp::Lt => b2f(A::lt(x, y)),
        BinOp::Gt => b2f(A::gt(x, y)),
        BinOp::Le => b2f(A::le(x, y)),
        BinOp::Ge => b2f(A::ge(x, y)),
        BinOp::And => b2f(A::truth(x) && A::truth(y)),
        BinOp::Or => b2f(A::truth(x) || A::truth(y)),
        _ => return None,
    })
}

/// The mathematical value of a stored int (u64 kept as its bit pattern).
#[inline(always)]
fn int_val(v: i64, t: IntTy) -> i128 {
    if t == IntTy::U64 {
        v as u64 as i128
    } else {
        v as i128
    }
}

/// `x op y` of two int scalars (`binary_scalar`'s rule for them).
#[inline(always)]
pub fn int_scalar(op: BinOp, x: i64, t: IntTy, y: i64, u: IntTy, prec: Prec) -> Option<Value> {
    let r = common_int(t, u);
    Some(match op {
        BinOp::Add => Value::Int(r.wrap(A::add(x, y)), r),
        BinOp::Sub => Value::Int(r.wrap(A::sub(x, y)), r),
        BinOp::Mul => Value::Int(r.wrap(A::mul(x, y)), r),
        BinOp::Div | BinOp::Pow => Value::Real(real_scalar(op, t.to_f64(x), u.to_f64(y), prec)?),
        BinOp::Eq => Value::Real(b2f(int_val(x, t) == int_val(y, u))),
        BinOp::Ne => Value::Real(b2f(int_val(x, t) != int_val(y, u))),
        BinOp::Lt => Value::Real(b2f(A::lt(int_val(x, t), int_val(y, u)))),
        BinOp::Gt => Value::Real(b2f(A::gt(int_val(x, t), int_val(y, u)))),
        BinOp::Le => Value::Real(b2f(A::le(int_val(x, t), int_val(y, u)))),
        BinOp::Ge => Value::Real(b2f(A::ge(int_val(x, t), int_val(y, u)))),
        BinOp::And => Value::Real(b2f(A::truth(x) && A::truth(y))),
        BinOp::Or => Value::Real(b2f(A::truth(x) || A::truth(y))),
        _ => return None,
    })
}

/// Fast path for two real or int scalars; `None` for any other operands (and for an
/// operation that is no operator of host code).
#[inline]
pub fn binary_scalar(op: impl Into<HostOp>, a: &Value, b: &Value, prec: Prec) -> Option<Value> {
    let op = op.into().op;
    match (a, b) {
        (Value::Real(x), Value::Real(y)) => Some(Value::Real(real_scalar(op, *x, *y, prec)?)),
        (Value::Int(x, t), Value::Int(y, u)) => int_scalar(op, *x, *t, *y, *u, prec),
        (Value::Real(x), Value::Int(y, u)) => {
            Some(Value::Real(real_scalar(op, *x, u.to_f64(*y), prec)?))
        }
        (Value::Int(x, t), Value::Real(y)) => {
            Some(Value::Real(real_scalar(op, t.to_f64(*x), *y, prec)?))
        }
        _ => None,
    }
}

/// An arithmetic operator's kernel: the scalar semantics of `blazar_ops::scalar` on
/// each result class.
macro_rules! arith_kernel {
    ($name:ident, $int:expr, $m:ident) => {
        struct $name;
        impl Kernel2 for $name {
            const INT: bool = $int;
            const CPLX: CplxMode = CplxMode::Complex;
            #[inline(always)]
            fn int(a: i64, b: i64, _t: IntTy) -> i64 {
                A::$m(a, b)
            }
            #[inline(always)]
            fn real(a: f64, b: f64) -> f64 {
                A::$m(a, b)
            }
            #[inline(always)]
            fn f32(a: f32, b: f32) -> f32 {
                A::$m(a, b)
            }
            #[inline(always)]
            fn cplx(a: C, b: C) -> C {
                A::$m(a, b)
            }
        }
    };
}

arith_kernel!(AddK, true, add);
arith_kernel!(SubK, true, sub);
arith_kernel!(MulK, true, mul);
arith_kernel!(DivK, false, div);
arith_kernel!(PowK, false, pow);

/// A comparison's kernel: `$a $b => $e` on reals, f32 and complex (a real result).
macro_rules! cmp_kernel {
    ($name:ident, |$a:ident, $b:ident| $e:expr) => {
        struct $name;
        impl Kernel2 for $name {
            const CPLX: CplxMode = CplxMode::Real;
            #[inline(always)]
            fn real($a: f64, $b: f64) -> f64 {
                b2f($e)
            }
            #[inline(always)]
            fn f32($a: f32, $b: f32) -> f32 {
                if $e {
                    1.0
                } else {
                    0.0
                }
            }
            #[inline(always)]
            fn cplx_real($a: C, $b: C) -> f64 {
                b2f($e)
            }
        }
    };
}

cmp_kernel!(EqK, |a, b| a == b);
cmp_kernel!(NeK, |a, b| a != b);
cmp_kernel!(LtK, |a, b| A::lt(a, b));
cmp_kernel!(GtK, |a, b| A::gt(a, b));
cmp_kernel!(LeK, |a, b| A::le(a, b));
cmp_kernel!(GeK, |a, b| A::ge(a, b));
cmp_kernel!(AndK, |a, b| A::truth(a) && A::truth(b));
cmp_kernel!(OrK, |a, b| A::truth(a) || A::truth(b));

/// Evaluates `a op b`.
pub fn binary(op: impl Into<HostOp>, a: &Value, b: &Value, prec: Prec) -> RtResult<Value> {
    let host = op.into();
    if let Some(v) = binary_scalar(host, a, b, prec) {
        return Ok(v);
    }
    let who = Who::Op(host.symbol());
    let op = host.op;
    match (op, a, b) {
        (BinOp::Eq, Value::Str(x), Value::Str(y)) => return Ok(Value::Real(b2f(x == y))),
        (BinOp::Ne, Value::Str(x), Value::Str(y)) => return Ok(Value::Real(b2f(x != y))),
        (BinOp::Mul, Value::Array(x), Value::Array(y)) if host.is_matrix_product() => {
            if numeric_class(a).is_none() || numeric_class(b).is_none() {
                return Err(who.bad_kinds(a, b));
            }
            let (x, y) = match (x.try_borrow(), y.try_borrow()) {
                (Ok(x), Ok(y)) => (x, y),
                _ => rt_bail!("operator `*`: array is being modified"),
            };
            // A one-element array acts as a scalar when the product is undefined.
            if (x.len() == 1) == (y.len() == 1) || matmul::conformable(&x, &y) {
                return matmul::matmul(&x, &y, prec);
            }
        }
        _ => {}
    }
    match op {
        BinOp::Add => elementwise::<AddK>(who, a, b, prec),
        BinOp::Sub => elementwise::<SubK>(who, a, b, prec),
        BinOp::Mul => elementwise::<MulK>(who, a, b, prec),
        BinOp::Div => elementwise::<DivK>(who, a, b, prec),
        BinOp::Pow => elementwise::<PowK>(who, a, b, prec),
        BinOp::Eq => elementwise::<EqK>(who, a, b, prec),
        BinOp::Ne => elementwise::<NeK>(who, a, b, prec),
        BinOp::Lt => elementwise::<LtK>(who, a, b, prec),
        BinOp::Gt => elementwise::<GtK>(who, a, b, prec),
        BinOp::Le => elementwise::<LeK>(who, a, b, prec),
        BinOp::Ge => elementwise::<GeK>(who, a, b, prec),
        BinOp::And => elementwise::<AndK>(who, a, b, prec),
        BinOp::Or => elementwise::<OrK>(who, a, b, prec),
        _ => rt_bail!("`{}` is no operator of host code", op.symbol()),
    }
}

/// Rebuilds a numeric buffer variant by mapping its element vector.
macro_rules! map_num_buf {
    ($buf:expr, $v:ident => $e:expr, cell => $cell:expr) => {
        match $buf {
            Buffer::F32($v) => Buffer::F32($e),
            Buffer::F64($v) => Buffer::F64($e),
            Buffer::C32($v) => Buffer::C32($e),
            Buffer::C64($v) => Buffer::C64($e),
            Buffer::I8($v) => Buffer::I8($e),
            Buffer::I16($v) => Buffer::I16($e),
            Buffer::I32($v) => Buffer::I32($e),
            Buffer::I64($v) => Buffer::I64($e),
            Buffer::U8($v) => Buffer::U8($e),
            Buffer::U16($v) => Buffer::U16($e),
            Buffer::U32($v) => Buffer::U32($e),
            Buffer::U64($v) => Buffer::U64($e),
            Buffer::Cell(_) => $cell,
        }
    };
}

/// Evaluates `op a`. Negation keeps the element type (ints wrap); `!` gives 0/1 reals;
/// bit negation is no operator of host code (the builtin `not` is).
pub fn unary(op: UnOp, a: &Value, prec: Prec) -> RtResult<Value> {
    let bad = || {
        crate::RtError::new(format!(
            "operator `{}` cannot be applied to {}",
            op.symbol(),
            a.kind_name()
        ))
    };
    match (op, a) {
        (UnOp::Neg, Value::Real(x)) => Ok(Value::Real(A::neg(*x))),
        (UnOp::Neg, Value::Int(x, t)) => Ok(Value::Int(t.wrap(A::neg(*x)), *t)),
        (UnOp::Neg, Value::Complex(z)) => Ok(Value::Complex(A::neg(*z))),
        (UnOp::Not, Value::Real(x)) => Ok(Value::Real(b2f(!A::truth(*x)))),
        (UnOp::Not, Value::Int(x, _)) => Ok(Value::Real(b2f(!A::truth(*x)))),
        (UnOp::Not, Value::Complex(z)) => Ok(Value::Real(b2f(!A::truth(*z)))),
        (_, Value::Array(r)) => {
            let arr = r.try_borrow().map_err(|_| bad())?;
            let buf = match op {
                UnOp::Neg => {
                    map_num_buf!(&arr.buf, v => v.iter().map(|&x| A::neg(x)).collect(), cell => return Err(bad()))
                }
                UnOp::BitNot => return Err(bad()),
                UnOp::Not => {
                    if arr.is_cell() {
                        return Err(bad());
                    }
                    real_buffer(
                        prec,
                        (0..arr.len())
                            .map(|i| b2f(!A::truth(arr.get_c(i))))
                            .collect(),
                    )
                }
            };
            Ok(Value::array(Array::new(arr.dims.clone(), buf)))
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests;
