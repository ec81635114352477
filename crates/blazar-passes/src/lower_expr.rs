//! Lowering of kernel expressions: literals, variables, operators with numeric
//! promotion, indexing (positions, vector loads), builtins and inlined device calls.

use crate::builtins::classify;
use crate::infer::arith_scalar;
use crate::lower::{err, expr_of, Fail, Lower, Slot, LR};
use crate::lower_math::{cast, cond_bool, to_bool, with_elem};
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, Callee, ExprKind as H, Var};
use blazar_kir::{
    ArrId, ArrayTy, BinOp, Const, Expr, ExprKind as K, Fill, ReadMode, Scalar, Space, Ty, UnOp,
    VecReduce, WriteMode,
};

/// The value of a kernel expression.
pub enum Val {
    E(Expr),
    Arr(ArrId),
    List(Vec<ArrId>),
    Func(hir::FnId, Vec<Slot>),
    /// `shared(...)`, `zeros(...)`: memory to allocate into the assigned variable.
    Alloc {
        ty: ArrayTy,
        dims: Vec<Expr>,
        fill: Fill,
    },
}

impl<'a> Lower<'a> {
    pub fn expr(&mut self, e: &'a hir::Expr) -> LR<Expr> {
        let v = self.val(e)?;
        expr_of(v, e.span)
    }

    pub fn val(&mut self, e: &'a hir::Expr) -> LR<Val> {
        let span = e.span;
        Ok(Val::E(match &e.kind {
            H::Int(v) => Expr::int(*v),
            H::Real(v) => Expr::new(K::Const(Const::Float(*v)), Ty::Scalar(self.float)),
            H::Imag(v) => Expr::new(K::Const(Const::Complex(0.0, *v)), Ty::Scalar(self.complex)),
            H::Str(_) => return err(span, "strings cannot be used in kernel code"),
            H::Var(Var::Local(s)) => return self.read_slot(*s, span),
            H::Var(Var::Global(_)) => {
                return err(
                    span,
                    "kernel code cannot read top-level variables; pass the value as an argument",
                )
            }
            H::Closure { func, captures } => {
                let slots = captures
                    .iter()
                    .map(|v| match v {
                        Var::Local(s) => Ok(self.frame().slots[*s as usize].clone()),
                        Var::Global(_) => {
                            err(span, "kernel code cannot capture top-level variables")
                        }
                    })
                    .collect::<LR<Vec<_>>>()?;
                return Ok(Val::Func(*func, slots));
            }
            H::FuncValue(Callee::Group(g)) => {
                let f = self.env.prog.groups[*g as usize].members[0];
                return Ok(Val::Func(f, vec![]));
            }
            H::FuncValue(_) | H::TypeValue(_) => {
                return err(
                    span,
                    "this function cannot be used as a value in kernel code",
                )
            }
            H::Convert(x, a) => match &a.ty {
                hir::Ty::Scalar | hir::Ty::CScalar | hir::Ty::Int(_) => {
                    let v = self.expr(x)?;
                    match self.hir_ty(&a.ty, span)? {
                        Some(ty) => {
                            let t = with_elem(v.ty, ty.elem());
                            cast(v, t)
                        }
                        None => v,
                    }
                }
                _ => return self.val(x),
            },
            H::Colon => {
                return err(
                    span,
                    "`:` in kernel code is only allowed as an index of an array",
                )
            }
            H::Unary(op, a) => {
                let x = self.expr(a)?;
                match op {
                    hir::UnOp::Neg => {
                        // `-b` of a boolean value is the int -1 or 0, as in host code;
                        // of a comparison or logical result, which host code holds as
                        // a scalar 0 or 1, the scalar -1 or -0 (so `1 / -(a < b)` is
                        // -Inf in both).
                        let x = if x.ty.elem() == Scalar::Bool && host_scalar_truth(a) {
                            let t = match x.ty {
                                Ty::Vector(_, n) => Ty::Vector(self.float, n),
                                _ => Ty::Scalar(self.float),
                            };
                            cast(x, t)
                        } else {
                            crate::lower_math::unbool(x)
                        };
                        let t = x.ty;
                        Expr::new(K::Unary(UnOp::Neg, Box::new(x)), t)
                    }
                    hir::UnOp::Not => {
                        let b = to_bool(x);
                        let t = b.ty;
                        Expr::new(K::Unary(UnOp::Not, Box::new(b)), t)
                    }
                }
            }
            H::Binary(op @ (hir::BinOp::And | hir::BinOp::Or), a, b) if self.calls.is_some() => {
                let x = self.expr(a)?;
                let (pre, y) = self.capture(|l| l.expr(b));
                let y = y?;
                if !Self::holds_call(&pre) {
                    if let Some(o) = self.out.last_mut() {
                        o.extend(pre);
                    }
                    self.binary(*op, x, y, span)?
                } else {
                    return self.short_circuit(*op == hir::BinOp::And, x, pre, y, span);
                }
            }
            H::Binary(op, a, b) => {
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                self.binary(*op, x, y, span)?
            }
            H::Ternary(c, a, b) if self.calls.is_some() => {
                let c = cond_bool(self.expr(c)?, c.span)?;
                let (pa, x) = self.capture(|l| l.expr(a));
                let (pb, y) = self.capture(|l| l.expr(b));
                let (x, y) = (x?, y?);
                let t = crate::infer::join(x.ty, y.ty).ok_or_else(|| {
                    Fail::Error(blazar_diagnostics::Diagnostic::error(
                        span,
                        "the branches of `? :` have different types",
                    ))
                })?;
                if Self::holds_call(&pa) || Self::holds_call(&pb) {
                    // Only the branch the condition picks runs its calls.
                    return self.choose(c, (pa, cast(x, t)), (pb, cast(y, t)), t);
                }
                if let Some(o) = self.out.last_mut() {
                    o.extend(pa);
                    o.extend(pb);
                }
                Expr::new(
                    K::Select(Box::new(c), Box::new(cast(x, t)), Box::new(cast(y, t))),
                    t,
                )
            }
            H::Ternary(c, a, b) => {
                let c = cond_bool(self.expr(c)?, c.span)?;
                let x = self.expr(a)?;
                let y = self.expr(b)?;
                let t = crate::infer::join(x.ty, y.ty).ok_or_else(|| {
                    Fail::Error(blazar_diagnostics::Diagnostic::error(
                        span,
                        "the branches of `? :` have different types",
                    ))
                })?;
                Expr::new(
                    K::Select(Box::new(c), Box::new(cast(x, t)), Box::new(cast(y, t))),
                    t,
                )
            }
            H::Range { .. } => {
                let items = self.const_range(e)?;
                let n = items.len() as u8;
                Expr::new(
                    K::VecLit(items.into_iter().map(Expr::int).collect()),
                    Ty::Vector(Scalar::I32, n),
                )
            }
            H::Matrix(items) => {
                let xs = items.iter().map(|i| self.expr(i)).collect::<LR<Vec<_>>>()?;
                self.vec_lit(xs, span)?
            }
            H::Cell(_) => return err(span, "cell arrays cannot be built in kernel code"),
            H::Field { .. } => return err(span, "objects cannot be used in kernel code"),
            H::Index { base, args } => return self.index(base, args, span),
            H::Call { callee, args } => return self.call(callee, args, span),
        }))
    }

