//! Evaluation of expressions: literals, variables, operators, ranges, matrix and cell
//! literals, indexing and field access. Calls are in `call.rs`.

use crate::error::{At, RunError, R};
use crate::interp::{Frame, Interp};
use blazar_hir::{BinOp, Callee, Expr, ExprKind, UnOp};
use blazar_runtime::index::{self, IndexArg};
use blazar_runtime::ops;
use blazar_runtime::{Array, ElemType, Value};
use num_complex::Complex64;

/// The host operator of source operator `op`: its element-wise operation (declared
/// once in `blazar-ops`) and whether it was written with a dot. Both the host
/// evaluator and fusion (`fuse.rs`) read it.
#[inline(always)]
pub fn rt_op(op: BinOp) -> ops::HostOp {
    use ops::BinOp as O;
    match op {
        BinOp::Add => O::Add.into(),
        BinOp::Sub => O::Sub.into(),
        BinOp::Mul => O::Mul.into(),
        BinOp::Div => O::Div.into(),
        BinOp::Pow => O::Pow.into(),
        BinOp::EMul => ops::HostOp::dot(O::Mul),
        BinOp::EDiv => ops::HostOp::dot(O::Div),
        BinOp::EPow => ops::HostOp::dot(O::Pow),
        BinOp::Eq => O::Eq.into(),
        BinOp::Ne => O::Ne.into(),
        BinOp::Lt => O::Lt.into(),
        BinOp::Gt => O::Gt.into(),
        BinOp::Le => O::Le.into(),
        BinOp::Ge => O::Ge.into(),
        BinOp::And => O::And.into(),
        BinOp::Or => O::Or.into(),
    }
}

impl<'p> Interp<'p> {
    #[inline]
    pub fn binary(
        &self,
        op: BinOp,
        a: &Value,
        b: &Value,
        span: blazar_diagnostics::Span,
    ) -> R<Value> {
        let op = rt_op(op);
        if let Some(v) = ops::binary_scalar(op, a, b, self.prec) {
            return Ok(v);
        }
        if let (Value::Object(x), Value::Object(y)) = (a, b) {
            if matches!(op.op, ops::BinOp::Eq | ops::BinOp::Ne) {
                // Objects are references: equal when they are the same object (every
                // `nullptr` is the same).
                let null = |o: &std::rc::Rc<std::cell::RefCell<blazar_runtime::Object>>| {
                    o.borrow().class.as_deref() == Some(crate::coerce::NULL_CLASS)
                };
                let same = std::rc::Rc::ptr_eq(x, y) || (null(x) && null(y));
                return Ok(Value::int((same == (op.op == ops::BinOp::Eq)) as i64));
            }
        }
        if op.is_matrix_product() {
            if let Some(r) = self.device_op(crate::ArrayOp::MatMul, &[a, b]) {
                return r.map_err(|m| crate::RunError::new(span, m));
            }
        }
        ops::binary(op, a, b, self.prec).at(span)
    }

    /// `op a` on the host.
    pub fn unary(&self, op: UnOp, x: &Value, span: blazar_diagnostics::Span) -> R<Value> {
        match (op, x) {
            (UnOp::Neg, Value::Real(v)) => Ok(Value::Real(-v)),
            (UnOp::Neg, Value::Int(v, t)) => Ok(Value::Int(t.wrap(-v), *t)),
            (UnOp::Neg, _) => ops::unary(ops::UnOp::Neg, x, self.prec).at(span),
            (UnOp::Not, _) => ops::unary(ops::UnOp::Not, x, self.prec).at(span),
        }
    }

