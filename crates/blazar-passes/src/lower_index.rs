//! Lowering of indexing in kernel code: index lists (ranges, vector positions) and
//! element, slice and vector loads from kernel arrays.

use crate::lower::{err, Lower, LR};
use crate::lower_expr::Val;
use crate::lower_math::cast;
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, ExprKind as H};
use blazar_kir::{ArrId, ArrayTy, Expr, ExprKind as K, Scalar, Ty};

impl<'a> Lower<'a> {
    /// Index expressions of an array access: vectors (positions) spread into their lanes.
    pub fn index_list(
        &mut self,
        arr: ArrId,
        args: &'a [hir::Expr],
    ) -> LR<(Vec<Expr>, Option<(usize, Vec<i64>)>)> {
        let mut out = Vec::new();
        let mut range = None;
        for (d, a) in args.iter().enumerate() {
            if matches!(a.kind, H::Range { .. } | H::Colon) {
                if range.is_some() {
                    return err(
                        a.span,
                        "an index in kernel code takes at most one range or `:`",
                    );
                }
                let items = match a.kind {
                    H::Colon => self.colon(arr, d, args.len(), a.span)?,
                    _ => self.const_range(a)?,
                };
                range = Some((out.len(), items));
                out.push(Expr::int(0));
                continue;
            }
            let x = self.expr(a)?;
            match x.ty {
                Ty::Vector(s, n) => {
                    let x = if s.is_int() {
                        x
                    } else {
                        cast(x, Ty::Vector(Scalar::I32, n))
                    };
                    for i in 0..n {
                        out.push(Expr::new(
                            K::Lane(Box::new(x.clone()), Box::new(Expr::int(i as i64))),
                            Ty::I32,
                        ));
                    }
                }
                Ty::Scalar(s) if s.is_int() => out.push(x),
                Ty::Scalar(s) if s.is_float() || s == Scalar::Bool => out.push(cast(x, Ty::I32)),
                _ => return err(a.span, format!("an index must be an integer, not {}", x.ty)),
            }
        }
        Ok((out, range))
    }

    /// `:` as index `d` of `n` into `arr`: every coordinate of that dimension, whose
    /// extent the launch gives (at most 32: the result is a fixed-length vector).
    fn colon(&self, arr: ArrId, d: usize, n: usize, span: Span) -> LR<Vec<i64>> {
        let Some(dims) = self.extents.get(&arr) else {
            return err(span, crate::sig::NEEDS_EXTENTS);
        };
        // The logical shape (a vec is 1×N), with extents of 1 past its rank.
        let logical: Vec<u32> = if dims.len() == 1 && n >= 2 {
            vec![1, dims[0]]
        } else {
            dims.clone()
        };
        let extent = if n < logical.len() && d + 1 == n {
            logical[d..].iter().product()
        } else {
            logical.get(d).copied().unwrap_or(1)
        };
        if extent > 32 {
            return err(
                span,
                format!(
                    "`:` in kernel code selects a fixed-length vector of at most 32 elements; \
                     this dimension has {extent}"
                ),
            );
        }
        Ok((0..extent as i64).collect())
    }

