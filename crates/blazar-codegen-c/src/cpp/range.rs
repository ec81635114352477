//! Printing the row-level range facts (`blazar_kir::affine`): the parts of an affine
//! form are KIR expressions of type `i64`, which print here as the i64 C expressions
//! the row guard (`rows`) and the proven offsets (`memory`) are made of.
//!
//! A variable in a form prints as its parameter (`bz_p<i>`) when it is one: the
//! bounds are evaluated at the start of a row, before the thread's variables exist,
//! and a parameter that a form names is never assigned. Any other variable in a form
//! is a loop variable, which only `rest` names (valid where the index is).

use super::Gen;
use blazar_kir::{BinOp, Bind, Const, Expr, ExprKind};

impl Gen<'_> {
    /// An i64 part of a form (`rest`, `lo`, `hi`) as C.
    pub(crate) fn form(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Const(Const::Int(x)) => format!("{x}ll"),
            ExprKind::Cast(a) => match &a.kind {
                ExprKind::Var(v) => {
                    let param = self
                        .k
                        .params
                        .iter()
                        .position(|p| matches!(p.bind, Bind::Var(w) if w == *v));
                    match param {
                        Some(i) => format!("(i64)bz_p{i}"),
                        None => format!("(i64){}", self.var_base(*v)),
                    }
                }
                ExprKind::Size { arr, dim } => {
                    format!("(i64)(i32){}_d{dim}", super::arr_ident(self.k, *arr))
                }
                _ => unreachable!("not a part of an affine form: {e:?}"),
            },
            ExprKind::Binary(op, a, b) => {
                let op = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    _ => unreachable!("not a part of an affine form: {e:?}"),
                };
                format!("({} {op} {})", self.form(a), self.form(b))
            }
            _ => unreachable!("not a part of an affine form: {e:?}"),
        }
    }

    /// A condition of a form (`last + step <= 2^31 - 1`, a loop variable that never
    /// wraps) as C.
    pub(crate) fn form_cond(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Binary(BinOp::Le, l, r) => match &l.kind {
                ExprKind::Binary(BinOp::Add, a, b) => {
                    format!("{} + {} <= {}", self.form(a), self.form(b), self.form(r))
                }
                _ => format!("{} <= {}", self.form(l), self.form(r)),
            },
            _ => unreachable!("not a condition of an affine form: {e:?}"),
        }
    }
}
