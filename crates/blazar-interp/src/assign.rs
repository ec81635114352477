//! Assignment: to variables, through index and field paths, in-place operators, and
//! multi-assignment with destructuring.

use crate::error::{At, RunError, R};
use crate::interp::{Frame, Interp};
use blazar_diagnostics::Span;
use blazar_hir::{Access, Annot, BinOp, Callee, Expr, ExprKind, Place};
use blazar_runtime::index::{self, IndexArg};
use blazar_runtime::{Object, Value};
use std::cell::RefCell;
use std::rc::Rc;

impl<'p> Interp<'p> {
    pub fn exec_assign(
        &mut self,
        target: &'p Place,
        op: Option<BinOp>,
        value: &'p Expr,
        ty: Option<&Annot>,
        frame: &mut Frame,
    ) -> R<()> {
        if target.path.is_empty() && ty.is_none() {
            // A scalar stored in a variable in place, without a `Value` per node.
            if let Some(n) = self.num(value, frame) {
                let prec = self.prec;
                if let Some(slot) = self.slot_mut(target.var, frame) {
                    match op {
                        None => {
                            crate::num::store(slot, n);
                            return Ok(());
                        }
                        Some(op) => {
                            if let Some(new) = slot
                                .as_ref()
                                .and_then(crate::num::Num::of)
                                .and_then(|old| crate::num::binary(op, old, n, prec))
                            {
                                crate::num::store(slot, new);
                                return Ok(());
                            }
                        }
                    }
                }
            }
        }
        let mut v = match self.recycle_target(target, op, value, ty, frame) {
            Some(old) => self.eval_fused_into(value, Some(old), frame)?,
            None => self.eval(value, frame)?,
        };
        if target.path.is_empty() {
            if let Some(op) = op {
                // Fast path: a scalar updated in place (`s += x`).
                let slot = match target.var {
                    blazar_hir::Var::Local(i) => frame.locals.get_mut(i as usize),
                    blazar_hir::Var::Global(i) => self.globals.get_mut(i as usize),
                };
                if let Some(Some(old)) = slot {
                    if ty.is_none() {
                        if let Some(new) = blazar_runtime::ops::binary_scalar(
                            crate::eval::rt_op(op),
                            old,
                            &v,
                            self.prec,
                        ) {
                            *old = new;
                            return Ok(());
                        }
                    }
                }
                let old = self.read_var(target.var, frame, target.span)?;
                v = self.binary(op, &old, &v, value.span)?;
            }
            if let Some(t) = ty {
                v = match self.output_modifiers(target.var, t, frame) {
                    Some(m) => crate::coerce::coerce(v, &m, self.prec),
                    None => crate::coerce::coerce(v, t, self.prec),
                }
                .at(value.span)?;
            }
            self.write_var(target.var, frame, v);
            return Ok(());
        }
        if self.store_element(target, op, &v, frame, value.span)? {
            return Ok(());
        }
        self.assign_path(target, op, v, frame, value.span)
    }

    /// `A[i, j] = v` (or `A[i, j] op= v`) for a scalar `v`, a numeric array `A` and
    /// coordinates that are expressions of scalars with integer values, stored without
    /// the general path's argument vectors. `Ok(false)` when the statement is not of
    /// that form: nothing was changed (evaluating coordinates is harmless, they are
    /// pure), and [`Interp::assign_path`] does it.
    fn store_element(
        &mut self,
        target: &'p Place,
        op: Option<BinOp>,
        v: &Value,
        frame: &mut Frame,
        vspan: Span,
    ) -> R<bool> {
        let [Access::Index(args)] = target.path.as_slice() else {
            return Ok(false);
        };
        if args.is_empty() || args.len() > 4 || matches!(v, Value::Array(_)) {
            return Ok(false);
        }
        let numeric = |x: Option<&Value>| match x {
            Some(Value::Array(a)) => a
                .data
                .meta_host()
                .is_ok_and(|m| m.elem() != blazar_runtime::ElemType::Cell),
            _ => false,
        };
        if !numeric(self.var_ref(target.var, frame)) {
            return Ok(false);
        }
        let mut ints = [0i64; 4];
        for (k, a) in args.iter().enumerate() {
            ints[k] = match self.num(a, frame).and_then(crate::num::Num::coord) {
                Some(i) => i,
                None => return Ok(false),
            };
        }
        let Some(Value::Array(arr)) = self.var_ref(target.var, frame) else {
            return Ok(false);
        };
        let idx = &ints[..args.len()];
        let stored = match op {
            Some(op) => {
                let old = index::get_scalar_index(arr, idx).at(target.span)?;
                let new = self.binary(op, &old, v, vspan)?;
                index::set_scalar_index(arr, idx, &new)
            }
            None => index::set_scalar_index(arr, idx, v),
        };
        stored.at(target.span)?;
        Ok(true)
    }

