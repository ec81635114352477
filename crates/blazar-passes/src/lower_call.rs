//! Lowering of calls in kernel code: builtins, intrinsics (`shared`, `syncthreads`,
//! `assert`) and device functions, which are inlined with a frame of their own.

use crate::builtins::KBuiltin;
use crate::lower::{err, Frame, Lower, Slot, LR};
use crate::lower_expr::Val;
use crate::lower_math::math;
use crate::lower_math::{cast, int_scalar};
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, FnKind, Intrinsic};
use blazar_kir::{BinOp, Expr, ExprKind as K, Fill, Scalar, Space, StmtKind, Ty, VecReduce};
pub fn builtin<'a>(l: &mut Lower<'a>, b: KBuiltin, args: &'a [hir::Expr], span: Span) -> LR<Val> {
    let e = |l: &mut Lower<'a>, i: usize| l.expr(&args[i]);
    Ok(Val::E(match b {
        KBuiltin::Math(f) => {
            let x = e(l, 0)?;
            let y = if args.len() > 1 { Some(e(l, 1)?) } else { None };
            return math(l, f, x, y, span).map(Val::E);
        }
        KBuiltin::Bin(op) => {
            let (x, y) = (e(l, 0)?, e(l, 1)?);
            let hop = match op {
                BinOp::Pow => Some(hir::BinOp::Pow),
                _ => None,
            };
            if let Some(h) = hop {
                return Ok(Val::E(l.binary(h, x, y, span)?));
            }
            let bit = matches!(
                op,
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr
            );
            let t = match crate::infer::join(x.ty, y.ty) {
                Some(t) => t,
                None => match (x.ty, y.ty) {
                    (Ty::Vector(..), Ty::Scalar(_)) => x.ty,
                    (Ty::Scalar(_), Ty::Vector(..)) => y.ty,
                    _ => return err(span, "the arguments have incompatible types"),
                },
            };
            // Booleans count as the ints 0 and 1 (`max(b, b)`, `mod(b, false)`).
            let t = if bit && !t.elem().is_int() || t.elem() == Scalar::Bool {
                match t {
                    Ty::Vector(_, n) => Ty::Vector(Scalar::I32, n),
                    _ => Ty::I32,
                }
            } else {
                t
            };
            Expr::new(K::Binary(op, Box::new(cast(x, t)), Box::new(cast(y, t))), t)
        }
        KBuiltin::Reduce(r) => {
            let x = e(l, 0)?;
            if !matches!(x.ty, Ty::Vector(..)) {
                return match r {
                    VecReduce::Sum | VecReduce::Prod | VecReduce::Min | VecReduce::Max
                        if matches!(x.ty, Ty::Scalar(_)) =>
                    {
                        Ok(Val::E(x))
                    }
                    _ => err(
                        span,
                        "only fixed-length vectors can be reduced in kernel code",
                    ),
                };
            }
            l.reduce(r, x)
        }
        KBuiltin::Dotprod => {
            let (x, y) = (e(l, 0)?, e(l, 1)?);
            let p = l.binary(hir::BinOp::EMul, x, y, span)?;
            l.reduce(VecReduce::Sum, p)
        }
        KBuiltin::Convert(name) => {
            let x = e(l, 0)?;
            let s = match name {
                "float" => l.float,
                "complex" => l.complex,
                n => int_scalar(hir::IntKind::from_name(n).unwrap_or(hir::IntKind::I32)),
            };
            let t = match x.ty {
                Ty::Vector(_, n) => Ty::Vector(s, n),
                _ => Ty::Scalar(s),
            };
            if matches!(name, "int" | "float" | "complex") {
                cast(x, t)
            } else {
                matlab_int(x, t)
            }
        }
        KBuiltin::Im2Double | KBuiltin::Im2Uint8 => {
            let x = e(l, 0)?;
            return image_convert(l, matches!(b, KBuiltin::Im2Uint8), x, span).map(Val::E);
        }
        KBuiltin::Size => return size(l, args, span),
        KBuiltin::Numel => match l.val(&args[0])? {
            Val::Arr(a) => Expr::new(K::Numel(a), Ty::I32),
            Val::E(x) => match x.ty {
                Ty::Vector(_, n) => Expr::int(n as i64),
                _ => Expr::int(1),
            },
            _ => return err(span, "numel needs an array"),
        },
        KBuiltin::Zeros => return l.alloc(Space::Local, args, Fill::Zero, span),
        KBuiltin::Ones => return l.alloc(Space::Local, args, Fill::One, span),
        KBuiltin::Uninit => return l.alloc(Space::Local, args, Fill::Uninit, span),
        KBuiltin::Clamp | KBuiltin::Saturate => {
            let x = e(l, 0)?;
            let (lo, hi) = if matches!(b, KBuiltin::Clamp) && args.len() == 2 {
                // `clamp(x, hi)` clamps to [0, hi].
                (Expr::int(0), e(l, 1)?)
            } else if matches!(b, KBuiltin::Clamp) {
                (e(l, 1)?, e(l, 2)?)
            } else {
                (Expr::int(0), Expr::int(1))
            };
            let t = crate::infer::join(x.ty, lo.ty)
                .and_then(|t| crate::infer::join(t, hi.ty))
                .unwrap_or(x.ty);
            let lo = Expr::new(
                K::Binary(BinOp::Max, Box::new(cast(x, t)), Box::new(cast(lo, t))),
                t,
            );
            Expr::new(
                K::Binary(BinOp::Min, Box::new(lo), Box::new(cast(hi, t))),
                t,
            )
        }
        KBuiltin::Pos2Ind => {
            let (dims, pos) = (e(l, 0)?, e(l, 1)?);
            let (Ty::Vector(_, n), Ty::Vector(_, m)) = (dims.ty, pos.ty) else {
                return err(span, "pos2ind takes a size vector and a position vector");
            };
            if n != m {
                return err(
                    span,
                    "pos2ind: the size and the position have different lengths",
                );
            }
            let lane = |v: &Expr, i: u8| {
                cast(
                    Expr::new(
                        K::Lane(Box::new(v.clone()), Box::new(Expr::int(i as i64))),
                        Ty::Scalar(v.ty.elem()),
                    ),
                    Ty::I32,
                )
            };
            let mut acc = lane(&pos, 0);
            for i in 1..n {
                let m = Expr::new(
                    K::Binary(BinOp::Mul, Box::new(acc), Box::new(lane(&dims, i))),
                    Ty::I32,
                );
                acc = Expr::new(
                    K::Binary(BinOp::Add, Box::new(m), Box::new(lane(&pos, i))),
                    Ty::I32,
                );
            }
            acc
        }
        KBuiltin::Ind2Pos => {
            let (dims, ind) = (e(l, 0)?, cast(e(l, 1)?, Ty::I32));
            let Ty::Vector(_, n) = dims.ty else {
                return err(span, "ind2pos takes a size vector and an index");
            };
            let lane = |i: u8| {
                cast(
                    Expr::new(
                        K::Lane(Box::new(dims.clone()), Box::new(Expr::int(i as i64))),
                        Ty::Scalar(dims.ty.elem()),
                    ),
                    Ty::I32,
                )
            };
            let mut out = vec![Expr::int(0); n as usize];
            let mut rest = ind;
            for i in (0..n).rev() {
                let d = lane(i);
                out[i as usize] = Expr::new(
                    K::Binary(BinOp::Rem, Box::new(rest.clone()), Box::new(d.clone())),
                    Ty::I32,
                );
                rest = Expr::new(K::Binary(BinOp::Div, Box::new(rest), Box::new(d)), Ty::I32);
            }
            Expr::new(K::VecLit(out), Ty::Vector(Scalar::I32, n))
        }
    }))
}

