//! Load indices the executor can serve without a per-lane gather.
//!
//! Shared arrays are analysed the same way with `blkpos` in place of `pos`.
//!
//! An *affine* index has, per component `c`, the form `pos[c] + k + u` or `k + u`
//! (a constant `k` and a uniform scalar `u`, both optional): with consecutive lanes it
//! reads a contiguous run (or one element) found by one bounds check per work item.
//! A *uniform* index (every component uniform) reads one element for all lanes.
//! Vector arithmetic such as `pos + [di, dj, 0]` is looked through component-wise.

use super::Compiler;
use crate::program::{Inst, Reg, Term};
use crate::KernelError;
use blazar_kir::{BinOp, Const, Expr, ExprKind, Scalar, Space, Special, Ty};

/// `pos[c]` (when `pos` is `Some(c)`) + `d` + the sum of signed uniform addends.
struct Aff<'e> {
    pos: Option<usize>,
    d: i64,
    adds: Vec<(bool, &'e Expr)>,
}

impl Compiler<'_> {
    /// Whether `e` is the special of slot `kind` (0: `pos`, 1: `blkpos`).
    fn is_pos_expr(&self, e: &Expr, kind: usize) -> bool {
        match e.kind {
            ExprKind::Special(Special::Pos) => kind == 0,
            ExprKind::Special(Special::BlkPos) => kind == 1,
            ExprKind::Var(v) => self
                .vars
                .get(v as usize)
                .is_some_and(|r| self.specials[kind].as_deref() == Some(&r[..])),
            _ => false,
        }
    }

    /// Component `comp` of vector `e` (or scalar `e`) as an affine term.
    fn aff<'e>(&self, e: &'e Expr, comp: Option<usize>, kind: usize) -> Option<Aff<'e>> {
        let rank1 = self.k.rank == 1;
        let combine = |a: Aff<'e>, b: Aff<'e>, neg: bool| -> Option<Aff<'e>> {
            if b.pos.is_some() && (neg || a.pos.is_some()) {
                return None;
            }
            let d = if neg {
                a.d.checked_sub(b.d)?
            } else {
                a.d.checked_add(b.d)?
            };
            let mut adds = a.adds;
            adds.extend(b.adds.into_iter().map(|(n, x)| (n != neg, x)));
            Some(Aff {
                pos: a.pos.or(b.pos),
                d,
                adds,
            })
        };
        match (&e.kind, comp) {
            (_, Some(k)) if self.is_pos_expr(e, kind) => Some(Aff {
                pos: Some(k),
                d: 0,
                adds: vec![],
            }),
            (_, None) if rank1 && self.is_pos_expr(e, kind) => Some(Aff {
                pos: Some(0),
                d: 0,
                adds: vec![],
            }),
            (ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b), _) => {
                let (x, y) = (self.aff(a, comp, kind)?, self.aff(b, comp, kind)?);
                combine(x, y, *op == BinOp::Sub)
            }
            (ExprKind::Lane(v, i), None) => match i.kind {
                ExprKind::Const(Const::Int(k)) => self.aff(v, Some(usize::try_from(k).ok()?), kind),
                _ => self.uniform_aff(e),
            },
            (ExprKind::VecLit(es), Some(k)) => {
                // The other components are evaluated too (by the slow path only), so
                // they must not hold loads whose errors the fast path would skip.
                if es
                    .iter()
                    .all(|x| matches!(x.ty, Ty::Scalar(_)) && blazar_kir::visit::reads_no_array(x))
                {
                    self.aff(es.get(k)?, None, kind)
                } else {
                    None
                }
            }
            (ExprKind::Splat(a), Some(_)) => self.aff(a, None, kind),
            (ExprKind::Const(Const::Int(k)), None) if e.ty == Ty::I32 => Some(Aff {
                pos: None,
                d: *k,
                adds: vec![],
            }),
            (_, None) => self.uniform_aff(e),
            _ => None,
        }
    }

    fn uniform_aff<'e>(&self, e: &'e Expr) -> Option<Aff<'e>> {
        (e.ty == Ty::I32 && self.uni.expr(e)).then(|| Aff {
            pos: None,
            d: 0,
            adds: vec![(false, e)],
        })
    }

    /// The affine terms of `index` (compiling their uniform parts), if it is affine
    /// with at least one `pos` component: `pos` for global arrays, `blkpos` for shared
    /// ones (whose lanes are the threads of one block).
    pub(crate) fn affine_index(
        &mut self,
        index: &[Expr],
        space: Space,
    ) -> Result<Option<Vec<Term>>, KernelError> {
        let kind = match space {
            Space::Global => 0,
            Space::Shared => 1,
            Space::Local => return Ok(None),
        };
        if index.len() != self.k.rank as usize {
            return Ok(None);
        }
        let mut affs = Vec::with_capacity(index.len());
        for (i, e) in index.iter().enumerate() {
            match self.aff(e, None, kind) {
                Some(a) if a.pos.is_none_or(|c| c == i) && a.d.unsigned_abs() < (1 << 40) => {
                    affs.push(a)
                }
                _ => return Ok(None),
            }
        }
        if affs.iter().all(|a| a.pos.is_none()) {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(affs.len());
        for a in affs {
            let mut u: Option<Reg> = None;
            for (neg, x) in a.adds {
                let r = self.scalar_reg(x)?;
                u = Some(match (u, neg) {
                    (None, false) => r,
                    (None, true) => {
                        let d = self.temp(Scalar::I32);
                        self.code.push(Inst::Unary {
                            op: blazar_kir::UnOp::Neg,
                            d,
                            a: r,
                        });
                        self.release(&[r]);
                        d
                    }
                    (Some(acc), neg) => {
                        let d = self.temp(Scalar::I32);
                        let op = if neg { BinOp::Sub } else { BinOp::Add };
                        self.code.push(Inst::Binary {
                            op,
                            d,
                            a: acc,
                            b: r,
                        });
                        self.release(&[acc, r]);
                        d
                    }
                });
            }
            out.push(Term {
                pos: a.pos.is_some(),
                d: a.d,
                u,
            });
        }
        if kind == 0 && out.iter().any(|t| !t.pos || t.d != 0 || t.u.is_some()) {
            self.has_stencil = true;
        }
        Ok(Some(out))
    }

    fn scalar_reg(&mut self, e: &Expr) -> Result<Reg, KernelError> {
        match self.expr(e)?[..] {
            [r] if self.types[r as usize] == Scalar::I32 => Ok(r),
            _ => Err(KernelError::bad_launch("affine index term is not an i32")),
        }
    }
}