    fn read_slot(&mut self, s: u32, span: Span) -> LR<Val> {
        let slot = self
            .frame()
            .slots
            .get(s as usize)
            .cloned()
            .unwrap_or(Slot::Unset);
        Ok(match slot {
            Slot::Var(v) => Val::E(Expr::new(K::Var(v), self.k.vars[v as usize].ty)),
            Slot::Array(a) => Val::Arr(a),
            Slot::List(l) => Val::List(l),
            Slot::Func(f, c) => Val::Func(f, c),
            Slot::Special(sp) => Val::E(Expr::new(K::Special(sp), self.special_ty(sp))),
            Slot::Output(_) => {
                return err(span, "a kernel output can only be accumulated (`y += ...`)")
            }
            Slot::Unset => {
                if self.dry {
                    return Err(Fail::Unknown);
                }
                let func = self.frame().func;
                let name = self.env.prog.functions[func as usize]
                    .local_names
                    .get(s as usize)
                    .cloned()
                    .unwrap_or_default();
                return err(
                    span,
                    format!("variable `{name}` is used before it is assigned"),
                );
            }
        })
    }

    /// `[a, b, c]` in kernel code: a fixed-length vector.
    pub fn vec_lit(&mut self, xs: Vec<Expr>, span: Span) -> LR<Expr> {
        if xs.is_empty() || xs.len() > 32 {
            return err(span, "a vector in kernel code has 1 to 32 elements");
        }
        let mut elem = Scalar::Bool;
        for x in &xs {
            match x.ty {
                Ty::Scalar(s) => elem = crate::infer::join_scalar(elem, s),
                _ => return err(span, "a vector literal in kernel code holds scalars only"),
            }
        }
        if elem == Scalar::Bool {
            elem = Scalar::I32;
        }
        let n = xs.len() as u8;
        let items = xs.into_iter().map(|x| cast(x, Ty::Scalar(elem))).collect();
        Ok(Expr::new(K::VecLit(items), Ty::Vector(elem, n)))
    }

