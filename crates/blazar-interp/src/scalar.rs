//! The scalar fast path of expression evaluation.
//!
//! With fusion on, every operator and element-wise builtin is first offered to a region
//! (`fuse.rs`), which costs a region builder, closures and allocations per operation even
//! when every operand is a scalar: most of the time of a scalar loop such as
//! `s = 0.5*s + i`. Here an expression whose leaves are literals, variables holding
//! scalars, and scalar elements of numeric arrays, combined by operators and
//! element-wise builtins, is evaluated directly on the host in one walk over it (no
//! allocation), which gives up at the first leaf that is not a scalar. Its result is
//! the one the region would have computed: an operation of scalars never joins a
//! region (`Interp::big`).

use crate::error::{At, R};
use crate::interp::{Frame, Interp};
use blazar_hir::{BinOp, Callee, Expr, ExprKind};
use blazar_runtime::{ElemType, Value};

impl<'p> Interp<'p> {
    /// Whether `e` is an expression of scalars that [`Interp::try_scalar`] evaluates
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

    /// Evaluates `e` directly on the host when it is an expression of scalars (what
    /// [`Interp::scalar_tree`] accepts), in one walk: `Ok(None)` as soon as a leaf is
    /// found that is not a scalar (nothing is changed by the leaves evaluated before:
    /// they are pure). An error may come from a tree that [`Interp::scalar_tree`] would
    /// have refused: the caller then asks it before reporting the error.
    pub(crate) fn try_scalar(&mut self, e: &'p Expr, frame: &mut Frame) -> R<Option<Value>> {
        Ok(Some(match &e.kind {
            ExprKind::Int(v) => Value::int(*v),
            ExprKind::Real(v) => Value::Real(self.prec.round(*v)),
            ExprKind::Var(v) => match self.var_ref(*v, frame) {
                Some(Value::Array(_)) | None => return Ok(None),
                Some(x) => x.clone(),
            },
            ExprKind::Binary(op, a, b) => {
                let Some(x) = self.try_scalar(a, frame)? else {
                    return Ok(None);
                };
                if matches!(op, BinOp::And | BinOp::Or) {
                    // `&&` and `||` short-circuit on scalars (as `eval` does), when
                    // the other operand is a scalar too.
                    if let Some(t) = x.as_f64() {
                        let short = if *op == BinOp::And {
                            t == 0.0
                        } else {
                            t != 0.0
                        };
                        if short {
                            if !self.scalar_tree(b, frame) {
                                return Ok(None);
                            }
                            return Ok(Some(Value::Real(if *op == BinOp::And {
                                0.0
                            } else {
                                1.0
                            })));
                        }
                    }
                }
                let Some(y) = self.try_scalar(b, frame)? else {
                    return Ok(None);
                };
                self.binary(*op, &x, &y, e.span)?
            }
            ExprKind::Unary(op, a) => {
                let Some(x) = self.try_scalar(a, frame)? else {
                    return Ok(None);
                };
                self.unary(*op, &x, e.span)?
            }
            ExprKind::Call {
                callee: Callee::Builtin(id),
                args,
            } => return self.try_scalar_call(*id, args, e, frame),
            ExprKind::Index { base, args } => return self.try_scalar_element(base, args, e, frame),
            _ => return Ok(None),
        }))
    }
    /// [`Interp::try_scalar`] of an element-wise builtin's call (apart: the walk's own
    /// frame stays small).
    #[inline(never)]
    fn try_scalar_call(
        &mut self,
        id: u32,
        args: &'p [Expr],
        e: &'p Expr,
        frame: &mut Frame,
    ) -> R<Option<Value>> {
        if !crate::fuse::elementwise_builtin(id, args.len()) {
            return Ok(None);
        }
        Ok(Some(match args {
            [a] => {
                let Some(x) = self.try_scalar(a, frame)? else {
                    return Ok(None);
                };
                self.call_builtin(id, &[x], e.span)?
            }
            [a, b] => {
                let Some(x) = self.try_scalar(a, frame)? else {
                    return Ok(None);
                };
                let Some(y) = self.try_scalar(b, frame)? else {
                    return Ok(None);
                };
                self.call_builtin(id, &[x, y], e.span)?
            }
            _ => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    let Some(x) = self.try_scalar(a, frame)? else {
                        return Ok(None);
                    };
                    vals.push(x);
                }
                self.call_builtin(id, &vals, e.span)?
            }
        }))
    }

    /// [`Interp::try_scalar`] of an element of a numeric array (not a cell, whose
    /// elements may be arrays) at scalar coordinates.
    #[inline(never)]
    fn try_scalar_element(
        &mut self,
        base: &'p Expr,
        args: &'p [Expr],
        e: &'p Expr,
        frame: &mut Frame,
    ) -> R<Option<Value>> {
        let ExprKind::Var(v) = base.kind else {
            return Ok(None);
        };
        if args.is_empty() || args.len() > 4 {
            return Ok(None);
        }
        let numeric = match self.var_ref(v, frame) {
            Some(Value::Array(a)) => a.data.meta_host().is_ok_and(|m| m.elem() != ElemType::Cell),
            _ => false,
        };
        if !numeric {
            return Ok(None);
        }
        let mut ints = [0i64; 4];
        let mut all_int = true;
        for (k, a) in args.iter().enumerate() {
            match self.try_scalar(a, frame)? {
                None => return Ok(None),
                Some(Value::Int(i, _)) => ints[k] = i,
                Some(Value::Real(x)) if x.fract() == 0.0 && x.is_finite() => ints[k] = x as i64,
                Some(_) => all_int = false,
            }
        }
        Ok(Some(match self.var_ref(v, frame) {
            Some(Value::Array(arr)) if all_int => {
                blazar_runtime::index::get_scalar_index(arr, &ints[..args.len()]).at(e.span)?
            }
            // Fractional or complex indices: the general path reports them (evaluating
            // the indices again is harmless: they are pure scalars).
            _ => {
                let b = self.eval(base, frame)?;
                self.index_value(&b, args, frame, e.span)?
            }
        }))
    }
}
