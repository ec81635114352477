//! Lowering of the element-wise math builtins in kernel code (`sqrt`, `atan2`, `abs`,
//! `sign`, ...) and of conversions: the argument types each function takes, complex
//! arguments, casts, truth values, and ints and bools converted where the host
//! converts them.

use crate::lower::{err, Lower, LR};
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, IntKind};
use blazar_kir::{ArrayTy, BinOp, Expr, ExprKind as K, MathFn, ReadMode, Scalar, Ty, WriteMode};
use blazar_ops::Promote;

/// `t` (a scalar or a vector) with element type `s`.
fn shaped(t: Ty, s: Scalar) -> Ty {
    match t {
        Ty::Vector(_, n) => Ty::Vector(s, n),
        _ => Ty::Scalar(s),
    }
}

fn m1(f: MathFn, x: Expr, ty: Ty) -> Expr {
    Expr::new(K::Math(f, vec![x]), ty)
}

fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::new(K::Binary(op, Box::new(a), Box::new(b)), ty)
}

/// Booleans are the ints 0 and 1 in arithmetic (as `true` is an int in host code).
pub fn unbool(x: Expr) -> Expr {
    if x.ty.elem() == Scalar::Bool {
        let t = shaped(x.ty, Scalar::I32);
        cast(x, t)
    } else {
        x
    }
}

/// The real part of a complex operand (`complex(re, im)` takes real parts, as the host).
fn real_of(x: Expr) -> Expr {
    let s = x.ty.elem();
    if s.is_complex() {
        let t = shaped(x.ty, s.real_part());
        m1(MathFn::Real, x, t)
    } else {
        x
    }
}

fn no_complex(f: MathFn, span: Span) -> LR<Expr> {
    err(
        span,
        format!(
            "{}: complex arguments are not supported",
            blazar_kir::printer::math_name(f)
        ),
    )
}

/// A math builtin with the host's meaning on every element type: ints stay ints for
/// `floor ceil round abs sign periodize`, bools are the ints 0 and 1, `isnan isinf
/// isfinite` of ints are those of their real value, complex `floor ceil round` act on
/// both parts, complex `sign` is `z / abs(z)` (0 stays 0), and what the host rejects on
/// complex values (`frac atan2 periodize`) is a located error.
pub(crate) fn math(l: &Lower, f: MathFn, x: Expr, y: Option<Expr>, span: Span) -> LR<Expr> {
    use MathFn::*;
    let x = unbool(x);
    let Some(y) = y else {
        return math1(l, f, x, span);
    };
    let y = unbool(y);
    let n = match (x.ty, y.ty) {
        (Ty::Vector(_, n), Ty::Vector(_, m)) if n != m => {
            return err(
                span,
                format!("cannot combine vectors of lengths {n} and {m}"),
            )
        }
        (Ty::Vector(_, n), _) | (_, Ty::Vector(_, n)) => Some(n),
        _ => None,
    };
    let at = |s: Scalar| match n {
        Some(n) => Ty::Vector(s, n),
        None => Ty::Scalar(s),
    };
    let two = |f: MathFn, x: Expr, y: Expr, arg: Scalar, res: Scalar| {
        Expr::new(
            K::Math(f, vec![cast(x, at(arg)), cast(y, at(arg))]),
            at(res),
        )
    };
    if f == MakeComplex {
        let (x, y) = (real_of(x), real_of(y));
        let wide = x.ty.elem() == Scalar::F64 || y.ty.elem() == Scalar::F64;
        let (r, c) = if wide {
            (Scalar::F64, Scalar::C64)
        } else {
            (l.complex.real_part(), l.complex)
        };
        return Ok(two(f, x, y, r, c));
    }
    let j = crate::infer::join_scalar(x.ty.elem(), y.ty.elem());
    if j.is_complex() {
        return no_complex(f, span);
    }
    if f.arity() != 2 {
        return err(
            span,
            format!("`{}` takes one argument", blazar_kir::printer::math_name(f)),
        );
    }
    Ok(match f {
        Periodize if j.is_int() => two(f, x, y, j, j),
        _ => {
            let r = if j == Scalar::F64 { j } else { l.float };
            two(f, x, y, r, r)
        }
    })
}

