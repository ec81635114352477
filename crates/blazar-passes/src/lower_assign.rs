//! Lowering of kernel assignments: to variables, vector lanes, arrays (atomic in-place
//! updates) and kernel outputs, and multi-assignment.

use crate::lower::{err, expr_of, Lower, Slot, SlotTy, LR};
use crate::lower_expr::Val;
use crate::lower_math::cast;
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, Access, BinOp as HOp, Var};
use blazar_kir::{AtomicOp, Expr, ExprKind as K, Space, StmtKind, Ty};

fn atomic_op(op: HOp, span: Span) -> LR<AtomicOp> {
    Ok(match op {
        HOp::Add => AtomicOp::Add,
        HOp::Sub => AtomicOp::Sub,
        HOp::Mul | HOp::EMul => AtomicOp::Mul,
        HOp::Div | HOp::EDiv => AtomicOp::Div,
        HOp::Pow | HOp::EPow => AtomicOp::Pow,
        _ => return err(span, "this in-place operator cannot be used on kernel data"),
    })
}

impl<'a> Lower<'a> {
    pub(crate) fn assign(
        &mut self,
        target: &'a hir::Place,
        op: Option<HOp>,
        value: &'a hir::Expr,
        ty: Option<&hir::Annot>,
        span: Span,
    ) -> LR<()> {
        if op.is_none() && target.path.is_empty() {
            if let Some(r) = self.min_max_output(target, value, span) {
                return r;
            }
        }
        let mut val = self.val(value)?;
        // `bins : vec[int] = shared(256)`: the declared element type of kernel memory.
        if let (Val::Alloc { ty: at, .. }, Some(a)) = (&mut val, ty) {
            if let blazar_hir::Ty::Array { elem, .. } = &a.ty {
                match self.hir_ty(elem, span)? {
                    Some(Ty::Scalar(e)) => at.elem = e,
                    None => {}
                    Some(_) => return err(span, "kernel memory holds scalars"),
                }
            }
        }
        // `acc = zeros(4)`: a register vector where it can be one.
        if let (None, true, Var::Local(slot)) = (op, target.path.is_empty(), target.var) {
            val = self.alloc_as_vector(slot, val);
        }
        // `a : int8 = e` (and every later assignment to `a`: the HIR carries the declared
        // type on each): the value converts to the declared type.
        let decl = match ty {
            Some(a) if target.path.is_empty() => self.hir_ty(&a.ty, span)?.map(|t| (t, &a.ty)),
            _ => None,
        };
        self.assign_val_as(target, op, val, decl, span)
    }

    /// A value stored in a local declared of type `t`, converted as the host converts
    /// to a declared type (`interp::coerce`): ints of any width wrap into an int type,
    /// ints and reals become reals, anything numeric becomes complex. The host turns a
    /// real into an int only when the real is integral (else an error at the
    /// assignment); kernel code cannot test that where it assigns, so a real stored in
    /// an int local is a compile-time error unless it is an integral constant (a
    /// host loop that would become such a kernel stays on the host).
    fn declared(&self, v: Expr, t: Ty, decl: &blazar_hir::Ty, span: Span) -> LR<Expr> {
        use blazar_kir::Const;
        if v.ty == t {
            return Ok(v);
        }
        let refuse = |what: &str| {
            err(
                span,
                format!("this local is declared {decl}, so it cannot hold {what}"),
            )
        };
        match (v.ty, t) {
            (Ty::Scalar(_), _) => {}
            (Ty::Vector(_, n), Ty::Vector(_, m)) if n == m => {}
            _ => return refuse("a vector of another length"),
        }
        let (have, want) = (v.ty.elem(), t.elem());
        if have.is_complex() && !want.is_complex() {
            return refuse("complex values");
        }
        if have.is_float() && want.is_int() {
            let integral =
                matches!(v.kind, K::Const(Const::Float(x)) if x.is_finite() && x.fract() == 0.0);
            if !integral {
                return refuse("real values (convert them with int(), floor() or round())");
            }
        }
        Ok(cast(v, t))
    }