/// `size(x)`, `size(x, d)`, `size(x, 0..1)` with the host meaning (a vec is 1×N).
fn size<'a>(l: &mut Lower<'a>, args: &'a [hir::Expr], span: Span) -> LR<Val> {
    let a = match l.val(&args[0])? {
        Val::Arr(a) => a,
        Val::E(x) => {
            let n = match x.ty {
                Ty::Vector(_, n) => n as i64,
                _ => 1,
            };
            return Ok(Val::E(Expr::new(
                K::VecLit(vec![Expr::int(1), Expr::int(n)]),
                Ty::Vector(Scalar::I32, 2),
            )));
        }
        _ => return err(span, "size needs an array"),
    };
    let rank = l.arr_ty(a).rank;
    let logical = rank.max(2);
    let dim = move |d: i64| -> Expr {
        // A vec has logical size [1, N].
        if rank == 1 {
            match d {
                1 => Expr::new(K::Size { arr: a, dim: 0 }, Ty::I32),
                _ => Expr::int(1),
            }
        } else if d < 0 || d >= rank as i64 {
            Expr::int(1)
        } else {
            Expr::new(
                K::Size {
                    arr: a,
                    dim: d as u8,
                },
                Ty::I32,
            )
        }
    };
    let dims: Vec<i64> = match args.get(1) {
        None => (0..logical as i64).collect(),
        Some(d) if matches!(d.kind, hir::ExprKind::Range { .. }) => l.const_range(d)?,
        Some(d) => match d.kind {
            hir::ExprKind::Int(v) => return Ok(Val::E(dim(v))),
            _ => {
                return err(
                    d.span,
                    "the dimension of `size` in kernel code must be a constant",
                )
            }
        },
    };
    let n = dims.len() as u8;
    Ok(Val::E(Expr::new(
        K::VecLit(dims.into_iter().map(dim).collect()),
        Ty::Vector(Scalar::I32, n),
    )))
}