fn math1(l: &Lower, f: MathFn, x: Expr, span: Span) -> LR<Expr> {
    use MathFn::*;
    let e = x.ty.elem();
    let xt = x.ty;
    let at = |s: Scalar| shaped(xt, s);
    if e.is_int() {
        return match f {
            Floor | Ceil | Round => Ok(x),
            Abs | Sign => Ok(m1(f, x, xt)),
            _ => {
                let r = if e.size() == 8 && l.float == Scalar::F64 {
                    Scalar::F64
                } else {
                    l.float
                };
                math1(l, f, cast(x, at(r)), span)
            }
        };
    }
    if e.is_complex() {
        let r = e.real_part();
        let re = m1(Real, x.clone(), at(r));
        let im = m1(Imag, x.clone(), at(r));
        let bools = at(Scalar::Bool);
        return Ok(match f {
            Floor | Ceil | Round => Expr::new(
                K::Math(MakeComplex, vec![m1(f, re, at(r)), m1(f, im, at(r))]),
                xt,
            ),
            IsNan => bin(BinOp::Or, m1(IsNan, re, bools), m1(IsNan, im, bools), bools),
            IsInf => {
                let nan = bin(
                    BinOp::Or,
                    m1(IsNan, re.clone(), bools),
                    m1(IsNan, im.clone(), bools),
                    bools,
                );
                let not_nan = Expr::new(K::Unary(blazar_kir::UnOp::Not, Box::new(nan)), bools);
                let inf = bin(BinOp::Or, m1(IsInf, re, bools), m1(IsInf, im, bools), bools);
                bin(BinOp::And, not_nan, inf, bools)
            }
            IsFinite => bin(
                BinOp::And,
                m1(IsFinite, re, bools),
                m1(IsFinite, im, bools),
                bools,
            ),
            Sign => {
                let a = m1(Abs, x.clone(), at(r));
                let zero = cast(
                    Expr::new(K::Const(blazar_kir::Const::Float(0.0)), Ty::Scalar(r)),
                    at(r),
                );
                let is_zero = bin(BinOp::Eq, a.clone(), zero, bools);
                let unit = Expr::new(
                    K::Math(
                        MakeComplex,
                        vec![
                            bin(BinOp::Div, re, a.clone(), at(r)),
                            bin(BinOp::Div, im, a, at(r)),
                        ],
                    ),
                    xt,
                );
                Expr::new(
                    K::Select(Box::new(is_zero), Box::new(x), Box::new(unit)),
                    xt,
                )
            }
            Abs | Real | Imag | Angle => m1(f, x, at(r)),
            Conj | Sqrt | Exp | Log | Sin | Cos | Tan | Sinh | Cosh | Tanh => m1(f, x, xt),
            _ if f.def().promote == Promote::Real => return no_complex(f, span),
            _ => {
                return err(
                    span,
                    format!(
                        "`{}` of complex values is not available in kernel code",
                        blazar_kir::printer::math_name(f)
                    ),
                )
            }
        });
    }
    Ok(match f {
        IsNan | IsInf | IsFinite => m1(f, x, at(Scalar::Bool)),
        _ if f.arity() == 2 => {
            return err(
                span,
                format!(
                    "`{}` takes two arguments",
                    blazar_kir::printer::math_name(f)
                ),
            )
        }
        _ => m1(f, x, xt),
    })
}

pub fn int_scalar(k: IntKind) -> Scalar {
    match k {
        IntKind::I8 => Scalar::I8,
        IntKind::I16 => Scalar::I16,
        IntKind::I32 => Scalar::I32,
        IntKind::I64 => Scalar::I64,
        IntKind::U8 => Scalar::U8,
        IntKind::U16 => Scalar::U16,
        IntKind::U32 => Scalar::U32,
        IntKind::U64 => Scalar::U64,
    }
}

/// Applies written access modifiers (`'circular`, `'const`, ...) to an array type.
pub fn apply_modifiers(a: &mut ArrayTy, ann: &hir::Annot) {
    if let Some(m) = &ann.mode {
        (a.read, a.write) = match m.as_str() {
            "safe" => (ReadMode::Zero, WriteMode::Skip),
            "circular" => (ReadMode::Circular, WriteMode::Skip),
            "mirror" => (ReadMode::Mirror, WriteMode::Skip),
            "clamped" => (ReadMode::Clamped, WriteMode::Skip),
            "checked" => (ReadMode::Checked, WriteMode::Checked),
            "unchecked" => (ReadMode::Unchecked, WriteMode::Unchecked),
            _ => (a.read, a.write),
        };
    }
    a.is_const |= ann.is_const;
}

pub fn cast(e: Expr, ty: Ty) -> Expr {
    if e.ty == ty {
        return e;
    }
    match (e.ty, ty) {
        (Ty::Scalar(_), Ty::Vector(s, _)) => {
            Expr::new(K::Splat(Box::new(cast(e, Ty::Scalar(s)))), ty)
        }
        _ => Expr::new(K::Cast(Box::new(e)), ty),
    }
}

pub fn to_bool(e: Expr) -> Expr {
    match e.ty {
        Ty::Scalar(Scalar::Bool) => e,
        Ty::Scalar(s) => {
            let zero = cast(Expr::int(0), Ty::Scalar(s));
            Expr::new(K::Binary(BinOp::Ne, Box::new(e), Box::new(zero)), Ty::BOOL)
        }
        Ty::Vector(Scalar::Bool, _) => e,
        Ty::Vector(s, n) => {
            let zero = cast(cast(Expr::int(0), Ty::Scalar(s)), Ty::Vector(s, n));
            Expr::new(
                K::Binary(BinOp::Ne, Box::new(e), Box::new(zero)),
                Ty::Vector(Scalar::Bool, n),
            )
        }
        _ => e,
    }
}

/// A condition (`if`, `while`, `until`, `assert`, `? :`): a scalar, tested against 0.
pub fn cond_bool(e: Expr, span: Span) -> LR<Expr> {
    if let Ty::Vector(_, n) = e.ty {
        return err(
            span,
            format!(
                "a condition in kernel code must be a scalar, not a vector of {n}; \
                 reduce it first (such as `min(v) > 0`)"
            ),
        );
    }
    Ok(to_bool(e))
}

pub(crate) fn with_elem(t: Ty, s: Scalar) -> Ty {
    match t {
        Ty::Vector(_, n) => Ty::Vector(s, n),
        _ => Ty::Scalar(s),
    }
}