    /// `out = min(out, e)` (or `max`, either order) on a kernel output: a min or max
    /// accumulation (the loop parallelizer writes min and max reductions so).
    fn min_max_output(
        &mut self,
        target: &'a hir::Place,
        value: &'a hir::Expr,
        span: Span,
    ) -> Option<LR<()>> {
        let Var::Local(slot) = target.var else {
            return None;
        };
        let Slot::Output(o) = self.frame().slots[slot as usize] else {
            return None;
        };
        let hir::ExprKind::Call {
            callee: hir::Callee::Builtin(id),
            args,
        } = &value.kind
        else {
            return None;
        };
        let aop = match ((self.env.builtin_name)(*id), args.len()) {
            ("min", 2) => AtomicOp::Min,
            ("max", 2) => AtomicOp::Max,
            _ => return None,
        };
        let is_out = |e: &hir::Expr| matches!(e.kind, hir::ExprKind::Var(v) if v == target.var);
        let other = match (is_out(&args[0]), is_out(&args[1])) {
            (true, false) => &args[1],
            (false, true) => &args[0],
            _ => return None,
        };
        Some((|| {
            let v = expr_of(self.val(other)?, span)?;
            if self.open_outputs {
                if let Ty::Scalar(t) = v.ty {
                    let cur = self.k.outputs[o as usize].ty;
                    self.k.outputs[o as usize].ty = crate::infer::join_scalar(cur, t);
                }
            }
            let out_ty = self.k.outputs[o as usize].ty;
            self.k.outputs[o as usize].op = aop;
            self.emit(StmtKind::Accumulate {
                output: o,
                value: cast(v, Ty::Scalar(out_ty)),
            });
            Ok(())
        })())
    }

    /// Stores an evaluated value at a place.
    fn assign_val(
        &mut self,
        target: &'a hir::Place,
        op: Option<HOp>,
        val: Val,
        span: Span,
    ) -> LR<()> {
        self.assign_val_as(target, op, val, None, span)
    }

