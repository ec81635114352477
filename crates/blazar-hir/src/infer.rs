//! A small, local type inference for expressions: enough to give lambdas a printable
//! type (`(x : int) -> 2*x` is `[int->int]`), hover its types and the checker the
//! variables that are certainly arrays. Anything unclear is `??`.

use crate::builtin_types::{builtin_result, matrix_type};
use crate::hir::{BinOp, Callee, Expr, ExprKind, Param, UnOp, Var};
use crate::types::Ty;

/// The name of builtin `id` (the builtin table lives in the runtime).
pub type BuiltinName<'a> = &'a dyn Fn(u32) -> Option<String>;

/// The static type of `e`, where `params` are the only variables with known types
/// (builtin calls and matrix literals are `??`: declarations convert them).
pub fn expr_type(e: &Expr, params: &[Param]) -> Ty {
    infer(e, params, None)
}

/// [`expr_type`] that also knows builtin calls and matrix literals, with the builtins'
/// names from `names`.
pub fn expr_type_with(e: &Expr, params: &[Param], names: BuiltinName) -> Ty {
    infer(e, params, Some(names))
}

fn infer(e: &Expr, params: &[Param], names: Option<BuiltinName>) -> Ty {
    let expr_type = |e: &Expr, params: &[Param]| infer(e, params, names);
    match &e.kind {
        ExprKind::Call {
            callee: Callee::Builtin(id),
            args,
        } => match names.and_then(|n| n(*id)) {
            Some(name) => {
                let tys: Vec<Ty> = args.iter().map(|a| expr_type(a, params)).collect();
                builtin_result(&name, &tys)
            }
            None => Ty::Unknown,
        },
        ExprKind::Call {
            callee: Callee::TypeCtor(t),
            ..
        } if names.is_some() => t.clone(),
        ExprKind::Matrix(items) if names.is_some() => {
            let tys: Vec<Ty> = items.iter().map(|a| expr_type(a, params)).collect();
            matrix_type(&tys)
        }
        ExprKind::Int(_) => Ty::Int(crate::types::IntKind::I32),
        ExprKind::Real(_) => Ty::Scalar,
        ExprKind::Imag(_) => Ty::CScalar,
        ExprKind::Str(_) => Ty::Str,
        ExprKind::Var(Var::Local(slot)) => params
            .iter()
            .find(|p| p.slot == *slot)
            .and_then(|p| p.ty.as_ref())
            .map_or(Ty::Unknown, |a| a.ty.clone()),
        ExprKind::Unary(UnOp::Neg, x) => expr_type(x, params),
        ExprKind::Unary(UnOp::Not, _) => Ty::Scalar,
        ExprKind::Convert(_, a) => a.ty.clone(),
        ExprKind::Binary(op, a, b) => {
            let (ta, tb) = (expr_type(a, params), expr_type(b, params));
            match op {
                BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Gt
                | BinOp::Le
                | BinOp::Ge
                | BinOp::And
                | BinOp::Or => {
                    if is_scalar(&ta) && is_scalar(&tb) {
                        Ty::Scalar
                    } else {
                        Ty::Unknown
                    }
                }
                BinOp::Div | BinOp::Pow | BinOp::EDiv | BinOp::EPow => numeric_join(&ta, &tb, true),
                _ => numeric_join(&ta, &tb, false),
            }
        }
        ExprKind::Ternary(_, a, b) => {
            let (ta, tb) = (expr_type(a, params), expr_type(b, params));
            if ta == tb {
                ta
            } else {
                Ty::Unknown
            }
        }
        _ => Ty::Unknown,
    }
}

fn is_scalar(t: &Ty) -> bool {
    matches!(t, Ty::Scalar | Ty::Int(_) | Ty::CScalar)
}

fn numeric_join(a: &Ty, b: &Ty, real_result: bool) -> Ty {
    match (a, b) {
        (Ty::CScalar, t) | (t, Ty::CScalar) if is_scalar(t) => Ty::CScalar,
        (Ty::Int(x), Ty::Int(y)) if !real_result && x == y => Ty::Int(*x),
        (x, y) if is_scalar(x) && is_scalar(y) => Ty::Scalar,
        _ => Ty::Unknown,
    }
}
