//! Expression typing rules of the KIR verifier: each node's declared type is checked
//! against the declared types of its operands (operands are checked first, so one bad
//! leaf gives one error, not one per enclosing node).

use super::{is_int_scalar, show, Verifier};
use crate::ir::*;
use crate::printer::{binop_name, math_name};
use crate::types::{Scalar, Ty};

/// `t` (a scalar or vector) with its element type replaced by `s`.
fn with_elem(t: Ty, s: Scalar) -> Ty {
    match t {
        Ty::Vector(_, n) => Ty::Vector(s, n),
        _ => Ty::Scalar(s),
    }
}

/// The element type of a scalar or vector operand.
fn value_elem(t: Ty) -> Result<Scalar, String> {
    match t {
        Ty::Scalar(s) => Ok(s),
        Ty::Vector(s, n) if n >= 1 => Ok(s),
        t => Err(format!("operand of type {t} is not a scalar or vector")),
    }
}

fn need(ok: bool, msg: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(msg())
    }
}

/// Numeric and ordered: ints and reals.
fn ordered(s: Scalar) -> bool {
    s != Scalar::Bool && !s.is_complex()
}

impl Verifier<'_> {
    /// Checks `e` and all its operands, recording errors.
    pub(super) fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Const(_)
            | ExprKind::Var(_)
            | ExprKind::Special(_)
            | ExprKind::Size { .. }
            | ExprKind::Numel(_) => {}
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::Splat(a)
            | ExprKind::VecReduce(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Select(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Math(_, args) | ExprKind::VecLit(args) => self.exprs(args),
            ExprKind::Load { index, .. } => self.exprs(index),
        }
        if let Err(m) = self.node(e) {
            self.err(format!("in `{}`: {m}", show(e)));
        }
    }

    /// The typing rule of one node, given that its operands are well typed.
    fn node(&self, e: &Expr) -> Result<(), String> {
        let ty = e.ty;
        match &e.kind {
            ExprKind::Const(c) => {
                let ok = match (c, ty) {
                    (Const::Bool(_), Ty::Scalar(s)) => s == Scalar::Bool,
                    (Const::Int(_), Ty::Scalar(s)) => s.is_int(),
                    (Const::Float(_), Ty::Scalar(s)) => s.is_float(),
                    (Const::Complex(..), Ty::Scalar(s)) => s.is_complex(),
                    _ => false,
                };
                need(ok, || format!("constant {c:?} cannot have type {ty}"))
            }
            ExprKind::Var(v) => {
                let d = self.var_ty(*v)?;
                need(d == ty, || format!("%{v} is declared {d} but used as {ty}"))
            }
            ExprKind::Special(sp) => {
                let want = match (sp, self.k.rank) {
                    (Special::WarpSize, _) | (_, 1) => Ty::I32,
                    (_, r) => Ty::Vector(Scalar::I32, r),
                };
                need(ty == want, || {
                    format!(
                        "{sp:?} has type {want} in a rank {} kernel, not {ty}",
                        self.k.rank
                    )
                })
            }
            ExprKind::Unary(op, a) => {
                let s = value_elem(a.ty)?;
                need(a.ty == ty, || {
                    format!("operand has type {} but the result is {ty}", a.ty)
                })?;
                let ok = match op {
                    UnOp::Neg => s != Scalar::Bool,
                    UnOp::Not => s == Scalar::Bool,
                    UnOp::BitNot => s.is_int(),
                };
                need(ok, || format!("{op:?} is not defined on {}", a.ty))
            }
            ExprKind::Binary(op, a, b) => binary(*op, a, b, ty),
            ExprKind::Cast(a) => {
                let (from, to) = (value_elem(a.ty)?, value_elem(ty)?);
                let same_shape = match (a.ty, ty) {
                    (Ty::Scalar(_), Ty::Scalar(_)) => true,
                    (Ty::Vector(_, n), Ty::Vector(_, m)) => n == m,
                    _ => false,
                };
                need(same_shape, || format!("cannot cast {} to {ty}", a.ty))?;
                need(!from.is_complex() || to.is_complex(), || {
                    format!("cannot cast complex {} to {ty} (use real/imag)", a.ty)
                })
            }
            ExprKind::Select(c, a, b) => {
                need(a.ty == ty && b.ty == ty, || {
                    format!(
                        "branches have types {} and {} but the result is {ty}",
                        a.ty, b.ty
                    )
                })?;
                value_elem(ty)?;
                let ok = c.ty == Ty::BOOL
                    || matches!((c.ty, ty), (Ty::Vector(Scalar::Bool, n), Ty::Vector(_, m)) if n == m);
                need(ok, || {
                    format!(
                        "condition has type {}, not bool (or a bool vector like {ty})",
                        c.ty
                    )
                })
            }
            ExprKind::Math(f, args) => math(*f, args, ty),
            ExprKind::Load { arr, index, .. } => {
                let t = self.arr_ty(*arr)?;
                self.index(*arr, &t, index)?;
                need(ty == Ty::Scalar(t.elem), || {
                    format!("@{arr} has elements of type {}, not {ty}", t.elem.name())
                })
            }
            ExprKind::Size { arr, .. } | ExprKind::Numel(arr) => {
                self.arr_ty(*arr)?;
                need(ty == Ty::I32, || format!("sizes have type i32, not {ty}"))
            }
            ExprKind::VecLit(es) => match ty {
                Ty::Vector(s, n) => {
                    need(es.len() == n as usize, || {
                        format!("{} elements for {ty}", es.len())
                    })?;
                    for (i, x) in es.iter().enumerate() {
                        need(x.ty == Ty::Scalar(s), || {
                            format!("element {i} has type {}, not {}", x.ty, s.name())
                        })?;
                    }
                    Ok(())
                }
                t => Err(format!("vector literal of non-vector type {t}")),
            },
            ExprKind::Splat(a) => match ty {
                Ty::Vector(s, _) => need(a.ty == Ty::Scalar(s), || {
                    format!("splatting {} to {ty}", a.ty)
                }),
                t => Err(format!("splat to non-vector type {t}")),
            },
            ExprKind::Lane(v, i) => match v.ty {
                Ty::Vector(s, _) => {
                    need(is_int_scalar(i.ty), || {
                        format!("lane index has type {}, not an integer scalar", i.ty)
                    })?;
                    need(ty == Ty::Scalar(s), || {
                        format!("a lane of {} has type {}, not {ty}", v.ty, s.name())
                    })
                }
                t => Err(format!("lane of non-vector type {t}")),
            },
            ExprKind::VecReduce(_, a) => match a.ty {
                Ty::Vector(s, _) => {
                    need(s != Scalar::Bool, || format!("reduction of {}", a.ty))?;
                    need(ty == Ty::Scalar(s), || {
                        format!("reducing {} gives {}, not {ty}", a.ty, s.name())
                    })
                }
                t => Err(format!("vector reduction of non-vector type {t}")),
            },
        }
    }
}