    /// As [`Lower::assign_val`], converting a value stored in a local to its declared
    /// type `decl`.
    fn assign_val_as(
        &mut self,
        target: &'a hir::Place,
        op: Option<HOp>,
        val: Val,
        decl: Option<(Ty, &blazar_hir::Ty)>,
        span: Span,
    ) -> LR<()> {
        let Var::Local(slot) = target.var else {
            return err(target.span, "kernel code cannot assign top-level variables");
        };
        let cur = self.frame().slots[slot as usize].clone();
        if target.path.is_empty() {
            if let Slot::Output(o) = cur {
                let Some(op) = op else {
                    return err(span, "a kernel output is accumulated with `+=` (or `*=`)");
                };
                let v = expr_of(val, span)?;
                if self.open_outputs {
                    // Host loops: the output holds every value accumulated into it.
                    if let Ty::Scalar(t) = v.ty {
                        let cur = self.k.outputs[o as usize].ty;
                        self.k.outputs[o as usize].ty = crate::infer::join_scalar(cur, t);
                    }
                }
                let out_ty = self.k.outputs[o as usize].ty;
                let aop = atomic_op(op, span)?;
                let (aop, v) = match aop {
                    AtomicOp::Sub => (
                        AtomicOp::Add,
                        Expr::new(
                            K::Unary(blazar_kir::UnOp::Neg, Box::new(cast(v, Ty::Scalar(out_ty)))),
                            Ty::Scalar(out_ty),
                        ),
                    ),
                    a => (a, cast(v, Ty::Scalar(out_ty))),
                };
                self.k.outputs[o as usize].op = aop;
                self.emit(StmtKind::Accumulate {
                    output: o,
                    value: v,
                });
                return Ok(());
            }
            let v = match val {
                Val::E(e) => e,
                Val::Arr(a) if op.is_none() => {
                    self.frame().slots[slot as usize] = Slot::Array(a);
                    return Ok(());
                }
                Val::List(l) if op.is_none() => {
                    self.frame().slots[slot as usize] = Slot::List(l);
                    return Ok(());
                }
                Val::Func(f, c) if op.is_none() => {
                    self.frame().slots[slot as usize] = Slot::Func(f, c);
                    return Ok(());
                }
                Val::Alloc { ty, dims, fill } if op.is_none() => {
                    self.note_type(slot, SlotTy::Alloc(ty), span)?;
                    if let Slot::Array(arr) = self.frame().slots[slot as usize] {
                        let kind = if ty.space == Space::Shared {
                            StmtKind::AllocShared {
                                arr,
                                dims,
                                zero: fill == blazar_kir::Fill::Zero,
                            }
                        } else {
                            StmtKind::AllocLocal { arr, dims, fill }
                        };
                        self.emit(kind);
                    } else if !self.dry {
                        return err(span, "this memory cannot be allocated here");
                    }
                    return Ok(());
                }
                _ => {
                    return err(
                        span,
                        "arrays cannot be combined with in-place operators in kernel code",
                    )
                }
            };
            let v = match op {
                Some(op) => {
                    let old = match self.frame().slots[slot as usize].clone() {
                        Slot::Var(var) => Expr::new(K::Var(var), self.k.vars[var as usize].ty),
                        _ if self.dry => return Err(crate::lower::Fail::Unknown),
                        _ => return err(span, "this variable is updated before it is assigned"),
                    };
                    self.binary(op, old, v, span)?
                }
                None => v,
            };
            let v = match decl {
                Some((t, d)) => self.declared(v, t, d, span)?,
                None => v,
            };
            self.note_type(slot, SlotTy::Val(v.ty), span)?;
            let cur = self.frame().slots[slot as usize].clone();
            match cur {
                Slot::Var(var) => {
                    let t = self.k.vars[var as usize].ty;
                    self.emit(StmtKind::Assign {
                        var,
                        value: cast(v, t),
                    });
                }
                Slot::Special(_) => {
                    return err(
                        span,
                        "`pos`, `blkpos` and the other special parameters cannot be assigned",
                    )
                }
                _ if self.dry => {}
                _ => return err(span, "this variable cannot be assigned here"),
            }
            return Ok(());
        }
        // Through an index: an array element (or vector lane).
        let mut base = cur;
        let mut path = target.path.as_slice();
        if let (Slot::List(l), Some(Access::Index(args))) = (&base, path.first()) {
            let [a] = args.as_slice() else {
                return err(span, "a cell of arrays takes one index");
            };
            let hir::ExprKind::Int(i) = a.kind else {
                return err(
                    a.span,
                    "a cell of arrays in kernel code must be indexed by a constant",
                );
            };
            base = match usize::try_from(i).ok().and_then(|i| l.get(i)) {
                Some(id) => Slot::Array(*id),
                None => return err(a.span, "index out of bounds for the cell"),
            };
            path = &path[1..];
        }
        let [Access::Index(args)] = path else {
            return err(span, "this assignment is not supported in kernel code");
        };
        let v = expr_of(val, span)?;
        match base {
            Slot::Array(arr) => self.store(arr, args, op, v, span),
            Slot::Var(var) => {
                let Ty::Vector(elem, _) = self.k.vars[var as usize].ty else {
                    return err(
                        span,
                        "only arrays and vectors can be assigned through an index",
                    );
                };
                let [a] = args.as_slice() else {
                    return err(span, "a vector takes one index");
                };
                let lane = cast(self.expr(a)?, Ty::I32);
                let v = match op {
                    Some(op) => {
                        let vt = self.k.vars[var as usize].ty;
                        let old = Expr::new(
                            K::Lane(Box::new(Expr::new(K::Var(var), vt)), Box::new(lane.clone())),
                            Ty::Scalar(elem),
                        );
                        self.binary(op, old, v, span)?
                    }
                    None => v,
                };
                self.emit(StmtKind::SetLane {
                    var,
                    lane,
                    value: cast(v, Ty::Scalar(elem)),
                });
                Ok(())
            }
            Slot::Unset if self.dry => Err(crate::lower::Fail::Unknown),
            _ => err(
                span,
                "only arrays and vectors can be assigned through an index",
            ),
        }
    }

