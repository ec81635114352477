//! Element-wise mathematical builtins: `abs sqrt exp log sin ... floor round sign`,
//! conversions (`int float complex int8..uint64`), complex parts and bit operations.
//!
//! One-argument functions map scalars and numeric arrays element-wise; results are
//! reals at the program precision unless noted (int inputs stay int for `abs floor ceil
//! round sign not saturate`). Two-argument functions broadcast like the operators
//! (see [`binary`]); conversions are in [`convert`].

pub(super) mod binary;
pub(super) mod convert;

use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::ops::{complex_buffer, complexes_of, int_buffer, ints_of, real_buffer, reals_of, Who};
use crate::value::{IntTy, Prec, Value};
use crate::{RtError, RtResult};
use blazar_ops::{Eval, MathFn};
use num_complex::Complex64;

type C = Complex64;

/// A builtin table entry.
pub(super) const fn bi(
    name: &'static str,
    func: super::BuiltinFn,
    min_args: usize,
    max_args: usize,
) -> Builtin {
    Builtin {
        name,
        func: super::Func::Native(func),
        min_args,
        max_args,
        doc: super::Doc::NONE,
    }
}

/// What a one-argument function does with int and complex inputs.
#[derive(Clone, Copy)]
pub(super) enum IntRule {
    /// Computed as reals; the result is real.
    Real,
    /// Stays int of the same type, computed by this function on the stored value.
    Keep(fn(i64, IntTy) -> i64),
}

#[derive(Clone, Copy)]
pub(super) enum CRule {
    None,
    Complex(fn(C) -> C),
    Real(fn(C) -> f64),
}

pub(super) fn expected_numeric(name: &str, v: &Value) -> RtError {
    RtError::new(format!(
        "{name}: expected a number or numeric array, got {}",
        v.kind_name()
    ))
}

/// Applies a one-argument function element-wise.
pub(super) fn map1(
    name: &str,
    v: &Value,
    prec: Prec,
    f: impl Fn(f64) -> f64,
    int: IntRule,
    cplx: CRule,
) -> RtResult<Value> {
    let no_complex = || RtError::new(format!("{name}: complex arguments are not supported"));
    match v {
        Value::Real(x) => Ok(Value::Real(prec.round(f(*x)))),
        Value::Int(x, t) => Ok(match int {
            IntRule::Keep(g) => Value::Int(t.wrap(g(*x, *t)), *t),
            IntRule::Real => Value::Real(prec.round(f(t.to_f64(*x)))),
        }),
        Value::Complex(z) => match cplx {
            CRule::None => Err(no_complex()),
            CRule::Complex(g) => Ok(Value::Complex(prec.round_c(g(*z)))),
            CRule::Real(g) => Ok(Value::Real(prec.round(g(*z)))),
        },
        Value::Array(r) => {
            let a = r.try_borrow().map_err(|_| expected_numeric(name, v))?;
            let buf = match (&a.buf, int) {
                (Buffer::Cell(_), _) => return Err(expected_numeric(name, v)),
                (Buffer::F32(x), _) if prec == Prec::Single => {
                    Buffer::F32(x.iter().map(|&x| f(x as f64) as f32).collect())
                }
                (Buffer::F32(_) | Buffer::F64(_), _) => {
                    real_buffer(prec, reals_of(&a.buf).iter().map(|&x| f(x)).collect())
                }
                (Buffer::C32(_) | Buffer::C64(_), _) => {
                    let z = complexes_of(&a.buf);
                    match cplx {
                        CRule::None => return Err(no_complex()),
                        CRule::Complex(g) => {
                            complex_buffer(prec, z.iter().map(|&z| prec.round_c(g(z))).collect())
                        }
                        CRule::Real(g) => real_buffer(prec, z.iter().map(|&z| g(z)).collect()),
                    }
                }
                (_, IntRule::Keep(g)) => match a.elem() {
                    crate::ElemType::Int(t) => int_buffer(
                        t,
                        ints_of(&a.buf).iter().map(|&x| t.wrap(g(x, t))).collect(),
                    ),
                    _ => return Err(expected_numeric(name, v)),
                },
                (_, IntRule::Real) => {
                    real_buffer(prec, reals_of(&a.buf).iter().map(|&x| f(x)).collect())
                }
            };
            Ok(Value::array(Array::new(a.dims.clone(), buf)))
        }
        _ => Err(expected_numeric(name, v)),
    }
}