    /// The elements of a range with constant bounds (`0..2`).
    pub fn const_range(&mut self, e: &hir::Expr) -> LR<Vec<i64>> {
        let H::Range { start, step, end } = &e.kind else {
            return err(e.span, "expected a range");
        };
        let c = |x: &hir::Expr| match x.kind {
            H::Int(v) => Some(v),
            H::Unary(hir::UnOp::Neg, ref a) => match a.kind {
                H::Int(v) => Some(-v),
                _ => None,
            },
            _ => None,
        };
        let (Some(a), Some(b)) = (c(start), c(end)) else {
            return err(
                e.span,
                "a range in kernel code needs constant bounds (such as 0..2)",
            );
        };
        let s = match step {
            Some(s) => c(s).ok_or_else(|| {
                Fail::Error(blazar_diagnostics::Diagnostic::error(
                    e.span,
                    "a range in kernel code needs a constant step",
                ))
            })?,
            None => 1,
        };
        if s == 0 {
            return err(e.span, "the step of a range cannot be zero");
        }
        let mut out = Vec::new();
        let mut i = a;
        while (s > 0 && i <= b) || (s < 0 && i >= b) {
            out.push(i);
            if out.len() > 32 {
                return err(e.span, "a range in kernel code has at most 32 elements");
            }
            i += s;
        }
        Ok(out)
    }

    pub fn binary(&mut self, op: hir::BinOp, x: Expr, y: Expr, span: Span) -> LR<Expr> {
        use hir::BinOp as O;
        let (ex, ey) = (x.ty.elem(), y.ty.elem());
        let shape = match (x.ty, y.ty) {
            (Ty::Vector(_, n), Ty::Vector(_, m)) if n != m => {
                return err(
                    span,
                    format!("cannot combine vectors of lengths {n} and {m}"),
                )
            }
            (Ty::Vector(_, n), _) | (_, Ty::Vector(_, n)) => Some(n),
            (Ty::Array(_), _) | (_, Ty::Array(_)) => {
                return err(
                    span,
                    "whole-array arithmetic is not available in kernel code; index the arrays",
                )
            }
            _ => None,
        };
        let shaped = |s: Scalar| match shape {
            Some(n) => Ty::Vector(s, n),
            None => Ty::Scalar(s),
        };
        let kop = match op {
            O::Add => BinOp::Add,
            O::Sub => BinOp::Sub,
            O::Mul | O::EMul => BinOp::Mul,
            O::Div | O::EDiv => BinOp::Div,
            O::Pow | O::EPow => BinOp::Pow,
            O::Eq => BinOp::Eq,
            O::Ne => BinOp::Ne,
            O::Lt => BinOp::Lt,
            O::Gt => BinOp::Gt,
            O::Le => BinOp::Le,
            O::Ge => BinOp::Ge,
            O::And => BinOp::And,
            O::Or => BinOp::Or,
        };
        if matches!(kop, BinOp::And | BinOp::Or) {
            // Element-wise on vectors; a scalar operand is the same on every lane.
            let t = shaped(Scalar::Bool);
            let (a, b) = (cast(to_bool(x), t), cast(to_bool(y), t));
            return Ok(Expr::new(K::Binary(kop, Box::new(a), Box::new(b)), t));
        }
        let real = matches!(kop, BinOp::Div | BinOp::Pow);
        let elem = arith_scalar(ex, ey, real, self.float);
        let t = shaped(elem);
        let intlike = |s: Scalar| s.is_int() || s == Scalar::Bool;
        if real && elem == Scalar::F32 && intlike(ex) && intlike(ey) {
            // `int / int` and `int ^ int` as on the host: in f64 (exact for ints up to
            // 2^53), rounded once to the real type (ints converted to f32 first round).
            let w = shaped(Scalar::F64);
            let (a, b) = (cast(x, w), cast(y, w));
            return Ok(cast(
                Expr::new(K::Binary(kop, Box::new(a), Box::new(b)), w),
                t,
            ));
        }
        let (mut a, mut b) = (cast(x, t), cast(y, t));
        if elem.is_complex() && matches!(kop, BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge) {
            // Ordered comparisons of complex values compare real parts, as in host code.
            let r = shaped(elem.real_part());
            a = Expr::new(K::Math(blazar_kir::MathFn::Real, vec![a]), r);
            b = Expr::new(K::Math(blazar_kir::MathFn::Real, vec![b]), r);
        }
        let rt = if kop.is_comparison() {
            shaped(Scalar::Bool)
        } else {
            t
        };
        Ok(Expr::new(K::Binary(kop, Box::new(a), Box::new(b)), rt))
    }