    pub(crate) fn index(
        &mut self,
        base: &'a hir::Expr,
        args: &'a [hir::Expr],
        span: Span,
    ) -> LR<Val> {
        match self.val(base)? {
            Val::Arr(a) => {
                let (idx, range) = self.index_list(a, args)?;
                let t = self.arr_ty(a);
                let elem = t.elem;
                let loc = self.loc(span);
                let load = |idx: Vec<Expr>| {
                    let index = fit_rank(a, t, true, idx);
                    Expr::new(
                        K::Load {
                            arr: a,
                            index,
                            at: loc,
                        },
                        Ty::Scalar(elem),
                    )
                };
                Ok(Val::E(match range {
                    None => load(idx),
                    Some((at, items)) => {
                        let n = items.len() as u8;
                        let lanes = items
                            .into_iter()
                            .map(|r| {
                                let mut ix = idx.clone();
                                ix[at] = Expr::int(r);
                                load(ix)
                            })
                            .collect();
                        Expr::new(K::VecLit(lanes), Ty::Vector(elem, n))
                    }
                }))
            }
            Val::List(l) => {
                let [a] = args else {
                    return err(span, "a cell of arrays takes one index");
                };
                let i = match a.kind {
                    H::Int(i) => i,
                    _ => {
                        return err(
                            a.span,
                            "a cell of arrays in kernel code must be indexed by a constant",
                        )
                    }
                };
                match usize::try_from(i).ok().and_then(|i| l.get(i)) {
                    Some(id) => Ok(Val::Arr(*id)),
                    None => err(
                        a.span,
                        format!(
                            "index {i} is out of bounds for a cell of {} arrays",
                            l.len()
                        ),
                    ),
                }
            }
            Val::E(v) => {
                let Ty::Vector(elem, n) = v.ty else {
                    return err(span, format!("a value of type {} cannot be indexed", v.ty));
                };
                if let [a] = args {
                    if matches!(a.kind, H::Range { .. }) {
                        let items = self.const_range(a)?;
                        let m = items.len() as u8;
                        let lanes = items
                            .into_iter()
                            .map(|i| {
                                Expr::new(
                                    K::Lane(Box::new(v.clone()), Box::new(Expr::int(i))),
                                    Ty::Scalar(elem),
                                )
                            })
                            .collect();
                        return Ok(Val::E(Expr::new(K::VecLit(lanes), Ty::Vector(elem, m))));
                    }
                    let i = cast(self.expr(a)?, Ty::I32);
                    return Ok(Val::E(Expr::new(
                        K::Lane(Box::new(v), Box::new(i)),
                        Ty::Scalar(elem),
                    )));
                }
                let _ = n;
                err(span, "a vector takes one index")
            }
            _ => err(span, "this value cannot be indexed in kernel code"),
        }
    }

    pub fn arr_ty(&self, a: ArrId) -> ArrayTy {
        match self.k.arrays[a as usize].ty {
            Ty::Array(t) => t,
            _ => unreachable!("array slots hold array types"),
        }
    }
}

/// Indices for an array of lower rank than they address (rank promotion: a vec read as
/// a 1×N mat, a mat as an M×N×1 cube): the extra indices, whose extent is 1, fold into
/// the array's last dimension (`last + n * extra`), so an extra index other than 0 lands
/// outside the array and reads as the boundary mode says. A vec (1×N) is indexed by the
/// second index (`v[0, j]`, `v[0, j, 0]`), a larger array by its leading ones
/// (`x[i, j, 0]`). A read under `'clamped`, `'mirror` or `'circular` maps every index of
/// an extent-1 dimension to 0, so the extra indices are dropped instead.
pub(crate) fn fit_rank(arr: ArrId, t: ArrayTy, read: bool, mut idx: Vec<Expr>) -> Vec<Expr> {
    let r = t.rank as usize;
    if idx.len() <= r.max(1) {
        return idx;
    }
    let extends = matches!(
        t.read,
        blazar_kir::ReadMode::Clamped
            | blazar_kir::ReadMode::Mirror
            | blazar_kir::ReadMode::Circular
    );
    if read && extends {
        return if r == 1 {
            vec![idx.remove(1)]
        } else {
            idx.truncate(r);
            idx
        };
    }
    let (last, extras) = if r == 1 {
        // A vec is 1×N: its index is the second; the first and any past it are extra.
        let last = idx.remove(1);
        (last, std::mem::take(&mut idx))
    } else {
        let extras = idx.split_off(r);
        (idx.pop().expect("rank >= 2"), extras)
    };
    let n = Expr::new(
        K::Size {
            arr,
            dim: (r - 1) as u8,
        },
        Ty::I32,
    );
    let mut folded = cast(last, Ty::I32);
    for e in extras {
        let scaled = Expr::new(
            K::Binary(
                blazar_kir::BinOp::Mul,
                Box::new(n.clone()),
                Box::new(cast(e, Ty::I32)),
            ),
            Ty::I32,
        );
        folded = Expr::new(
            K::Binary(blazar_kir::BinOp::Add, Box::new(folded), Box::new(scaled)),
            Ty::I32,
        );
    }
    idx.push(folded);
    idx
}