/// Converts element-wise to an int type: reals truncate toward zero and saturate; ints
/// wrap like C casts. `to` = `None` keeps int inputs' type and gives `int` otherwise.
pub(super) fn map_to_int(
    name: &str,
    v: &Value,
    to: Option<IntTy>,
    fr: impl Fn(f64, IntTy) -> i64,
    fi: impl Fn(i64, IntTy, IntTy) -> i64,
) -> RtResult<Value> {
    match v {
        Value::Real(x) => {
            let t = to.unwrap_or(IntTy::I32);
            Ok(Value::Int(t.wrap(fr(*x, t)), t))
        }
        Value::Complex(z) => {
            let t = to.unwrap_or(IntTy::I32);
            Ok(Value::Int(t.wrap(fr(z.re, t)), t))
        }
        Value::Int(x, s) => {
            let t = to.unwrap_or(*s);
            Ok(Value::Int(t.wrap(fi(*x, *s, t)), t))
        }
        Value::Array(r) => {
            let a = r.try_borrow().map_err(|_| expected_numeric(name, v))?;
            let buf = match a.elem() {
                crate::ElemType::Cell => return Err(expected_numeric(name, v)),
                crate::ElemType::Int(s) => {
                    let t = to.unwrap_or(s);
                    int_buffer(
                        t,
                        ints_of(&a.buf)
                            .iter()
                            .map(|&x| t.wrap(fi(x, s, t)))
                            .collect(),
                    )
                }
                _ => {
                    let t = to.unwrap_or(IntTy::I32);
                    int_buffer(
                        t,
                        reals_of(&a.buf).iter().map(|&x| t.wrap(fr(x, t))).collect(),
                    )
                }
            };
            Ok(Value::array(Array::new(a.dims.clone(), buf)))
        }
        _ => Err(expected_numeric(name, v)),
    }
}

fn round_parts(z: C, f: fn(f64) -> f64) -> C {
    C::new(f(z.re), f(z.im))
}

fn sign_real(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x
    }
}

fn is_unsigned(t: IntTy) -> bool {
    matches!(t, IntTy::U8 | IntTy::U16 | IntTy::U32 | IntTy::U64)
}

/// Declares a one-argument builtin `fn $name(ctx, args)` built on [`map1`].
macro_rules! unary_fn {
    ($fname:ident, $qname:literal, $f:expr, $int:expr, $c:expr) => {
        fn $fname(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
            map1($qname, &args[0], ctx.prec, $f, $int, $c)
        }
    };
}

/// Declares a one-argument builtin of the C math library, whose rule on reals is its
/// row's in `blazar_ops::MATH` (complex variants and int rules are its own).
macro_rules! libm_fn {
    ($fname:ident, $f:ident, $int:expr, $c:expr) => {
        fn $fname(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
            let f = MathFn::$f;
            match f.def().eval {
                // Under single precision a function with an f32 variant
                // ([`MathFn::in_f32`]) computes in it, as kernels do.
                Eval::One(_, g32) if ctx.prec == Prec::Single && f.in_f32() => map1(
                    f.name(),
                    &args[0],
                    ctx.prec,
                    |x| g32(x as f32) as f64,
                    $int,
                    $c,
                ),
                Eval::One(g, _) => map1(f.name(), &args[0], ctx.prec, g, $int, $c),
                _ => by_row(f, ctx, args),
            }
        }
    };
}

const LN2: f64 = std::f64::consts::LN_2;

