//! The scalar fast path of expression evaluation.
//!
//! With fusion on, every operator and element-wise builtin is first offered to a region
//! (`fuse.rs`), which costs a region builder, closures and allocations per operation even
//! when every operand is a scalar: most of the time of a scalar loop such as
//! `s = 0.5*s + i`. Here an expression whose leaves are literals, variables holding
//! scalars, and scalar elements of numeric arrays, combined by operators and
//! element-wise builtins, is recognised by one walk over it (no allocation), and then
//! evaluated directly on the host. Its result is the one the region would have
//! computed: an operation of scalars never joins a region (`Interp::big`).

use crate::error::{At, R};
use crate::interp::{Frame, Interp};
use blazar_hir::{BinOp, Callee, Expr, ExprKind};
use blazar_runtime::{ElemType, Value};

impl<'p> Interp<'p> {
    /// Whether `e` is an expression of scalars that [`Interp::eval_scalar`] evaluates
    /// (each operation's operands are scalars, so none of them could join a region).
    pub(crate) fn scalar_tree(&self, e: &Expr, frame: &Frame) -> bool {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Real(_) => true,
            ExprKind::Var(v) => {
                matches!(self.var_ref(*v, frame), Some(x) if !matches!(x, Value::Array(_)))
            }
            ExprKind::Binary(_, a, b) => self.scalar_tree(a, frame) && self.scalar_tree(b, frame),
            ExprKind::Unary(_, a) => self.scalar_tree(a, frame),
            ExprKind::Call {
                callee: Callee::Builtin(id),
                args,
            } => {
                crate::fuse::elementwise_builtin(*id, args.len())
                    && args.iter().all(|a| self.scalar_tree(a, frame))
            }
            ExprKind::Index { base, args } if !args.is_empty() && args.len() <= 4 => {
                // An element of a numeric array (not a cell, whose elements may be
                // arrays) at scalar coordinates.
                let ExprKind::Var(v) = base.kind else {
                    return false;
                };
                let numeric = match self.var_ref(v, frame) {
                    Some(Value::Array(a)) => {
                        a.data.meta_host().is_ok_and(|m| m.elem() != ElemType::Cell)
                    }
                    _ => false,
                };
                numeric && args.iter().all(|a| self.scalar_tree(a, frame))
            }
            _ => false,
        }
    }

    /// Evaluates an expression [`Interp::scalar_tree`] accepted, on the host.
    pub(crate) fn eval_scalar(&mut self, e: &'p Expr, frame: &mut Frame) -> R<Value> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::int(*v)),
            ExprKind::Real(v) => Ok(Value::Real(self.prec.round(*v))),
            ExprKind::Var(v) => match self.var_ref(*v, frame) {
                Some(x) => Ok(x.clone()),
                None => self.read_var(*v, frame, e.span),
            },
            ExprKind::Binary(op, a, b) => {
                let x = self.eval_scalar(a, frame)?;
                if matches!(op, BinOp::And | BinOp::Or) {
                    // `&&` and `||` short-circuit on scalars (as `eval` does).
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
                }
                let y = self.eval_scalar(b, frame)?;
                self.binary(*op, &x, &y, e.span)
            }
            ExprKind::Unary(op, a) => {
                let x = self.eval_scalar(a, frame)?;
                self.unary(*op, &x, e.span)
            }
            ExprKind::Call {
                callee: Callee::Builtin(id),
                args,
            } => match args.as_slice() {
                [a] => {
                    let x = self.eval_scalar(a, frame)?;
                    self.call_builtin(*id, &[x], e.span)
                }
                [a, b] => {
                    let x = self.eval_scalar(a, frame)?;
                    let y = self.eval_scalar(b, frame)?;
                    self.call_builtin(*id, &[x, y], e.span)
                }
                _ => {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        vals.push(self.eval_scalar(a, frame)?);
                    }
                    self.call_builtin(*id, &vals, e.span)
                }
            },
            ExprKind::Index { base, args } => {
                let ExprKind::Var(v) = base.kind else {
                    return self.eval(e, frame);
                };
                let mut ints = [0i64; 4];
                let mut all_int = true;
                for (k, a) in args.iter().enumerate() {
                    match self.eval_scalar(a, frame)? {
                        Value::Int(i, _) => ints[k] = i,
                        Value::Real(x) if x.fract() == 0.0 && x.is_finite() => ints[k] = x as i64,
                        _ => all_int = false,
                    }
                }
                match self.var_ref(v, frame) {
                    Some(Value::Array(arr)) if all_int => {
                        blazar_runtime::index::get_scalar_index(arr, &ints[..args.len()]).at(e.span)
                    }
                    // Fractional or complex indices: the general path reports them
                    // (evaluating the indices again is harmless: they are pure scalars).
                    _ => {
                        let b = self.eval(base, frame)?;
                        self.index_value(&b, args, frame, e.span)
                    }
                }
            }
            _ => self.eval(e, frame),
        }
    }
}