    /// A declared output type is checked when the function returns (`call_body`), not
    /// at each assignment: an output declared `mat` may hold a cube on the way. For an
    /// assignment to an output under its own declaration this gives the declaration's
    /// access modifiers alone; `None` for any other variable or declaration.
    fn output_modifiers(&self, var: blazar_hir::Var, t: &Annot, frame: &Frame) -> Option<Annot> {
        let blazar_hir::Var::Local(slot) = var else {
            return None;
        };
        let f = self.prog.functions.get(frame.func as usize)?;
        f.outputs
            .iter()
            .any(|o| o.slot == slot && o.ty.as_ref() == Some(t))
            .then(|| Annot {
                ty: blazar_hir::Ty::Unknown,
                mode: t.mode.clone(),
                is_const: t.is_const,
            })
    }

    /// For `v = e` with a fused `e` of builtins and operators only: the array `v` holds
    /// when nothing else refers to it (the result may be written into it).
    pub(crate) fn recycle_target(
        &self,
        target: &Place,
        op: Option<BinOp>,
        value: &Expr,
        ty: Option<&Annot>,
        frame: &Frame,
    ) -> Option<blazar_runtime::ArrayRef> {
        if !target.path.is_empty() || op.is_some() || ty.is_some() || self.fuse_min == usize::MAX {
            return None;
        }
        // The variable's value first (cheap), the walk over the expression last.
        let a = match self.var_ref(target.var, frame)? {
            Value::Array(a)
                if Rc::strong_count(&a.data) == 1
                    && a.mode == blazar_runtime::Access::default() =>
            {
                a
            }
            _ => return None,
        };
        (crate::fuse::fusable(value) && crate::fuse::pure(value)).then(|| a.clone())
    }

    /// Stores `v` (combined with the old value by `op`) at a place with a path.
    fn assign_path(
        &mut self,
        target: &'p Place,
        op: Option<BinOp>,
        v: Value,
        frame: &mut Frame,
        vspan: Span,
    ) -> R<()> {
        let root = match self.var_ref(target.var, frame) {
            Some(r) => r.clone(),
            None => {
                // `o.f = v` on a fresh name creates a dynamic object.
                if matches!(target.path.first(), Some(Access::Field(_))) {
                    let o = Value::Object(Rc::new(RefCell::new(Object::default())));
                    self.write_var(target.var, frame, o.clone());
                    o
                } else {
                    return Err(RunError::new(
                        target.span,
                        format!(
                            "variable `{}` is indexed before it is assigned",
                            self.var_name(target.var, frame)
                        ),
                    ));
                }
            }
        };
        // Walk all but the last access.
        let mut cur = root;
        let (last, init) = target.path.split_last().expect("path is not empty");
        for acc in init {
            cur = match acc {
                Access::Index(args) => self.index_value(&cur, args, frame, target.span)?,
                Access::Field(name) => crate::eval::field(&cur, name).at(target.span)?,
            };
        }
        match last {
            Access::Field(name) => {
                let Value::Object(o) = &cur else {
                    return Err(RunError::new(
                        target.span,
                        format!("a {} has no fields", cur.kind_name()),
                    ));
                };
                let v = match op {
                    Some(op) => {
                        let old = crate::eval::field(&cur, name).at(target.span)?;
                        self.binary(op, &old, &v, vspan)?
                    }
                    None => v,
                };
                blazar_runtime::cycles::note_store(&cur, &v);
                o.borrow_mut().set(name, v);
                Ok(())
            }
            Access::Index(args) => {
                let Value::Array(arr) = &cur else {
                    return Err(RunError::new(
                        target.span,
                        format!("a {} cannot be assigned through an index", cur.kind_name()),
                    ));
                };
                let idx = match (&args[..], op) {
                    ([mask], None) if self.fuses_into(arr, mask) => {
                        // `A[A > t] = v` as one kernel where `A` is large (`interp::fuse`).
                        match self.masked_store(arr, mask, &v, frame, target.span)? {
                            None => return Ok(()),
                            Some(m) => vec![IndexArg::Value(m)],
                        }
                    }
                    _ => self.index_args(args, frame)?,
                };
                let v = match op {
                    Some(op) => {
                        let old = index::get(arr, &idx).at(target.span)?;
                        self.binary(op, &old, &v, vspan)?
                    }
                    None => v,
                };
                let stored = match plain_ints(&idx) {
                    Some(ints) => index::set_scalar_index(arr, &ints, &v),
                    None => index::set(arr, &idx, &v, self.prec),
                };
                stored.at(target.span)?;
                // A container stored into a cell may close a cycle (`c[0] = c`).
                blazar_runtime::cycles::note_store(&cur, &v);
                Ok(())
            }
        }
    }