impl<'a> Lower<'a> {
    pub fn intrinsic_call(&mut self, i: Intrinsic, args: &'a [hir::Expr], span: Span) -> LR<Val> {
        match i {
            Intrinsic::Shared => self.alloc(Space::Shared, args, Fill::Uninit, span),
            Intrinsic::SharedZeros => self.alloc(Space::Shared, args, Fill::Zero, span),
            Intrinsic::Syncthreads => {
                self.emit(StmtKind::Barrier);
                Ok(Val::E(Expr::boolean(true)))
            }
            Intrinsic::Assert => {
                if args.is_empty() || args.len() > 2 {
                    return err(
                        span,
                        format!("`assert` takes 1 to 2 arguments, got {}", args.len()),
                    );
                }
                let c = crate::lower_math::cond_bool(self.expr(&args[0])?, args[0].span)?;
                self.emit(StmtKind::Assert { cond: c });
                Ok(Val::E(Expr::boolean(true)))
            }
            _ => err(span, "this function cannot be used in kernel code"),
        }
    }

    /// Inlines a call of device function `f` with captured `caps`.
    pub fn inline_call(
        &mut self,
        f: hir::FnId,
        caps: Vec<Slot>,
        args: &'a [hir::Expr],
        span: Span,
    ) -> LR<Val> {
        if caps.is_empty() && self.real_call_of(f) {
            return self.real_call(f, args, span);
        }
        let func = &self.env.prog.functions[f as usize];
        if func.kind == FnKind::Kernel {
            return err(
                span,
                format!("kernel `{}` cannot be called from kernel code", func.name),
            );
        }
        if self.frames.iter().any(|fr| fr.func == f) || self.frames.len() > 32 {
            return err(
                span,
                format!(
                    "`{}` calls itself; kernel and device functions cannot be recursive",
                    func.name
                ),
            );
        }
        if args.len() > func.params.len() {
            return err(
                span,
                format!(
                    "`{}` takes {} arguments, got {}",
                    func.name,
                    func.params.len(),
                    args.len()
                ),
            );
        }
        let mut slots = vec![Slot::Unset; func.n_locals as usize];
        for (slot, c) in func.capture_slots.iter().zip(caps) {
            slots[*slot as usize] = c;
        }
        let mut inits = Vec::new();
        for (p, a) in func.params.iter().zip(args) {
            match self.val(a)? {
                Val::E(x) => {
                    let ty = match &p.ty {
                        Some(ann) => self.hir_ty(&ann.ty, p.span)?.unwrap_or(x.ty),
                        None => x.ty,
                    };
                    let ty = match (ty, x.ty) {
                        (Ty::Scalar(s), Ty::Vector(_, n)) => Ty::Vector(s, n),
                        _ => ty,
                    };
                    let v = self.new_var(&p.name, ty);
                    inits.push((v, cast(x, ty)));
                    slots[p.slot as usize] = Slot::Var(v);
                }
                // Access modifiers written on a device function's parameters do not
                // change the kernel argument's boundary handling (KIR has one mode per
                // array); reads inside the array are the same under every mode.
                Val::Arr(id) => slots[p.slot as usize] = Slot::Array(id),
                Val::List(ids) => slots[p.slot as usize] = Slot::List(ids),
                Val::Func(g, c) => slots[p.slot as usize] = Slot::Func(g, c),
                Val::Alloc { .. } => {
                    return err(a.span, "allocate memory into a variable before passing it")
                }
            }
        }
        if args.len() < func.params.len() {
            return err(
                span,
                format!(
                    "`{}` takes {} arguments, got {}",
                    func.name,
                    func.params.len(),
                    args.len()
                ),
            );
        }
        for (v, x) in inits {
            self.emit(StmtKind::Assign { var: v, value: x });
        }
        let tys = vec![None; slots.len()];
        let depth = self.loops + 1;
        self.frames.push(Frame {
            func: f,
            slots,
            tys,
            ret_depth: Some(depth),
        });
        let saved_loops = self.loops;
        let (saved_line, saved_span) = (self.line, self.span);
        self.loops = depth;
        let body = self.lower_body(&func.body);
        let result = match (&body, &func.result) {
            (Ok(_), Some(r)) => {
                let (pre, v) = self.capture(|l| l.expr(r));
                v.map(|v| (pre, Some(v)))
            }
            _ => Ok((Vec::new(), None)),
        };
        self.loops = saved_loops;
        // Statements after the call belong to the caller's line.
        (self.line, self.span) = (saved_line, saved_span);
        let frame = self.frames.pop().expect("pushed above");
        let mut body = body?;
        let (pre, value) = result?;
        body.extend(pre);
        // The body runs inside a one-trip loop so that `return` can leave it.
        body.push(blazar_kir::Stmt {
            kind: StmtKind::Break(0),
            line: self.line,
        });
        self.emit(StmtKind::While {
            cond: Expr::boolean(true),
            body,
        });
        if let Some(v) = value {
            return Ok(Val::E(v));
        }
        match func.outputs.first() {
            Some(o) => match frame.slots.get(o.slot as usize) {
                Some(Slot::Var(v)) => {
                    Ok(Val::E(Expr::new(K::Var(*v), self.k.vars[*v as usize].ty)))
                }
                Some(Slot::Array(a)) => Ok(Val::Arr(*a)),
                _ if self.dry => Err(crate::lower::Fail::Unknown),
                _ => err(
                    span,
                    format!("output `{}` of `{}` is never assigned", o.name, func.name),
                ),
            },
            None => Ok(Val::E(Expr::boolean(true))),
        }
    }
}

