//! The host side of dynamic shared memory: the bytes a launch must reserve for the
//! shared arrays whose extents are only known at run time (usually `shared(blkdim)`).

use crate::cuda::Generated;
use blazar_kir::{BinOp, Bind, Const, Expr, ExprKind, Kernel, Special, Stmt, StmtKind, Ty};
use std::collections::HashMap;

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

/// `e` with every local variable that the kernel assigns exactly once, at the top of
/// its body, replaced by the value assigned (so `R = blkdim[0] + 2; shared(R, 16)` can
/// be sized on the host). Parameters and other variables stay.
pub(crate) fn inline_locals(e: &Expr, k: &Kernel) -> Expr {
    let mut count: HashMap<u32, usize> = HashMap::new();
    fn visit(b: &[Stmt], count: &mut HashMap<u32, usize>) {
        for s in b {
            match &s.kind {
                StmtKind::Assign { var, .. } | StmtKind::SetLane { var, .. } => {
                    *count.entry(*var).or_default() += 1
                }
                StmtKind::For { var, body, .. } => {
                    *count.entry(*var).or_default() += 2;
                    visit(body, count);
                }
                StmtKind::While { body, .. } => visit(body, count),
                StmtKind::If { then, els, .. } => {
                    visit(then, count);
                    visit(els, count);
                }
                _ => {}
            }
        }
    }
    visit(&k.body, &mut count);
    let params: Vec<u32> = k
        .params
        .iter()
        .filter_map(|p| match p.bind {
            Bind::Var(v) => Some(v),
            Bind::Array(_) => None,
        })
        .collect();
    let singles: HashMap<u32, &Expr> = k
        .body
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Assign { var, value }
                if count.get(var) == Some(&1) && !params.contains(var) =>
            {
                Some((*var, value))
            }
            _ => None,
        })
        .collect();
    substitute(e, &singles, 8)
}

fn substitute(e: &Expr, singles: &HashMap<u32, &Expr>, depth: u32) -> Expr {
    if depth == 0 {
        return e.clone();
    }
    let sub = |x: &Expr| Box::new(substitute(x, singles, depth));
    let kind = match &e.kind {
        ExprKind::Var(v) => match singles.get(v) {
            Some(value) => return substitute(value, singles, depth - 1),
            None => return e.clone(),
        },
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, sub(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, sub(a), sub(b)),
        ExprKind::Cast(a) => ExprKind::Cast(sub(a)),
        ExprKind::Splat(a) => ExprKind::Splat(sub(a)),
        ExprKind::Lane(a, b) => ExprKind::Lane(sub(a), sub(b)),
        ExprKind::VecLit(xs) => {
            ExprKind::VecLit(xs.iter().map(|x| substitute(x, singles, depth)).collect())
        }
        _ => return e.clone(),
    };
    Expr { kind, ty: e.ty }
}