    /// `[a, b] = value`: several outputs of a call, the elements of a literal, or the
    /// elements of a vector.
    pub fn exec_multi_assign(
        &mut self,
        targets: &'p [Place],
        value: &'p Expr,
        frame: &mut Frame,
        span: Span,
    ) -> R<()> {
        let n = targets.len();
        let vals: Vec<Value> = match &value.kind {
            ExprKind::Call { callee, args } if is_user_call(callee) => {
                let out = self.eval_call(callee, args, n, frame, value.span)?;
                if out.len() == 1 && n > 1 {
                    destructure(&out[0], n).at(value.span)?
                } else {
                    out
                }
            }
            // `[a, b] = parallel_do(...)`: each output with its own type (not packed
            // into one array first, which would give them a common element type).
            ExprKind::Call {
                callee:
                    Callee::Intrinsic(
                        i @ (blazar_hir::Intrinsic::ParallelDo | blazar_hir::Intrinsic::SerialDo),
                    ),
                args,
            } => self.launch(
                args,
                frame,
                value.span,
                *i == blazar_hir::Intrinsic::SerialDo,
            )?,
            ExprKind::Call {
                callee: callee @ Callee::Builtin(b),
                args,
            } if blazar_runtime::builtins::multi(blazar_runtime::builtins::get(*b).name)
                .is_some() =>
            {
                self.eval_call(callee, args, n, frame, value.span)?
            }
            ExprKind::Matrix(items) if items.len() == n => items
                .iter()
                .map(|i| self.eval(i, frame))
                .collect::<R<Vec<_>>>()?,
            ExprKind::Call {
                callee: Callee::Builtin(b),
                args,
            } if args.len() == 1 && blazar_runtime::builtins::get(*b).name == "size" => {
                // `[M, N, C] = size(img)`: dimensions past the rank are 1 (a mat is an
                // M×N×1 cube).
                let v = self.eval(value, frame)?;
                let mut dims = match &v {
                    Value::Array(r) => r.borrow().to_f64_vec(),
                    _ => vec![],
                };
                if dims.len() < n {
                    dims.resize(n, 1.0);
                    dims.into_iter().map(|d| Value::int(d as i64)).collect()
                } else {
                    destructure(&v, n).at(value.span)?
                }
            }
            _ => {
                let v = self.eval(value, frame)?;
                destructure(&v, n).at(value.span)?
            }
        };
        if vals.len() < n {
            return Err(RunError::new(
                span,
                format!("{} values cannot be assigned to {n} targets", vals.len()),
            ));
        }
        for (t, v) in targets.iter().zip(vals) {
            if t.path.is_empty() {
                self.write_var(t.var, frame, v);
            } else {
                self.assign_path(t, None, v, frame, value.span)?;
            }
        }
        Ok(())
    }
}

fn is_user_call(c: &Callee) -> bool {
    matches!(
        c,
        Callee::Group(_) | Callee::Nested { .. } | Callee::SelfCall(_) | Callee::Value(_)
    )
}

fn plain_ints(idx: &[IndexArg]) -> Option<Vec<i64>> {
    if idx.len() > 4 {
        return None;
    }
    idx.iter()
        .map(|a| match a {
            IndexArg::Value(Value::Int(i, _)) => Some(*i),
            IndexArg::Value(Value::Real(x)) if x.fract() == 0.0 && x.is_finite() => Some(*x as i64),
            _ => None,
        })
        .collect()
}

/// The elements of a vector (or cell) value, for `[a, b, c] = v`.
fn destructure(v: &Value, n: usize) -> blazar_runtime::RtResult<Vec<Value>> {
    match v {
        Value::Array(r) => {
            let a = r.borrow();
            if a.len() != n {
                blazar_runtime::rt_bail!("cannot assign {} values to {n} targets", a.len());
            }
            Ok((0..n).map(|i| a.get_value(i)).collect())
        }
        v if n == 1 => Ok(vec![v.clone()]),
        v => blazar_runtime::rt_bail!("cannot assign one {} to {n} targets", v.kind_name()),
    }
}
