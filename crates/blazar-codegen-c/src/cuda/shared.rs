//! The host side of dynamic shared memory: the bytes a launch must reserve for the
//! shared arrays whose extents are only known at run time (usually `shared(blkdim)`).
//!
//! This evaluation stays with the launch: it needs the launch's block shape and the
//! values of the scalar arguments, which only the launcher has, and it is asked once
//! per launch, not per kernel. The kernel-side part (extents with the locals assigned
//! once inlined, `blazar_kir::props::inline_locals`) is computed when the kernel is
//! generated and travels in `Generated::dynamic_shared`.

use crate::cuda::Generated;
use blazar_kir::{BinOp, Const, Expr, ExprKind, Special, Ty};

#[derive(Clone, Debug, PartialEq)]
enum V {
    S(i64),
    Vec(Vec<i64>),
}

/// Evaluates an integer extent from `blkdim` (kernel component order), constants and
/// integer scalar parameters (`param(var)`); `None` for anything else.
fn eval(e: &Expr, blkdim: &[i64], param: &dyn Fn(u32) -> Option<i64>) -> Option<V> {
    let s = |x: &Expr| match eval(x, blkdim, param)? {
        V::S(v) => Some(v),
        V::Vec(_) => None,
    };
    Some(match &e.kind {
        ExprKind::Const(Const::Int(v)) => V::S(*v),
        ExprKind::Special(Special::BlkDim) => match e.ty {
            Ty::Vector(..) => V::Vec(blkdim.to_vec()),
            _ => V::S(*blkdim.first()?),
        },
        ExprKind::Special(Special::WarpSize) => V::S(32),
        ExprKind::Var(v) => V::S(param(*v)?),
        ExprKind::Cast(a) if e.ty.elem().is_int() && a.ty.elem().is_int() => V::S(s(a)?),
        ExprKind::Lane(v, i) => match eval(v, blkdim, param)? {
            V::Vec(xs) => V::S(*xs.get(usize::try_from(s(i)?).ok()?)?),
            V::S(_) => return None,
        },
        ExprKind::VecLit(xs) => V::Vec(xs.iter().map(s).collect::<Option<_>>()?),
        ExprKind::Splat(a) => match e.ty {
            Ty::Vector(_, n) => V::Vec(vec![s(a)?; n as usize]),
            _ => return None,
        },
        ExprKind::Binary(op, a, b) if matches!(e.ty, Ty::Vector(..)) => {
            let vec = |x: &Expr| match eval(x, blkdim, param)? {
                V::Vec(v) => Some(v),
                V::S(_) => None,
            };
            let (x, y) = (vec(a)?, vec(b)?);
            if x.len() != y.len() {
                return None;
            }
            let f = |x: i64, y: i64| match op {
                BinOp::Add => Some(x.wrapping_add(y)),
                BinOp::Sub => Some(x.wrapping_sub(y)),
                BinOp::Mul => Some(x.wrapping_mul(y)),
                BinOp::Min => Some(x.min(y)),
                BinOp::Max => Some(x.max(y)),
                _ => None,
            };
            V::Vec(
                x.iter()
                    .zip(&y)
                    .map(|(&a, &b)| f(a, b))
                    .collect::<Option<_>>()?,
            )
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (s(a)?, s(b)?);
            V::S(match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div => x.checked_div(y).unwrap_or(0),
                BinOp::Rem => x.checked_rem(y).unwrap_or(0),
                BinOp::Min => x.min(y),
                BinOp::Max => x.max(y),
                BinOp::Shl | BinOp::Shr => {
                    let bits = 8 * a.ty.elem().size() as u32;
                    blazar_kir::fold::shift(*op, x, y, bits)?
                }
                _ => return None,
            })
        }
        _ => return None,
    })
}

/// Bytes of dynamic shared memory for one launch of `g` with block extents `blkdim`
/// (one per `pos` component, component 0 first) and the integer values of scalar
/// parameters; `Some(0)` when the kernel has no dynamic shared arrays, `None` when an
/// extent cannot be computed on the host (the launcher then reserves its maximum; the
/// kernel reports an exhausted reservation through the error record).
pub fn dynamic_shared_bytes(
    g: &Generated,
    blkdim: &[i64],
    param: &dyn Fn(u32) -> Option<i64>,
) -> Option<usize> {
    let mut total = 0usize;
    for d in &g.dynamic_shared {
        let mut n = 1usize;
        for e in &d.dims {
            match eval(e, blkdim, param)? {
                V::S(v) => n = n.checked_mul(v.max(0) as usize)?,
                V::Vec(_) => return None,
            }
        }
        total = total.div_ceil(16) * 16 + n.checked_mul(d.elem_size)?;
    }
    Some(total)
}