    pub fn eval(&mut self, e: &'p Expr, frame: &mut Frame) -> R<Value> {
        // A variable first: the commonest leaf (no fusion applies to it).
        if let ExprKind::Var(v) = &e.kind {
            if let Some(x) = self.var_ref(*v, frame) {
                return Ok(x.clone());
            }
        }
        // An expression of real and int scalars without a `Value` per node (`num.rs`).
        if matches!(
            e.kind,
            ExprKind::Binary(..)
                | ExprKind::Unary(..)
                | ExprKind::Index { .. }
                | ExprKind::Call {
                    callee: Callee::Builtin(_),
                    ..
                }
        ) {
            if let Some(n) = self.num(e, frame) {
                return Ok(n.value());
            }
        }
        // A row of real and int scalars (`[M, N * C]`, the dims of a `reshape` or
        // `zeros`): built directly, without the region walk of a literal of arrays.
        if let ExprKind::Matrix(items) = &e.kind {
            if let Some(v) = self.scalar_row(items, frame) {
                return v.at(e.span);
            }
        }
        match &e.kind {
            _ if self.fuse_min != usize::MAX && crate::fuse::fusable(e) => {
                match self.try_scalar(e, frame) {
                    Ok(Some(v)) => Ok(v),
                    Ok(None) => self.eval_fused(e, frame),
                    Err(err) if self.scalar_tree(e, frame) => Err(err),
                    Err(_) => self.eval_fused(e, frame),
                }
            }
            ExprKind::Int(v) => Ok(Value::int(*v)),
            ExprKind::Real(v) => Ok(Value::Real(self.prec.round(*v))),
            ExprKind::Imag(v) => Ok(Value::Complex(self.prec.round_c(Complex64::new(0.0, *v)))),
            ExprKind::Str(s) => Ok(Value::str(s)),
            ExprKind::Var(v) => match self.var_ref(*v, frame) {
                Some(x) => Ok(x.clone()),
                None => self.read_var(*v, frame, e.span),
            },
            ExprKind::Binary(op, a, b) => {
                // `&&` and `||` short-circuit on scalars.
                if matches!(op, BinOp::And | BinOp::Or) {
                    let x = self.eval(a, frame)?;
                    if let Some(t) = x.as_f64() {
                        let short = if *op == BinOp::And {
                            t == 0.0
                        } else {
                            t != 0.0
                        };
                        if short {
                            return Ok(Value::Real(if *op == BinOp::And { 0.0 } else { 1.0 }));
                        }
                    }
                    let y = self.eval(b, frame)?;
                    return self.binary(*op, &x, &y, e.span);
                }
                let x = self.eval(a, frame)?;
                let y = self.eval(b, frame)?;
                self.binary(*op, &x, &y, e.span)
            }
            ExprKind::Unary(op, a) => {
                let x = self.eval(a, frame)?;
                self.unary(*op, &x, e.span)
            }
            ExprKind::Ternary(c, a, b) => {
                if self.cond(c, frame)? {
                    self.eval(a, frame)
                } else {
                    self.eval(b, frame)
                }
            }
            ExprKind::Range { start, step, end } => {
                let a = self.eval(start, frame)?;
                let s = match step {
                    Some(s) => self.eval(s, frame)?,
                    None => Value::int(1),
                };
                let b = self.eval(end, frame)?;
                self.range_value(&a, &s, &b).at(e.span)
            }
            ExprKind::Matrix(items) => self.eval_matrix(items, frame, e.span),
            ExprKind::Cell(items) => {
                let vals = items
                    .iter()
                    .map(|i| self.eval(i, frame))
                    .collect::<R<Vec<_>>>()?;
                Ok(Value::array(Array::cell(vec![vals.len()], vals)))
            }
            ExprKind::Index { base, args } => {
                let b = self.eval(base, frame)?;
                self.index_value(&b, args, frame, e.span)
            }
            ExprKind::Field { base, name } => {
                let b = self.eval(base, frame)?;
                field(&b, name).at(e.span)
            }
            ExprKind::Call { callee, args } => {
                let mut out = self.eval_call(callee, args, 1, frame, e.span)?;
                if out.is_empty() {
                    return Err(RunError::new(e.span, "this call returns no value"));
                }
                let v = out.swap_remove(0);
                self.give_vals(out);
                Ok(v)
            }
            ExprKind::Closure { func, captures } => {
                self.make_closure(*func, captures, frame, e.span)
            }
            ExprKind::FuncValue(callee) => self.func_value(callee, e.span),
            ExprKind::Colon => Err(RunError::new(
                e.span,
                "`:` can only be used inside an index",
            )),
            ExprKind::TypeValue(t) => Ok(Value::str(&t.to_string())),
            ExprKind::Convert(x, a) => {
                let v = self.eval(x, frame)?;
                crate::coerce::convert(v, a, self.prec).at(e.span)
            }
        }
    }