unary_fn!(
    abs,
    "abs",
    f64::abs,
    IntRule::Keep(|v, t| if is_unsigned(t) { v } else { v.wrapping_abs() }),
    CRule::Real(|z| z.norm())
);
libm_fn!(sqrt, Sqrt, IntRule::Real, CRule::Complex(|z| z.sqrt()));
unary_fn!(
    rsqrt,
    "rsqrt",
    |x| 1.0 / x.sqrt(),
    IntRule::Real,
    CRule::Complex(|z| z.sqrt().inv())
);
libm_fn!(exp, Exp, IntRule::Real, CRule::Complex(|z| z.exp()));
libm_fn!(
    exp2,
    Exp2,
    IntRule::Real,
    CRule::Complex(|z| (z * LN2).exp())
);
libm_fn!(log, Log, IntRule::Real, CRule::Complex(|z| z.ln()));
libm_fn!(log2, Log2, IntRule::Real, CRule::Complex(|z| z.ln() / LN2));
libm_fn!(
    log10,
    Log10,
    IntRule::Real,
    CRule::Complex(|z| z.ln() / std::f64::consts::LN_10)
);
libm_fn!(sin, Sin, IntRule::Real, CRule::Complex(|z| z.sin()));
libm_fn!(cos, Cos, IntRule::Real, CRule::Complex(|z| z.cos()));
libm_fn!(tan, Tan, IntRule::Real, CRule::Complex(|z| z.tan()));
libm_fn!(asin, Asin, IntRule::Real, CRule::Complex(|z| z.asin()));
libm_fn!(acos, Acos, IntRule::Real, CRule::Complex(|z| z.acos()));
libm_fn!(atan, Atan, IntRule::Real, CRule::Complex(|z| z.atan()));
libm_fn!(sinh, Sinh, IntRule::Real, CRule::Complex(|z| z.sinh()));
libm_fn!(cosh, Cosh, IntRule::Real, CRule::Complex(|z| z.cosh()));
libm_fn!(tanh, Tanh, IntRule::Real, CRule::Complex(|z| z.tanh()));
libm_fn!(
    floor,
    Floor,
    IntRule::Keep(|v, _| v),
    CRule::Complex(|z| round_parts(z, f64::floor))
);
libm_fn!(
    ceil,
    Ceil,
    IntRule::Keep(|v, _| v),
    CRule::Complex(|z| round_parts(z, f64::ceil))
);
libm_fn!(
    round,
    Round,
    IntRule::Keep(|v, _| v),
    CRule::Complex(|z| round_parts(z, f64::round))
);
unary_fn!(
    saturate,
    "saturate",
    // As `clamp(x, 0, 1)` (max then min, which pass over NaN): NaN gives 0, as in
    // kernels and CUDA's `__saturatef`.
    |x| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) },
    IntRule::Keep(|v, t| if t == IntTy::U64 {
        (v != 0) as i64
    } else {
        v.clamp(0, 1)
    }),
    CRule::None
);
unary_fn!(
    sign,
    "sign",
    sign_real,
    IntRule::Keep(|v, t| if t == IntTy::U64 {
        (v != 0) as i64
    } else {
        v.signum()
    }),
    CRule::Complex(|z| if z.norm() == 0.0 { z } else { z / z.norm() })
);
unary_fn!(
    isnan,
    "isnan",
    |x| (x.is_nan() as u8).into(),
    IntRule::Real,
    CRule::Real(|z| (z.is_nan() as u8).into())
);
unary_fn!(
    isinf,
    "isinf",
    |x| (x.is_infinite() as u8).into(),
    IntRule::Real,
    CRule::Real(|z| (z.is_infinite() as u8).into())
);
unary_fn!(
    isfinite,
    "isfinite",
    |x| (x.is_finite() as u8).into(),
    IntRule::Real,
    CRule::Real(|z| (z.is_finite() as u8).into())
);
unary_fn!(float, "float", |x| x, IntRule::Real, CRule::Complex(|z| z));
unary_fn!(real, "real", |x| x, IntRule::Real, CRule::Real(|z| z.re));
unary_fn!(imag, "imag", |_| 0.0, IntRule::Real, CRule::Real(|z| z.im));
unary_fn!(
    conj,
    "conj",
    |x| x,
    IntRule::Real,
    CRule::Complex(|z| z.conj())
);
unary_fn!(
    angle,
    "angle",
    |x| 0f64.atan2(x),
    IntRule::Real,
    CRule::Real(|z| z.arg())
);
unary_fn!(
    not,
    "not",
    |x| !(x as i64) as f64,
    IntRule::Keep(|v, _| !v),
    CRule::None
);