    fn call(&mut self, callee: &'a Callee, args: &'a [hir::Expr], span: Span) -> LR<Val> {
        match callee {
            Callee::Intrinsic(i) => self.intrinsic_call(*i, args, span),
            Callee::Builtin(b) => {
                let name = (self.env.builtin_name)(*b);
                self.builtin_call(name, args, span)
            }
            Callee::TypeCtor(t) => {
                let [a] = args else {
                    return err(span, "a conversion takes one argument");
                };
                let x = self.expr(a)?;
                match self.hir_ty(t, span)? {
                    Some(ty) => {
                        let t = with_elem(x.ty, ty.elem());
                        Ok(Val::E(cast(x, t)))
                    }
                    None => err(span, format!("{t} cannot be constructed in kernel code")),
                }
            }
            Callee::Group(g) => {
                let f = self.env.prog.groups[*g as usize].members[0];
                self.inline_call(f, vec![], args, span)
            }
            Callee::Nested { func, captures } => {
                let slots = captures
                    .iter()
                    .map(|v| match v {
                        Var::Local(s) => Ok(self.frame().slots[*s as usize].clone()),
                        Var::Global(_) => {
                            err(span, "kernel code cannot capture top-level variables")
                        }
                    })
                    .collect::<LR<Vec<_>>>()?;
                self.inline_call(*func, slots, args, span)
            }
            Callee::SelfCall(f)
                if self.calls.is_some()
                    && self.env.prog.functions[*f as usize].kind == hir::FnKind::Host =>
            {
                self.real_call(*f, args, span)
            }
            Callee::SelfCall(f) => {
                let name = &self.env.prog.functions[*f as usize].name;
                err(
                    span,
                    format!(
                        "`{name}` calls itself; kernel and device functions cannot be recursive"
                    ),
                )
            }
            Callee::Value(e) => match self.val(e)? {
                Val::Func(f, caps) => self.inline_call(f, caps, args, span),
                _ => err(span, "only device functions can be called in kernel code"),
            },
            Callee::Class(_) => err(span, "objects cannot be created in kernel code"),
        }
    }

    fn builtin_call(&mut self, name: &str, args: &'a [hir::Expr], span: Span) -> LR<Val> {
        let Some(b) = classify(name, args.len()) else {
            return err(
                span,
                format!(
                    "`{name}` cannot be used in kernel code (with {} arguments)",
                    args.len()
                ),
            );
        };
        crate::lower_call::builtin(self, b, args, span)
    }

    pub fn reduce(&mut self, r: VecReduce, x: Expr) -> Expr {
        // Comparisons give bool vectors; reducing them counts (`sum(pos < n)`).
        let x = match x.ty {
            Ty::Vector(Scalar::Bool, n) => cast(x, Ty::Vector(Scalar::I32, n)),
            _ => x,
        };
        // Sums of ints add in 64 bits as the host's `sum` does (int64; uint64 stays).
        let x = match x.ty {
            Ty::Vector(s, n) if r == VecReduce::Sum && s.is_int() && s != Scalar::U64 => {
                cast(x, Ty::Vector(Scalar::I64, n))
            }
            _ => x,
        };
        let t = Ty::Scalar(x.ty.elem());
        Expr::new(K::VecReduce(r, Box::new(x)), t)
    }

    pub fn alloc(
        &mut self,
        space: Space,
        args: &'a [hir::Expr],
        fill: Fill,
        span: Span,
    ) -> LR<Val> {
        let mut dims = Vec::new();
        for a in args {
            let x = self.expr(a)?;
            match x.ty {
                Ty::Vector(_, n) => {
                    for i in 0..n {
                        dims.push(cast(
                            Expr::new(
                                K::Lane(Box::new(x.clone()), Box::new(Expr::int(i as i64))),
                                Ty::Scalar(x.ty.elem()),
                            ),
                            Ty::I32,
                        ));
                    }
                }
                _ => dims.push(cast(x, Ty::I32)),
            }
        }
        if dims.is_empty() || dims.len() > 4 {
            return err(span, "memory in kernel code has 1 to 4 dimensions");
        }
        let ty = ArrayTy {
            elem: self.float,
            rank: dims.len() as u8,
            read: ReadMode::Zero,
            write: WriteMode::Skip,
            is_const: false,
            space,
        };
        Ok(Val::Alloc { ty, dims, fill })
    }
}

/// Whether host code gives `e` as a scalar 0 or 1 where kernel code has a boolean: a
/// comparison, `&&`, `||` or `!` (a boolean variable or literal stays a boolean).
fn host_scalar_truth(e: &hir::Expr) -> bool {
    use hir::BinOp as O;
    match &e.kind {
        H::Binary(O::Eq | O::Ne | O::Lt | O::Gt | O::Le | O::Ge | O::And | O::Or, ..) => true,
        H::Unary(hir::UnOp::Not, _) => true,
        _ => false,
    }
}
