//! Expressions: the generator's walk over KIR expressions, printing scalar operations
//! with `crate::spell` and memory accesses and specials the CUDA way.

use crate::cuda::kernel::Gen;
use crate::names::{self, scalar};
use crate::spell::{binary, operator, reduce_op};
use blazar_kir::{BinOp, Const, Expr, ExprKind, Ty};

impl Gen<'_> {
    /// The C expression of `e`.
    pub fn expr(&mut self, e: &Expr) -> String {
        match &e.kind {
            // Both sides of a scalar `&&` / `||` when the right one is cheap and safe:
            // no branch, so loads on either side issue with their neighbours.
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b)
                if matches!(a.ty, Ty::Scalar(_)) && crate::cuda::facts::speculable(b, self.k) =>
            {
                let (x, y) = (self.expr(a), self.expr(b));
                let c = if *op == BinOp::And { "&" } else { "|" };
                format!("((bool)({x}) {c} (bool)({y}))")
            }
            ExprKind::Unary(..)
            | ExprKind::Binary(..)
            | ExprKind::Cast(_)
            | ExprKind::Select(..)
            | ExprKind::Math(..) => operator(e, "[]", &mut |x| self.expr(x)).unwrap_or_default(),
            ExprKind::Const(c) => match e.ty {
                Ty::Scalar(s) => names::constant(c, s),
                Ty::Vector(s, n) => {
                    let x = names::constant(c, s);
                    format!("bz_splat<{n}, {}>({x})", scalar(s))
                }
                Ty::Array(_) => "0".into(),
            },
            ExprKind::Var(v) => names::var(self.k, *v),
            ExprKind::Special(sp) => self.special(*sp),
            ExprKind::Load { arr, index } => self.load(*arr, index),
            ExprKind::Size { arr, dim } => self.size(*arr, Some(*dim)),
            ExprKind::Numel(arr) => self.size(*arr, None),
            ExprKind::VecLit(es) => {
                let xs: Vec<String> = es.iter().map(|x| self.expr(x)).collect();
                format!("{}{{{{{}}}}}", names::ty(e.ty), xs.join(", "))
            }
            ExprKind::Splat(a) => {
                let x = self.expr(a);
                match e.ty {
                    Ty::Vector(s, n) => format!("bz_splat<{n}, {}>({x})", scalar(s)),
                    _ => x,
                }
            }
            ExprKind::Lane(v, i) => {
                let x = self.expr(v);
                let n = match v.ty {
                    Ty::Vector(_, n) => n as i64,
                    _ => return x,
                };
                match i.kind {
                    ExprKind::Const(Const::Int(k)) if (0..n).contains(&k) => format!("{x}[{k}]"),
                    ExprKind::Const(Const::Int(_)) => names::int_lit(0, e.ty.elem()),
                    _ => {
                        let j = self.expr(i);
                        format!("bz_lane({x}, {j})")
                    }
                }
            }
            ExprKind::VecReduce(r, a) => {
                let x = self.expr(a);
                let s = a.ty.elem();
                let body = binary(reduce_op(*r), s, "x", "y");
                format!("bz_fold({x}, [](auto x, auto y) {{ return {body}; }})")
            }
        }
    }
}