    /// Evaluates an expression statement; calls may return nothing.
    pub fn eval_discard(&mut self, e: &'p Expr, frame: &mut Frame) -> R<()> {
        if let ExprKind::Call { callee, args } = &e.kind {
            self.eval_call(callee, args, 0, frame, e.span)?;
        } else {
            self.eval(e, frame)?;
        }
        Ok(())
    }

    /// `a..s..b` as a vector: int elements when all three are ints.
    pub fn range_value(&self, a: &Value, s: &Value, b: &Value) -> blazar_runtime::RtResult<Value> {
        if let (Value::Int(a, _), Value::Int(s, _), Some(b)) = (a, s, b.as_f64()) {
            if *s == 0 {
                blazar_runtime::rt_bail!("the step of a range cannot be zero");
            }
            let n = ((b - *a as f64) / *s as f64).floor() + 1.0;
            let n = if n > 0.0 { n as usize } else { 0 };
            if n > (1 << 31) {
                blazar_runtime::rt_bail!("range has too many elements");
            }
            let data: Vec<i32> = (0..n).map(|k| (*a + k as i64 * *s) as i32).collect();
            return Ok(Value::array(Array::from_ints(vec![n], data)));
        }
        let (Some(a), Some(s), Some(b)) = (a.as_f64(), s.as_f64(), b.as_f64()) else {
            blazar_runtime::rt_bail!("range bounds must be numbers");
        };
        if s == 0.0 || !s.is_finite() {
            blazar_runtime::rt_bail!("the step of a range must be a non-zero number");
        }
        let n = ((b - a) / s + 1e-9).floor() + 1.0;
        let n = if n > 0.0 { n as usize } else { 0 };
        if n > (1 << 31) {
            blazar_runtime::rt_bail!("range has too many elements");
        }
        let data = (0..n).map(|k| a + k as f64 * s).collect();
        Ok(Value::array(Array::from_reals(vec![n], data, self.prec)))
    }

    /// Evaluates index arguments, keeping `:` and integer ranges lazy.
    pub fn index_args(&mut self, args: &'p [Expr], frame: &mut Frame) -> R<Vec<IndexArg>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(match &a.kind {
                ExprKind::Colon => IndexArg::All,
                ExprKind::Range { start, step, end } => {
                    let s = self.eval(start, frame)?;
                    let st = match step {
                        Some(x) => self.eval(x, frame)?,
                        None => Value::int(1),
                    };
                    let e = self.eval(end, frame)?;
                    match (s.as_i64(), st.as_i64(), e.as_f64()) {
                        (Some(s0), Some(st0), Some(e0)) if st0 != 0 => {
                            let end = if st0 > 0 {
                                e0.floor() as i64
                            } else {
                                e0.ceil() as i64
                            };
                            IndexArg::Range {
                                start: s0,
                                step: st0,
                                end,
                            }
                        }
                        _ => IndexArg::Value(self.range_value(&s, &st, &e).at(a.span)?),
                    }
                }
                _ => IndexArg::Value(self.eval(a, frame)?),
            });
        }
        Ok(out)
    }

    pub fn index_value(
        &mut self,
        base: &Value,
        args: &'p [Expr],
        frame: &mut Frame,
        span: blazar_diagnostics::Span,
    ) -> R<Value> {
        let Value::Array(arr) = base else {
            if let Value::Str(s) = base {
                let idx = self.index_args(args, frame)?;
                return index_string(s, &idx).at(span);
            }
            if base.is_scalar() {
                // A scalar behaves as a 1-element array.
                let arr = blazar_runtime::ArrayRef::new(scalar_array(base, self.prec));
                let idx = self.index_args(args, frame)?;
                return index::get(&arr, &idx).at(span);
            }
            return Err(RunError::new(
                span,
                format!("a {} cannot be indexed", base.kind_name()),
            ));
        };
        // Fast path: up to four integer scalar indices.
        if args.len() <= 4
            && args
                .iter()
                .all(|a| !matches!(a.kind, ExprKind::Colon | ExprKind::Range { .. }))
        {
            let mut ints = [0i64; 4];
            let mut vals = Vec::new();
            let mut all_int = true;
            for (k, a) in args.iter().enumerate() {
                let v = self.eval(a, frame)?;
                match v {
                    Value::Int(i, _) => ints[k] = i,
                    Value::Real(x) if x.fract() == 0.0 && x.is_finite() => ints[k] = x as i64,
                    _ => all_int = false,
                }
                vals.push(v);
            }
            if all_int {
                return index::get_scalar_index(arr, &ints[..args.len()]).at(span);
            }
            if let [ix @ Value::Array(_)] = vals.as_slice() {
                if let Some(v) = self.gather_kernel(arr, ix, span)? {
                    return Ok(v);
                }
            }
            let idx: Vec<IndexArg> = vals.into_iter().map(IndexArg::Value).collect();
            return index::get(arr, &idx).at(span);
        }
        let idx = self.index_args(args, frame)?;
        index::get(arr, &idx).at(span)
    }

    /// `[a, b, c]` whose items are all real or int scalars ([`Interp::num`], pure:
    /// giving up evaluates nothing twice that could differ or fail), as the host's
    /// matrix literal builds it; `None` for anything else.
    fn scalar_row(
        &mut self,
        items: &'p [Expr],
        frame: &mut Frame,
    ) -> Option<blazar_runtime::RtResult<Value>> {
        if items.is_empty() || items.len() > 16 {
            return None;
        }
        let mut vals = Vec::with_capacity(items.len());
        for i in items {
            vals.push(self.num(i, frame)?.value());
        }
        Some(crate::coerce::build_matrix(vals, self.prec, false))
    }

    /// `[a, b, c]`: a row of scalars, or rows stacked from vectors/matrices.
    fn eval_matrix(
        &mut self,
        items: &'p [Expr],
        frame: &mut Frame,
        span: blazar_diagnostics::Span,
    ) -> R<Value> {
        let vals = items
            .iter()
            .map(|i| self.eval(i, frame))
            .collect::<R<Vec<_>>>()?;
        crate::coerce::build_matrix(
            vals,
            self.prec,
            items.iter().any(|i| matches!(i.kind, ExprKind::Matrix(_))),
        )
        .at(span)
    }
}