    fn store(
        &mut self,
        arr: blazar_kir::ArrId,
        args: &'a [hir::Expr],
        op: Option<HOp>,
        v: Expr,
        span: Span,
    ) -> LR<()> {
        let t = self.arr_ty(arr);
        if t.is_const {
            return err(span, "cannot write to a 'const array");
        }
        let (index, range) = self.index_list(arr, args)?;
        let elem = Ty::Scalar(t.elem);
        let loc = self.loc(span);
        let targets: Vec<(Vec<Expr>, Expr)> = match range {
            None => vec![(index, v)],
            Some((at, items)) => {
                let n = items.len();
                items
                    .into_iter()
                    .enumerate()
                    .map(|(k, r)| {
                        let mut ix = index.clone();
                        ix[at] = Expr::int(r);
                        let lane = match v.ty {
                            Ty::Vector(s, m) if m as usize == n => Expr::new(
                                K::Lane(Box::new(v.clone()), Box::new(Expr::int(k as i64))),
                                Ty::Scalar(s),
                            ),
                            _ => v.clone(),
                        };
                        (ix, lane)
                    })
                    .collect()
            }
        };
        for (index, v) in targets {
            let index = crate::lower_index::fit_rank(arr, t, false, index);
            if matches!(v.ty, Ty::Vector(..)) {
                return err(span, "a vector cannot be stored in one array element");
            }
            match op {
                None => self.emit(StmtKind::Store {
                    arr,
                    index,
                    value: cast(v, elem),
                    at: loc,
                }),
                Some(op) if t.space == Space::Local => {
                    let old = Expr::new(
                        K::Load {
                            arr,
                            index: index.clone(),
                            at: loc,
                        },
                        elem,
                    );
                    let nv = self.binary(op, old, v, span)?;
                    self.emit(StmtKind::Store {
                        arr,
                        index,
                        value: cast(nv, elem),
                        at: loc,
                    });
                }
                Some(op) => {
                    let aop = atomic_op(op, span)?;
                    self.emit(StmtKind::Update {
                        arr,
                        index,
                        op: aop,
                        value: cast(v, elem),
                        at: loc,
                    });
                }
            }
        }
        Ok(())
    }

    pub(crate) fn multi_assign(
        &mut self,
        targets: &'a [hir::Place],
        value: &'a hir::Expr,
        span: Span,
    ) -> LR<()> {
        // Evaluate every value first (so swaps work), into fresh variables.
        let vals: Vec<Expr> = match &value.kind {
            hir::ExprKind::Matrix(items) if items.len() == targets.len() => {
                items.iter().map(|i| self.expr(i)).collect::<LR<Vec<_>>>()?
            }
            _ => {
                let v = self.expr(value)?;
                let Ty::Vector(elem, n) = v.ty else {
                    return err(span, "only a vector can be spread over several targets");
                };
                if n as usize != targets.len() {
                    return err(
                        span,
                        format!("{n} values cannot be assigned to {} targets", targets.len()),
                    );
                }
                (0..n)
                    .map(|i| {
                        Expr::new(
                            K::Lane(Box::new(v.clone()), Box::new(Expr::int(i as i64))),
                            Ty::Scalar(elem),
                        )
                    })
                    .collect()
            }
        };
        let mut temps = Vec::new();
        for v in vals {
            let t = self.new_var("$tmp", v.ty);
            let ty = v.ty;
            self.emit(StmtKind::Assign { var: t, value: v });
            temps.push(Expr::new(K::Var(t), ty));
        }
        for (place, v) in targets.iter().zip(temps) {
            self.assign_val(place, None, Val::E(v), span)?;
        }
        Ok(())
    }
}