fn binary(op: BinOp, a: &Expr, b: &Expr, ty: Ty) -> Result<(), String> {
    need(a.ty == b.ty, || {
        format!("operands have different types {} and {}", a.ty, b.ty)
    })?;
    let t = a.ty;
    let s = value_elem(t)?;
    use BinOp::*;
    let (ok, result) = match op {
        Add | Sub | Mul | Div | Pow => (s != Scalar::Bool, t),
        Rem | Min | Max => (ordered(s), t),
        Eq | Ne => (true, with_elem(t, Scalar::Bool)),
        Lt | Gt | Le | Ge => (ordered(s), with_elem(t, Scalar::Bool)),
        And | Or => (s == Scalar::Bool, t),
        BitAnd | BitOr | BitXor | Shl | Shr => (s.is_int(), t),
    };
    need(ok, || {
        format!("`{}` is not defined on {t}", binop_name(op).0)
    })?;
    need(ty == result, || {
        format!("result should have type {result}, not {ty}")
    })
}

fn math(f: MathFn, args: &[Expr], ty: Ty) -> Result<(), String> {
    let arity = f.arity();
    let name = math_name(f);
    need(args.len() == arity, || {
        format!("{name} takes {arity} argument(s), not {}", args.len())
    })?;
    let t = args[0].ty;
    let s = value_elem(t)?;
    if arity == 2 {
        need(args[1].ty == t, || {
            format!(
                "{name} arguments have different types {t} and {}",
                args[1].ty
            )
        })?;
    }
    let r = math_result(f, s);
    let (ok, result) = (r.is_some(), with_elem(t, r.unwrap_or(s)));
    need(ok, || format!("{name} is not defined on {t}"))?;
    need(ty == result, || {
        format!("{name} of {t} gives {result}, not {ty}")
    })
}