/// A function of reals from its row of `blazar_ops::MATH` (`Promote::Real`): ints and
/// reals compute as reals of the program precision, complex arguments are an error.
pub(super) fn by_row(f: MathFn, ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    match (f.def().eval, args) {
        // Under single precision the f32 function computes, as in kernels (the f64
        // one rounded to f32 differs from it by up to an ulp).
        (Eval::One(_, g), [x]) if ctx.prec == Prec::Single => map1(
            f.name(),
            x,
            ctx.prec,
            |x| g(x as f32) as f64,
            IntRule::Real,
            CRule::None,
        ),
        (Eval::One(g, _), [x]) => map1(f.name(), x, ctx.prec, g, IntRule::Real, CRule::None),
        (Eval::Two(g, g32), [x, y]) => {
            crate::ops::elementwise_real(Who::Func(f.name()), g, g32, x, y, ctx.prec)
        }
        _ => Err(RtError::new(format!(
            "{}: takes {} argument(s)",
            f.name(),
            f.arity()
        ))),
    }
}

pub(super) static TABLE: &[Builtin] = &[
    bi("abs", abs, 1, 1),
    bi("sqrt", sqrt, 1, 1),
    bi("rsqrt", rsqrt, 1, 1),
    bi("exp", exp, 1, 1),
    bi("exp2", exp2, 1, 1),
    bi("log", log, 1, 1),
    bi("log2", log2, 1, 1),
    bi("log10", log10, 1, 1),
    bi("sin", sin, 1, 1),
    bi("cos", cos, 1, 1),
    bi("tan", tan, 1, 1),
    bi("asin", asin, 1, 1),
    bi("acos", acos, 1, 1),
    bi("atan", atan, 1, 1),
    bi("sinh", sinh, 1, 1),
    bi("cosh", cosh, 1, 1),
    bi("tanh", tanh, 1, 1),
    bi("floor", floor, 1, 1),
    bi("ceil", ceil, 1, 1),
    bi("round", round, 1, 1),
    bi("saturate", saturate, 1, 1).doc(
        "saturate(x)",
        "Each element clamped to 0..1.",
        "print saturate([-0.5, 0.25, 1.5])",
        "[0,0.25,1]",
    ),
    bi("sign", sign, 1, 1),
    bi("isnan", isnan, 1, 1),
    bi("isinf", isinf, 1, 1),
    bi("isfinite", isfinite, 1, 1),
    bi("float", float, 1, 1).doc(
        "float(x)",
        "x converted to `scalar` (the program precision), element by element.",
        "print float(3) / 2, \" \", type(float(3))",
        "1.5 scalar",
    ),
    bi("double", float, 1, 1).doc(
        "double(x)",
        "MATLAB's name for the conversion to reals: x converted to `scalar`, the program precision (64-bit only under `--double`), element by element.",
        "print double(int8(3)) / 2, \" \", type(double(3))",
        "1.5 scalar",
    ),
    bi("single", float, 1, 1).doc(
        "single(x)",
        "MATLAB's name for the conversion to reals: x converted to `scalar`, the program precision, element by element.",
        "print single(3) / 2",
        "1.5",
    ),
    bi("real", real, 1, 1),
    bi("imag", imag, 1, 1),
    bi("conj", conj, 1, 1),
    bi("angle", angle, 1, 1),
    bi("not", not, 1, 1).doc(
        "not(x)",
        "The bitwise complement of each element of an int (`!x` is the logical not).",
        "print not(5), \" \", not(uint8(0))",
        "-6 255",
    ),
];

#[cfg(test)]
mod tests;