/// A scalar value as a 1-element vector.
pub fn scalar_array(v: &Value, prec: blazar_runtime::Prec) -> Array {
    let elem = match v {
        Value::Int(_, t) => ElemType::Int(*t),
        Value::Complex(_) => ElemType::complex(prec),
        _ => ElemType::real(prec),
    };
    let mut a = Array::zeros(vec![1], elem);
    a.buf.set_value(0, v);
    a
}

fn index_string(s: &str, idx: &[IndexArg]) -> blazar_runtime::RtResult<Value> {
    let chars: Vec<char> = s.chars().collect();
    let picks: Vec<i64> = match idx {
        [IndexArg::Value(v)] => match v.as_i64() {
            Some(i) => vec![i],
            None => blazar_runtime::rt_bail!("a string index must be an integer or a range"),
        },
        [IndexArg::Range { start, step, end }] => {
            let mut out = Vec::new();
            let mut i = *start;
            while (*step > 0 && i <= *end) || (*step < 0 && i >= *end) {
                out.push(i);
                i += step;
            }
            out
        }
        _ => blazar_runtime::rt_bail!("a string takes one index"),
    };
    let mut out = String::new();
    for i in picks {
        match usize::try_from(i).ok().and_then(|i| chars.get(i)) {
            Some(c) => out.push(*c),
            None => blazar_runtime::rt_bail!(
                "index {i} is out of bounds for a string of length {}",
                chars.len()
            ),
        }
    }
    Ok(Value::str(&out))
}

pub fn field(v: &Value, name: &str) -> blazar_runtime::RtResult<Value> {
    match v {
        Value::Object(o) => match o.borrow().get(name) {
            Some(x) => Ok(x.clone()),
            None => {
                let o = o.borrow();
                let names = o.fields.iter().map(|(n, _)| n.as_ref());
                match blazar_diagnostics::suggest::did_you_mean(name, names) {
                    Some(hint) => {
                        blazar_runtime::rt_bail!("the object has no field `{name}`; {hint}")
                    }
                    None => blazar_runtime::rt_bail!("the object has no field `{name}`"),
                }
            }
        },
        v => blazar_runtime::rt_bail!("a {} has no field `{name}`", v.kind_name()),
    }
}
