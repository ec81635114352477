//! Expressions: scalar operations print with `crate::spell` (the executor's semantics);
//! vector operations map a scalar rule over the lanes with a generic lambda.

use super::Dialect;
use crate::names::{self, scalar};
use crate::spell::{binary, operator, reduce_op};
use blazar_kir::{Const, Expr, ExprKind, Ty};

/// The C expression of `e`.
pub(crate) fn expr<D: Dialect>(d: &mut D, e: &Expr) -> String {
    let mut out = String::new();
    expr_into(d, e, &mut out);
    out
}

/// The C expression of `e`, appended to `out`: operator nodes write their operands in
/// place, so a chain of operators prints in linear time.
fn expr_into<D: Dialect>(d: &mut D, e: &Expr, out: &mut String) {
    if let Some(x) = d.special_form(e) {
        out.push_str(&x);
        return;
    }
    if !operator(e, D::CAPTURE, out, &mut |x, o| expr_into(d, x, o)) {
        let x = leaf(d, e);
        out.push_str(&x);
    }
}

/// The C expression of a node that is not an operator.
fn leaf<D: Dialect>(d: &mut D, e: &Expr) -> String {
    match &e.kind {
        ExprKind::Unary(..)
        | ExprKind::Binary(..)
        | ExprKind::Cast(_)
        | ExprKind::Select(..)
        | ExprKind::Math(..) => String::new(),
        ExprKind::Const(c) => match e.ty {
            Ty::Scalar(s) => names::constant(c, s),
            Ty::Vector(s, n) => {
                let x = names::constant(c, s);
                format!("bz_splat<{n}, {}>({x})", scalar(s))
            }
            Ty::Array(_) => "0".into(),
        },
        ExprKind::Var(v) => d.var_read(*v),
        ExprKind::Special(sp) => d.special_expr(*sp),
        ExprKind::Load { arr, index, .. } => d.load_expr(e, *arr, index),
        ExprKind::Size { arr, dim } => d.size_expr(*arr, Some(*dim)),
        ExprKind::Numel(arr) => d.size_expr(*arr, None),
        ExprKind::VecLit(es) => {
            let xs: Vec<String> = es.iter().map(|x| expr(d, x)).collect();
            format!("{}{{{{{}}}}}", names::ty(e.ty), xs.join(", "))
        }
        ExprKind::Splat(a) => {
            let x = expr(d, a);
            match e.ty {
                Ty::Vector(s, n) => format!("bz_splat<{n}, {}>({x})", scalar(s)),
                _ => x,
            }
        }
        ExprKind::Lane(v, i) => {
            let n = match v.ty {
                Ty::Vector(_, n) => n as i64,
                _ => return expr(d, v),
            };
            match i.kind {
                ExprKind::Const(Const::Int(k)) if (0..n).contains(&k) => {
                    d.const_lane(v, k as usize)
                }
                ExprKind::Const(Const::Int(_)) => names::int_lit(0, e.ty.elem()),
                _ => {
                    let (x, j) = (expr(d, v), expr(d, i));
                    format!("bz_lane({x}, {j})")
                }
            }
        }
        ExprKind::VecReduce(r, a) => {
            let x = expr(d, a);
            let s = a.ty.elem();
            let body = binary(reduce_op(*r), s, "x", "y");
            format!(
                "bz_fold({x}, {}(auto x, auto y) {{ return {body}; }})",
                D::CAPTURE
            )
        }
    }
}
