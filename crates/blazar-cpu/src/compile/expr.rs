//! Expression compilation: one instruction per node and vector component.
//!
//! Result register types are derived from the operand registers (never trusted from
//! the node alone), so the executor's typed register accesses always match. `?:`,
//! `&&` and `||` whose lazy operand holds a `'checked` load run that operand under a
//! narrowed mask, so that a lane the C semantics would not evaluate reports no error.

use super::Compiler;
use crate::program::{Inst, Reg};
use crate::values::{const_value, KValue};
use crate::KernelError;
use blazar_kir::{math_result, BinOp, Expr, ExprKind, ReadMode, Scalar, Ty, VecReduce};

fn bad(m: String) -> KernelError {
    KernelError::bad_launch(m)
}

impl Compiler<'_> {
    /// Whether evaluating `e` may read a `'checked` array.
    fn has_checked_load(&self, e: &Expr) -> bool {
        let sub = |x: &Expr| self.has_checked_load(x);
        match &e.kind {
            ExprKind::Load { arr, index, .. } => {
                self.arrays
                    .get(*arr as usize)
                    .is_some_and(|t| t.read == ReadMode::Checked)
                    || index.iter().any(sub)
            }
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Special(_) => false,
            ExprKind::Size { .. } | ExprKind::Numel(_) => false,
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::Splat(a)
            | ExprKind::VecReduce(_, a) => sub(a),
            ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => sub(a) || sub(b),
            ExprKind::Select(c, a, b) => sub(c) || sub(a) || sub(b),
            ExprKind::Math(_, args) | ExprKind::VecLit(args) => args.iter().any(sub),
        }
    }

    fn ty_of(&self, r: Reg) -> Scalar {
        self.types[r as usize]
    }

    /// Compiles `e` under a mask narrowed by `cond` (negated with `neg`).
    fn lazy(&mut self, e: &Expr, cond: Reg, neg: bool) -> Result<Vec<Reg>, KernelError> {
        self.code.push(Inst::MaskPush { cond, neg });
        let r = self.expr(e)?;
        self.code.push(Inst::MaskPop);
        Ok(r)
    }

    /// Compiles `e`; returns one register per component.
    pub(crate) fn expr(&mut self, e: &Expr) -> Result<Vec<Reg>, KernelError> {
        Ok(match &e.kind {
            ExprKind::Const(c) => match e.ty {
                Ty::Scalar(s) => vec![self.constant(s, const_value(c))],
                t => return Err(bad(format!("constant of type {t}"))),
            },
            ExprKind::Var(v) => self
                .vars
                .get(*v as usize)
                .cloned()
                .ok_or_else(|| bad(format!("unknown %{v}")))?,
            ExprKind::Special(sp) => self.special(*sp, e.ty)?,
            ExprKind::Unary(op, a) => {
                let ra = self.expr(a)?;
                let mut out = Vec::with_capacity(ra.len());
                for &x in &ra {
                    let d = self.temp(self.ty_of(x));
                    self.code.push(Inst::Unary { op: *op, d, a: x });
                    out.push(d);
                }
                self.release(&ra);
                out
            }
            ExprKind::Binary(op, a, b) => {
                let ra = self.expr(a)?;
                let lazy = matches!(op, BinOp::And | BinOp::Or)
                    && ra.len() == 1
                    && self.has_checked_load(b);
                let rb = if lazy {
                    self.lazy(b, ra[0], *op == BinOp::Or)?
                } else {
                    self.expr(b)?
                };
                if ra.len() != rb.len() {
                    return Err(bad(format!(
                        "binary operands of different lengths in {}",
                        e.ty
                    )));
                }
                let mut out = Vec::with_capacity(ra.len());
                for (&x, &y) in ra.iter().zip(&rb) {
                    if self.ty_of(x) != self.ty_of(y) {
                        return Err(bad("binary operands of different types".into()));
                    }
                    let s = if op.is_comparison() {
                        Scalar::Bool
                    } else {
                        self.ty_of(x)
                    };
                    let d = self.temp(s);
                    self.code.push(Inst::Binary {
                        op: *op,
                        d,
                        a: x,
                        b: y,
                    });
                    out.push(d);
                }
                self.release(&ra);
                self.release(&rb);
                out
            }
            ExprKind::Cast(a) => {
                let ra = self.expr(a)?;
                let to = e.ty.elem();
                let mut out = Vec::with_capacity(ra.len());
                for &x in &ra {
                    if self.ty_of(x) == to {
                        out.push(x);
                    } else {
                        let d = self.temp(to);
                        self.code.push(Inst::Cast { d, a: x });
                        out.push(d);
                    }
                }
                let dead: Vec<Reg> = ra.iter().copied().filter(|r| !out.contains(r)).collect();
                self.release(&dead);
                out
            }
            ExprKind::Select(c, a, b) => {
                let rc = self.expr(c)?;
                let lazy = rc.len() == 1 && (self.has_checked_load(a) || self.has_checked_load(b));
                let (ra, rb) = if lazy {
                    (self.lazy(a, rc[0], false)?, self.lazy(b, rc[0], true)?)
                } else {
                    (self.expr(a)?, self.expr(b)?)
                };
                if ra.len() != rb.len() || (rc.len() != 1 && rc.len() != ra.len()) {
                    return Err(bad("select operands of different lengths".into()));
                }
                let mut out = Vec::with_capacity(ra.len());
                for k in 0..ra.len() {
                    let c = rc[if rc.len() == 1 { 0 } else { k }];
                    if self.ty_of(ra[k]) != self.ty_of(rb[k]) || self.ty_of(c) != Scalar::Bool {
                        return Err(bad("select operands of different types".into()));
                    }
                    let d = self.temp(self.ty_of(ra[k]));
                    self.code.push(Inst::Select {
                        d,
                        c,
                        a: ra[k],
                        b: rb[k],
                    });
                    out.push(d);
                }
                self.release(&rc);
                self.release(&ra);
                self.release(&rb);
                out
            }
            ExprKind::Math(f, args) => {
                let ra = match args.first() {
                    Some(a) => self.expr(a)?,
                    None => return Err(bad("math function without arguments".into())),
                };
                let rb = match args.get(1) {
                    Some(b) => Some(self.expr(b)?),
                    None => None,
                };
                let two = f.arity() == 2;
                if two != rb.is_some() || rb.as_ref().is_some_and(|rb| rb.len() != ra.len()) {
                    return Err(bad(format!("wrong arguments for {f:?}")));
                }
                let mut out = Vec::with_capacity(ra.len());
                for k in 0..ra.len() {
                    let s = self.ty_of(ra[k]);
                    let b = rb.as_ref().map(|rb| rb[k]);
                    let r = math_result(*f, s).filter(|_| b.is_none_or(|b| self.ty_of(b) == s));
                    let r =
                        r.ok_or_else(|| bad(format!("{f:?} is not defined on {}", s.name())))?;
                    let d = self.temp(r);
                    self.code.push(Inst::Math {
                        f: *f,
                        d,
                        a: ra[k],
                        b,
                    });
                    out.push(d);
                }
                self.release(&ra);
                if let Some(rb) = &rb {
                    self.release(rb);
                }
                out
            }
            ExprKind::Load { arr, index, at } => {
                let t = self.array(*arr)?;
                let uniform =
                    t.space != blazar_kir::Space::Local && index.iter().all(|e| self.uni.expr(e));
                let affine = if !uniform {
                    self.affine_index(index, t.space)?
                } else {
                    None
                };
                let outer = affine.as_ref().map(|_| std::mem::take(&mut self.code));
                let idx = self.scalars_of(index)?;
                if idx.is_empty() || idx.len() > crate::memory::MAX_DIMS {
                    return Err(bad(format!("@{arr} indexed with {} indices", idx.len())));
                }
                let slow = match outer {
                    Some(outer) => std::mem::replace(&mut self.code, outer),
                    None => vec![],
                };
                let d = self.temp(t.elem);
                let pos = self.is_pos(&idx);
                let terms: Vec<Reg> = affine.iter().flatten().filter_map(|t| t.u).collect();
                self.code.push(Inst::Load {
                    arr: *arr,
                    d,
                    idx: idx.clone().into(),
                    pos,
                    affine: affine.map(Into::into),
                    uniform,
                    slow: slow.into(),
                    at: *at,
                });
                self.release(&idx);
                self.release(&terms);
                vec![d]
            }
            ExprKind::Size { arr, dim } => {
                self.array(*arr)?;
                let d = self.temp(Scalar::I32);
                self.code.push(Inst::Size {
                    arr: *arr,
                    dim: *dim,
                    d,
                });
                vec![d]
            }
            ExprKind::Numel(arr) => {
                self.array(*arr)?;
                let d = self.temp(Scalar::I32);
                self.code.push(Inst::Numel { arr: *arr, d });
                vec![d]
            }
            ExprKind::VecLit(es) => self.scalars_of(es)?,
            ExprKind::Splat(a) => {
                let r = self.expr(a)?;
                match (r.as_slice(), e.ty) {
                    ([x], Ty::Vector(_, n)) => vec![*x; n as usize],
                    _ => return Err(bad(format!("splat to {}", e.ty))),
                }
            }
            ExprKind::Lane(v, i) => {
                let rv = self.expr(v)?;
                let elem = v.ty.elem();
                if let ExprKind::Const(blazar_kir::Const::Int(k)) = i.kind {
                    match usize::try_from(k).ok().and_then(|k| rv.get(k)) {
                        Some(&keep) => {
                            let dead: Vec<Reg> =
                                rv.iter().copied().filter(|r| *r != keep).collect();
                            self.release(&dead);
                            vec![keep]
                        }
                        None => {
                            self.release(&rv);
                            vec![self.constant(elem, KValue::Int(0))]
                        }
                    }
                } else {
                    let ri = self.expr(i)?;
                    let [idx] = ri[..] else {
                        return Err(bad("vector lane index".into()));
                    };
                    let d = self.temp(rv.first().map_or(elem, |r| self.ty_of(*r)));
                    self.code.push(Inst::LaneDyn {
                        d,
                        srcs: rv.clone().into(),
                        idx,
                    });
                    self.release(&rv);
                    self.release(&ri);
                    vec![d]
                }
            }
            ExprKind::VecReduce(r, a) => {
                let ra = self.expr(a)?;
                let op = match r {
                    VecReduce::Sum => BinOp::Add,
                    VecReduce::Prod => BinOp::Mul,
                    VecReduce::Min => BinOp::Min,
                    VecReduce::Max => BinOp::Max,
                };
                let Some(&first) = ra.first() else {
                    return Err(bad("reduction of an empty vector".into()));
                };
                let mut acc = first;
                let mut dead = ra.clone();
                for &x in &ra[1..] {
                    let d = self.temp(self.ty_of(x));
                    self.code.push(Inst::Binary {
                        op,
                        d,
                        a: acc,
                        b: x,
                    });
                    dead.push(d);
                    acc = d;
                }
                dead.retain(|r| *r != acc);
                self.release(&dead);
                vec![acc]
            }
        })
    }

    /// Compiles a list of scalar expressions (vectors contribute all components).
    pub(crate) fn scalars_of(&mut self, es: &[Expr]) -> Result<Vec<Reg>, KernelError> {
        let mut out = Vec::new();
        for e in es {
            out.extend(self.expr(e)?);
        }
        Ok(out)
    }
}
