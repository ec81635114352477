//! Expressions: one Cranelift value per vector lane; the scalar semantics of
//! `blazar_ops::scalar` spelled in Cranelift instructions, and calls of the host's
//! functions where an instruction would round differently (`helpers`).

use crate::gen::{args, cty, Gen};
use crate::helpers;
use blazar_kir::{
    BinOp, Const, Expr, ExprKind, MathFn, ReadMode, Scalar, Special, Ty, UnOp, VecReduce,
};
use blazar_launch::KValue;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F64, I32, I64, I8};
use cranelift_codegen::ir::{InstBuilder, Value};

/// The bits of an int constant of type `s` (masked to its width).
fn int_bits(v: i64, s: Scalar) -> i64 {
    match s.size() {
        1 => v as u8 as i64,
        2 => v as u16 as i64,
        4 => v as u32 as i64,
        _ => v,
    }
}

impl Gen<'_, '_> {
    /// Whether evaluating `e` may read a `'checked` array (such operands of `&&`,
    /// `||` and `?:` run only when C would run them, as in the interpreter).
    fn has_checked_load(&self, e: &Expr) -> bool {
        let sub = |x: &Expr| self.has_checked_load(x);
        match &e.kind {
            ExprKind::Load { arr, index, .. } => {
                matches!(
                    self.k.arrays.get(*arr as usize).map(|a| a.ty),
                    Some(Ty::Array(t)) if t.read == ReadMode::Checked
                ) || index.iter().any(sub)
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

    /// A constant as the interpreter fills a register of type `s` with it.
    pub fn konst(&mut self, c: &Const, s: Scalar) -> Value {
        let kv = match *c {
            Const::Bool(b) => KValue::Bool(b),
            Const::Int(i) => KValue::Int(i),
            Const::Float(f) => KValue::Float(f),
            Const::Complex(re, im) => KValue::Complex(re, im),
        };
        match s {
            Scalar::F32 => self.b.ins().f32const(kv.as_f64() as f32),
            Scalar::F64 | Scalar::C32 | Scalar::C64 => self.b.ins().f64const(kv.as_f64()),
            Scalar::Bool => self.b.ins().iconst(I8, (kv.as_i64() != 0) as i64),
            s => self.b.ins().iconst(cty(s), int_bits(kv.as_i64(), s)),
        }
    }

    pub fn zero(&mut self, s: Scalar) -> Value {
        self.konst(&Const::Int(0), s)
    }

    /// `e`, which must be one scalar.
    pub fn scalar(&mut self, e: &Expr) -> Result<Value, String> {
        match self.expr(e)?[..] {
            [x] => Ok(x),
            _ => Err("a vector where a scalar was expected".into()),
        }
    }

    /// An int value of type `s` as i64 (sign- or zero-extended).
    pub fn widen(&mut self, v: Value, s: Scalar) -> Result<Value, String> {
        if !s.is_int() {
            return Err(format!("an index of type {}", s.name()));
        }
        Ok(match (s.size(), s.is_signed()) {
            (8, _) => v,
            (_, true) => self.b.ins().sextend(I64, v),
            (_, false) => self.b.ins().uextend(I64, v),
        })
    }

    pub fn expr(&mut self, e: &Expr) -> Result<Vec<Value>, String> {
        let s = e.ty.elem();
        Ok(match &e.kind {
            ExprKind::Const(c) => vec![self.konst(c, s)],
            ExprKind::Var(v) => {
                let vs = self.vars.get(*v as usize).cloned().unwrap_or_default();
                vs.into_iter().map(|x| self.b.use_var(x)).collect()
            }
            ExprKind::Special(sp) => self.special(*sp, e.ty)?,
            ExprKind::Unary(op, a) => {
                let sa = a.ty.elem();
                let xs = self.expr(a)?;
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    out.push(self.unop(*op, sa, x)?);
                }
                out
            }
            ExprKind::Binary(op, a, b) => {
                let sa = a.ty.elem();
                if matches!(op, BinOp::And | BinOp::Or)
                    && a.ty.scalar().is_some()
                    && self.has_checked_load(b)
                {
                    return Ok(vec![self.lazy_logic(*op, a, b)?]);
                }
                let xs = self.expr(a)?;
                let ys = self.expr(b)?;
                if xs.len() != ys.len() || b.ty.elem() != sa {
                    return Err("binary operands of different types".into());
                }
                let mut out = Vec::with_capacity(xs.len());
                for (x, y) in xs.into_iter().zip(ys) {
                    out.push(self.binop(*op, sa, x, y)?);
                }
                out
            }
            ExprKind::Cast(a) => {
                let from = a.ty.elem();
                let xs = self.expr(a)?;
                xs.into_iter().map(|x| self.cast(x, from, s)).collect()
            }
            ExprKind::Select(c, a, b) => {
                if c.ty.scalar().is_some() && (self.has_checked_load(a) || self.has_checked_load(b))
                {
                    return self.lazy_select(c, a, b);
                }
                let cs = self.expr(c)?;
                let xs = self.expr(a)?;
                let ys = self.expr(b)?;
                if xs.len() != ys.len() || (cs.len() != 1 && cs.len() != xs.len()) {
                    return Err("select operands of different lengths".into());
                }
                (0..xs.len())
                    .map(|i| {
                        let c = cs[if cs.len() == 1 { 0 } else { i }];
                        self.b.ins().select(c, xs[i], ys[i])
                    })
                    .collect()
            }
            ExprKind::Math(f, fargs) => {
                let sa = fargs
                    .first()
                    .ok_or("math function without arguments")?
                    .ty
                    .elem();
                let xs = self.expr(&fargs[0])?;
                let ys = match fargs.get(1) {
                    Some(b) => Some(self.expr(b)?),
                    None => None,
                };
                let mut out = Vec::with_capacity(xs.len());
                for (i, x) in xs.iter().enumerate() {
                    let y = ys.as_ref().map(|ys| ys[i]);
                    out.push(self.math(*f, sa, *x, y)?);
                }
                out
            }
            ExprKind::Load { arr, index, at } => {
                let idx = self.index_values(index)?;
                vec![self.load(e as *const Expr as usize, *arr, &idx, *at)?]
            }
            ExprKind::Size { arr, dim } => {
                let a = self
                    .arrs
                    .get(*arr as usize)
                    .cloned()
                    .flatten()
                    .ok_or("size of an unbound array")?;
                let v = match a.dims.get(*dim as usize) {
                    Some(&d) => self.b.ins().ireduce(I32, d),
                    None => self.b.ins().iconst(I32, 1),
                };
                vec![v]
            }
            ExprKind::Numel(arr) => {
                let a = self
                    .arrs
                    .get(*arr as usize)
                    .cloned()
                    .flatten()
                    .ok_or("numel of an unbound array")?;
                let mut p = self.b.ins().iconst(I64, 1);
                for d in a.dims {
                    p = self.b.ins().imul(p, d);
                }
                vec![self.b.ins().ireduce(I32, p)]
            }
            ExprKind::VecLit(es) => {
                let mut out = Vec::new();
                for x in es {
                    out.extend(self.expr(x)?);
                }
                out
            }
            ExprKind::Splat(a) => {
                let x = self.scalar(a)?;
                match e.ty {
                    Ty::Vector(_, n) => vec![x; n as usize],
                    _ => vec![x],
                }
            }
            ExprKind::Lane(v, i) => {
                let xs = self.expr(v)?;
                let sv = v.ty.elem();
                if let ExprKind::Const(Const::Int(k)) = i.kind {
                    match usize::try_from(k).ok().and_then(|k| xs.get(k)) {
                        Some(&x) => vec![x],
                        None => vec![self.zero(sv)],
                    }
                } else {
                    let ix = self.scalar(i)?;
                    let ix = self.widen(ix, i.ty.elem())?;
                    let mut acc = self.zero(sv);
                    for (k, x) in xs.into_iter().enumerate() {
                        let hit = self.b.ins().icmp_imm(IntCC::Equal, ix, k as i64);
                        acc = self.b.ins().select(hit, x, acc);
                    }
                    vec![acc]
                }
            }
            ExprKind::VecReduce(r, a) => {
                let sa = a.ty.elem();
                let xs = self.expr(a)?;
                let op = match r {
                    VecReduce::Sum => BinOp::Add,
                    VecReduce::Prod => BinOp::Mul,
                    VecReduce::Min => BinOp::Min,
                    VecReduce::Max => BinOp::Max,
                };
                let (&first, rest) = xs.split_first().ok_or("reduction of an empty vector")?;
                let mut acc = first;
                for &x in rest {
                    acc = self.binop(op, sa, acc, x)?;
                }
                vec![acc]
            }
        })
    }

    /// `a && b` / `a || b` whose right operand runs only when it decides.
    fn lazy_logic(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Result<Value, String> {
        let x = self.scalar(a)?;
        let (rhs, merge) = (self.b.create_block(), self.b.create_block());
        let res = self.b.append_block_param(merge, I8);
        if op == BinOp::And {
            self.b.ins().brif(x, rhs, &[], merge, &args(&[x]));
        } else {
            self.b.ins().brif(x, merge, &args(&[x]), rhs, &[]);
        }
        self.b.switch_to_block(rhs);
        let y = self.scalar(b)?;
        self.b.ins().jump(merge, &args(&[y]));
        self.b.switch_to_block(merge);
        Ok(res)
    }

    /// `c ? a : b` evaluating only the chosen operand.
    fn lazy_select(&mut self, c: &Expr, a: &Expr, b: &Expr) -> Result<Vec<Value>, String> {
        let cv = self.scalar(c)?;
        let (ta, tb, merge) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let n = match a.ty {
            Ty::Vector(_, n) => n as usize,
            _ => 1,
        };
        let res: Vec<Value> = (0..n)
            .map(|_| self.b.append_block_param(merge, cty(a.ty.elem())))
            .collect();
        self.b.ins().brif(cv, ta, &[], tb, &[]);
        self.b.switch_to_block(ta);
        let xs = self.expr(a)?;
        if xs.len() != n {
            return Err("select operands of different lengths".into());
        }
        self.b.ins().jump(merge, &args(&xs));
        self.b.switch_to_block(tb);
        let ys = self.expr(b)?;
        if ys.len() != n {
            return Err("select operands of different lengths".into());
        }
        self.b.ins().jump(merge, &args(&ys));
        self.b.switch_to_block(merge);
        Ok(res)
    }

    fn special(&mut self, sp: Special, ty: Ty) -> Result<Vec<Value>, String> {
        if sp == Special::WarpSize {
            return Ok(vec![self.b.ins().iconst(I32, 32)]);
        }
        let n = match ty {
            Ty::Vector(_, n) => n as usize,
            _ => 1,
        };
        if n > self.pos.len() {
            return Err("a special with more components than the index space".into());
        }
        let mut out = Vec::with_capacity(n);
        for c in 0..n {
            let p = self.b.use_var(self.pos[c]);
            let (kd, kb) = (self.kd[c], self.kb[c]);
            let v = match sp {
                Special::Pos => p,
                Special::BlkPos => self.b.ins().urem(p, kb),
                Special::BlkDim => kb,
                Special::BlkIdx => self.b.ins().udiv(p, kb),
                _ => self.b.ins().udiv(kd, kb),
            };
            out.push(self.b.ins().ireduce(I32, v));
        }
        Ok(out)
    }

    fn unop(&mut self, op: UnOp, s: Scalar, x: Value) -> Result<Value, String> {
        Ok(match op {
            UnOp::Neg if s.is_float() => self.b.ins().fneg(x),
            UnOp::Neg if s.is_int() => self.b.ins().ineg(x),
            UnOp::Not if s == Scalar::Bool => self.b.ins().bxor_imm(x, 1),
            UnOp::BitNot if s.is_int() => self.b.ins().bnot(x),
            _ => return Err(format!("{op:?} on {}", s.name())),
        })
    }

    /// A comparison (an `i8` of 0 or 1).
    pub fn compare(&mut self, op: BinOp, s: Scalar, x: Value, y: Value) -> Value {
        if s.is_float() {
            let cc = match op {
                BinOp::Eq => FloatCC::Equal,
                BinOp::Ne => FloatCC::NotEqual,
                BinOp::Lt => FloatCC::LessThan,
                BinOp::Le => FloatCC::LessThanOrEqual,
                BinOp::Gt => FloatCC::GreaterThan,
                _ => FloatCC::GreaterThanOrEqual,
            };
            return self.b.ins().fcmp(cc, x, y);
        }
        let signed = s.is_signed();
        let cc = match op {
            BinOp::Eq => IntCC::Equal,
            BinOp::Ne => IntCC::NotEqual,
            BinOp::Lt if signed => IntCC::SignedLessThan,
            BinOp::Le if signed => IntCC::SignedLessThanOrEqual,
            BinOp::Gt if signed => IntCC::SignedGreaterThan,
            BinOp::Ge if signed => IntCC::SignedGreaterThanOrEqual,
            BinOp::Lt => IntCC::UnsignedLessThan,
            BinOp::Le => IntCC::UnsignedLessThanOrEqual,
            BinOp::Gt => IntCC::UnsignedGreaterThan,
            _ => IntCC::UnsignedGreaterThanOrEqual,
        };
        self.b.ins().icmp(cc, x, y)
    }

    /// `x op y` on two values of type `s`.
    pub fn binop(&mut self, op: BinOp, s: Scalar, x: Value, y: Value) -> Result<Value, String> {
        use BinOp::*;
        if op.is_comparison() {
            return Ok(self.compare(op, s, x, y));
        }
        if s == Scalar::Bool {
            return Ok(match op {
                And => self.b.ins().band(x, y),
                Or => self.b.ins().bor(x, y),
                _ => return Err(format!("{op:?} on bool")),
            });
        }
        if s.is_float() {
            return Ok(match op {
                Add => self.b.ins().fadd(x, y),
                Sub => self.b.ins().fsub(x, y),
                Mul => self.b.ins().fmul(x, y),
                Div => self.b.ins().fdiv(x, y),
                Pow => {
                    let (a, b) = if s == Scalar::F32 {
                        (self.b.ins().fpromote(F64, x), self.b.ins().fpromote(F64, y))
                    } else {
                        (x, y)
                    };
                    let r = self.call(
                        helpers::pow as *const () as usize,
                        &[F64, F64],
                        Some(F64),
                        &[a, b],
                    );
                    if s == Scalar::F32 {
                        self.b.ins().fdemote(F32, r)
                    } else {
                        r
                    }
                }
                Rem => {
                    let (f, t) = if s == Scalar::F32 {
                        (helpers::fmod32 as *const () as usize, F32)
                    } else {
                        (helpers::fmod64 as *const () as usize, F64)
                    };
                    self.call(f, &[t, t], Some(t), &[x, y])
                }
                Min | Max => {
                    // The other operand when one is NaN (Rust's `min`/`max`).
                    let cc = if op == Min {
                        FloatCC::LessThan
                    } else {
                        FloatCC::GreaterThan
                    };
                    let better = self.b.ins().fcmp(cc, y, x);
                    let m = self.b.ins().select(better, y, x);
                    let nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
                    self.b.ins().select(nan, y, m)
                }
                _ => return Err(format!("{op:?} on {}", s.name())),
            });
        }
        let signed = s.is_signed();
        let t = cty(s);
        Ok(match op {
            Add => self.b.ins().iadd(x, y),
            Sub => self.b.ins().isub(x, y),
            Mul => self.b.ins().imul(x, y),
            Div | Rem => self.int_div(op == Div, s, x, y),
            Pow => {
                let a = self.cast(x, s, Scalar::F64);
                let b = self.cast(y, s, Scalar::F64);
                let r = self.call(
                    helpers::pow as *const () as usize,
                    &[F64, F64],
                    Some(F64),
                    &[a, b],
                );
                self.cast(r, Scalar::F64, s)
            }
            Min | Max => {
                let c = self.compare(if op == Min { Lt } else { Gt }, s, y, x);
                self.b.ins().select(c, y, x)
            }
            BitAnd => self.b.ins().band(x, y),
            BitOr => self.b.ins().bor(x, y),
            BitXor => self.b.ins().bxor(x, y),
            Shl | Shr => {
                // The count as i64 (its own signedness); negative counts shift the
                // other way; every bit shifted out gives 0 (`shr` of a negative: -1).
                let n = self.widen(y, s)?;
                let bits = t.bits() as i64;
                let neg = self.b.ins().icmp_imm(IntCC::SignedLessThan, n, 0);
                let nn = self.b.ins().ineg(n);
                let m = self.b.ins().select(neg, nn, n);
                let inside = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, m, bits);
                let cap = self.b.ins().iconst(I64, bits - 1);
                let mc = self.b.ins().select(inside, m, cap);
                let left = self.b.ins().ishl(x, mc);
                let right = if signed {
                    self.b.ins().sshr(x, mc)
                } else {
                    self.b.ins().ushr(x, mc)
                };
                let zero = self.b.ins().iconst(t, 0);
                let left = self.b.ins().select(inside, left, zero);
                let right = if signed {
                    right
                } else {
                    self.b.ins().select(inside, right, zero)
                };
                let left_way = if op == Shl {
                    self.b.ins().bxor_imm(neg, 1)
                } else {
                    neg
                };
                self.b.ins().select(left_way, left, right)
            }
            _ => return Err(format!("{op:?} on {}", s.name())),
        })
    }

    /// Int `/` or `mod`: 0 for a divisor of 0, wrapping for `MIN / -1`.
    fn int_div(&mut self, div: bool, s: Scalar, x: Value, y: Value) -> Value {
        let t = cty(s);
        // Narrow ints divide in i32 (then wrap back).
        let wide = t.bits() < 32;
        let (xw, yw) = if wide {
            if s.is_signed() {
                (self.b.ins().sextend(I32, x), self.b.ins().sextend(I32, y))
            } else {
                (self.b.ins().uextend(I32, x), self.b.ins().uextend(I32, y))
            }
        } else {
            (x, y)
        };
        let wt = if wide { I32 } else { t };
        let zero = self.b.ins().iconst(wt, 0);
        let one = self.b.ins().iconst(wt, 1);
        let by0 = self.b.ins().icmp_imm(IntCC::Equal, yw, 0);
        let r = if s.is_signed() {
            let m1 = self
                .b
                .ins()
                .iconst(wt, int_bits(-1, if wide { Scalar::I32 } else { s }));
            let bym1 = self.b.ins().icmp(IntCC::Equal, yw, m1);
            let bad = self.b.ins().bor(by0, bym1);
            let d = self.b.ins().select(bad, one, yw);
            if div {
                let q = self.b.ins().sdiv(xw, d);
                let neg = self.b.ins().ineg(xw);
                let q = self.b.ins().select(bym1, neg, q);
                self.b.ins().select(by0, zero, q)
            } else {
                let q = self.b.ins().srem(xw, d);
                self.b.ins().select(bad, zero, q)
            }
        } else {
            let d = self.b.ins().select(by0, one, yw);
            let q = if div {
                self.b.ins().udiv(xw, d)
            } else {
                self.b.ins().urem(xw, d)
            };
            self.b.ins().select(by0, zero, q)
        };
        if wide {
            self.b.ins().ireduce(t, r)
        } else {
            r
        }
    }

    /// A conversion as Rust's `as` (the interpreter's casts): floats to ints truncate
    /// and saturate (NaN to 0), ints wrap, bool is 0/1 and `x != 0`.
    pub fn cast(&mut self, x: Value, from: Scalar, to: Scalar) -> Value {
        if from == to {
            return x;
        }
        let tt = cty(to);
        if to == Scalar::Bool {
            return if from.is_float() {
                let z = self.zero(from);
                self.b.ins().fcmp(FloatCC::NotEqual, x, z)
            } else {
                self.b.ins().icmp_imm(IntCC::NotEqual, x, 0)
            };
        }
        let from = if from == Scalar::Bool {
            Scalar::U8
        } else {
            from
        };
        if from == to {
            return x;
        }
        let ft = cty(from);
        match (from.is_float(), to.is_float()) {
            (false, false) => {
                if tt.bits() > ft.bits() {
                    if from.is_signed() {
                        self.b.ins().sextend(tt, x)
                    } else {
                        self.b.ins().uextend(tt, x)
                    }
                } else if tt.bits() < ft.bits() {
                    self.b.ins().ireduce(tt, x)
                } else {
                    x
                }
            }
            (false, true) => {
                let x = if ft.bits() < 32 {
                    if from.is_signed() {
                        self.b.ins().sextend(I32, x)
                    } else {
                        self.b.ins().uextend(I32, x)
                    }
                } else {
                    x
                };
                if from.is_signed() {
                    self.b.ins().fcvt_from_sint(tt, x)
                } else {
                    self.b.ins().fcvt_from_uint(tt, x)
                }
            }
            (true, true) => {
                if to == Scalar::F64 {
                    self.b.ins().fpromote(F64, x)
                } else {
                    self.b.ins().fdemote(F32, x)
                }
            }
            (true, false) => {
                if tt.bits() >= 32 {
                    return if to.is_signed() {
                        self.b.ins().fcvt_to_sint_sat(tt, x)
                    } else {
                        self.b.ins().fcvt_to_uint_sat(tt, x)
                    };
                }
                let (lo, hi) = to.int_range().unwrap_or((0, 0));
                let v = if to.is_signed() {
                    let v = self.b.ins().fcvt_to_sint_sat(I32, x);
                    let l = self.b.ins().iconst(I32, lo as i64);
                    let h = self.b.ins().iconst(I32, hi as i64);
                    let below = self.b.ins().icmp(IntCC::SignedLessThan, v, l);
                    let v = self.b.ins().select(below, l, v);
                    let above = self.b.ins().icmp(IntCC::SignedGreaterThan, v, h);
                    self.b.ins().select(above, h, v)
                } else {
                    let v = self.b.ins().fcvt_to_uint_sat(I32, x);
                    let h = self.b.ins().iconst(I32, hi as i64);
                    let above = self.b.ins().icmp(IntCC::UnsignedGreaterThan, v, h);
                    self.b.ins().select(above, h, v)
                };
                self.b.ins().ireduce(tt, v)
            }
        }
    }

    /// `f(x)` or `f(x, y)` on values of type `s` (the interpreter's `math`).
    fn math(&mut self, f: MathFn, s: Scalar, x: Value, y: Option<Value>) -> Result<Value, String> {
        use MathFn::*;
        if s.is_int() {
            return Ok(match f {
                Abs => {
                    let z = self.zero(s);
                    let neg = self.compare(BinOp::Lt, s, x, z);
                    let n = self.b.ins().ineg(x);
                    self.b.ins().select(neg, n, x)
                }
                Sign => {
                    let (z, one) = (self.zero(s), self.konst(&Const::Int(1), s));
                    let m1 = self.konst(&Const::Int(-1), s);
                    let pos = self.compare(BinOp::Gt, s, x, z);
                    let neg = self.compare(BinOp::Lt, s, x, z);
                    let r = self.b.ins().select(neg, m1, z);
                    self.b.ins().select(pos, one, r)
                }
                Periodize => {
                    let y = y.ok_or("periodize takes two arguments")?;
                    let z = self.zero(s);
                    let r = self.int_div(false, s, x, y);
                    let rpos = self.compare(BinOp::Ge, s, r, z);
                    let yneg = self.compare(BinOp::Lt, s, y, z);
                    let sub = self.b.ins().isub(r, y);
                    let add = self.b.ins().iadd(r, y);
                    let adj = self.b.ins().select(yneg, sub, add);
                    self.b.ins().select(rpos, r, adj)
                }
                Imag => self.zero(s),
                Angle => {
                    let z = self.zero(s);
                    let three = self.konst(&Const::Int(3), s);
                    let neg = self.compare(BinOp::Lt, s, x, z);
                    self.b.ins().select(neg, three, z)
                }
                _ => x,
            });
        }
        if !s.is_float() {
            return Err(format!("{} on {}", f.name(), s.name()));
        }
        let t = cty(s);
        let wide = s == Scalar::F64;
        let fc = |g: &mut Self, v: f64| {
            if wide {
                g.b.ins().f64const(v)
            } else {
                g.b.ins().f32const(v as f32)
            }
        };
        Ok(match f {
            Abs => self.b.ins().fabs(x),
            Sqrt => self.b.ins().sqrt(x),
            Rsqrt => {
                let r = self.b.ins().sqrt(x);
                let one = fc(self, 1.0);
                self.b.ins().fdiv(one, r)
            }
            Floor => self.b.ins().floor(x),
            Ceil => self.b.ins().ceil(x),
            Frac => {
                let fl = self.b.ins().floor(x);
                self.b.ins().fsub(x, fl)
            }
            Sign => {
                let (z, one, m1) = (fc(self, 0.0), fc(self, 1.0), fc(self, -1.0));
                let pos = self.b.ins().fcmp(FloatCC::GreaterThan, x, z);
                let neg = self.b.ins().fcmp(FloatCC::LessThan, x, z);
                let r = self.b.ins().select(neg, m1, x);
                self.b.ins().select(pos, one, r)
            }
            IsNan => self.b.ins().fcmp(FloatCC::Unordered, x, x),
            IsInf | IsFinite => {
                let a = self.b.ins().fabs(x);
                let inf = fc(self, f64::INFINITY);
                let cc = if f == IsInf {
                    FloatCC::Equal
                } else {
                    FloatCC::LessThan
                };
                self.b.ins().fcmp(cc, a, inf)
            }
            Real | Conj => x,
            Imag => fc(self, 0.0),
            Angle => {
                let (z, pi) = (fc(self, 0.0), fc(self, std::f64::consts::PI));
                let pi = if wide {
                    pi
                } else {
                    self.b.ins().f32const(std::f32::consts::PI)
                };
                let neg = self.b.ins().fcmp(FloatCC::LessThan, x, z);
                self.b.ins().select(neg, pi, z)
            }
            MakeComplex => return Err("complex values".into()),
            Periodize => {
                let y = y.ok_or("periodize takes two arguments")?;
                let h = if wide {
                    helpers::periodize64 as *const () as usize
                } else {
                    helpers::periodize32 as *const () as usize
                };
                self.call(h, &[t, t], Some(t), &[x, y])
            }
            _ => match (helpers::unary(f, wide), y) {
                (Some(h), None) => self.call(h, &[t], Some(t), &[x]),
                _ => match (helpers::table(f, wide), y) {
                    (Some((tramp, fp, 1)), None) => {
                        let fp = self.b.ins().iconst(I64, fp as i64);
                        self.call(tramp, &[I64, t], Some(t), &[fp, x])
                    }
                    (Some((tramp, fp, 2)), Some(y)) => {
                        let fp = self.b.ins().iconst(I64, fp as i64);
                        self.call(tramp, &[I64, t, t], Some(t), &[fp, x, y])
                    }
                    _ => return Err(format!("{} on {}", f.name(), s.name())),
                },
            },
        })
    }
}