/// `im2double(x)` and `im2uint8(x)` of a kernel value, as the host's (blazar-runtime's
/// `math::convert`): an int image type's stored range maps to [0, 1] (`uint8` / 255,
/// `uint16` / 65535, `int16` shifted by 32768 then / 65535); reals are taken to be in
/// [0, 1] already; `im2uint8` scales [0, 1] to 0..255, rounding halves away from zero
/// and saturating.
fn image_convert(l: &Lower, to_uint8: bool, x: Expr, span: Span) -> LR<Expr> {
    let name = if to_uint8 { "im2uint8" } else { "im2double" };
    let from = x.ty.elem();
    let (off, scale) = match from {
        Scalar::U8 => (0.0, 255.0),
        Scalar::U16 => (0.0, 65535.0),
        Scalar::I16 => (32768.0, 65535.0),
        s if s.is_float() => (0.0, 1.0),
        _ => {
            return err(
                span,
                format!("{name}: expected a uint8, uint16, int16 or real image value"),
            )
        }
    };
    let xty = x.ty;
    let shaped = |s: Scalar| match xty {
        Ty::Vector(_, n) => Ty::Vector(s, n),
        _ => Ty::Scalar(s),
    };
    if to_uint8 && from == Scalar::U8 {
        return Ok(x);
    }
    let ft = shaped(l.float);
    let c = |v: f64| {
        cast(
            Expr::new(K::Const(blazar_kir::Const::Float(v)), Ty::Scalar(l.float)),
            ft,
        )
    };
    let mut v = cast(x, ft);
    if off != 0.0 {
        v = Expr::new(K::Binary(BinOp::Add, Box::new(v), Box::new(c(off))), ft);
    }
    // As the host computes it: (x + off) * 255 / scale to uint8, (x + off) / scale to reals.
    if to_uint8 {
        v = Expr::new(K::Binary(BinOp::Mul, Box::new(v), Box::new(c(255.0))), ft);
    }
    if scale != 1.0 {
        v = Expr::new(K::Binary(BinOp::Div, Box::new(v), Box::new(c(scale))), ft);
    }
    Ok(if to_uint8 {
        matlab_int(v, shaped(Scalar::U8))
    } else {
        v
    })
}

/// MATLAB's conversion to the int type `t` (`int8(x)` .. `uint64(x)`), as the host's
/// (`blazar-runtime`'s `convert`): reals round halves away from zero, then the cast
/// saturates (NaN gives 0); ints saturate, clamped in their own type first.
fn matlab_int(x: Expr, t: Ty) -> Expr {
    let from = x.ty.elem();
    if from.is_float() {
        let ty = x.ty;
        return cast(
            Expr::new(K::Math(blazar_ops::MathFn::Round, vec![x]), ty),
            t,
        );
    }
    if !from.is_int() {
        return cast(x, t);
    }
    let (Some((fl, fh)), Some((tl, th))) = (from.int_range(), t.elem().int_range()) else {
        return cast(x, t);
    };
    let (lo, hi) = (fl.max(tl), fh.min(th));
    let ty = x.ty;
    let konst = |v: i128| {
        cast(
            Expr::new(K::Const(blazar_kir::Const::Int(v as i64)), Ty::Scalar(from)),
            ty,
        )
    };
    let mut e = x;
    if lo > fl {
        e = Expr::new(K::Binary(BinOp::Max, Box::new(e), Box::new(konst(lo))), ty);
    }
    if hi < fh {
        e = Expr::new(K::Binary(BinOp::Min, Box::new(e), Box::new(konst(hi))), ty);
    }
    cast(e, t)
}
