//! The scalar fast path of expression evaluation.
//!
//! With fusion on, every operator and element-wise builtin is first offered to a region
//! (`fuse.rs`), which costs a region builder, closures and allocations per operation even
//! when every operand is a scalar: most of the time of a scalar loop such as
//! `s = 0.5*s + i`. Here an expression whose leaves are literals, variables holding
//! scalars, and scalar elements of numeric arrays, combined by operators and
//! element-wise builtins, is evaluated directly on the host, in one walk that gives up
//! at the first operand that is not a scalar. Its result is the one the region would have
//! computed: an operation of scalars never joins a region (`Interp::big`).

use crate::error::{At, R};
use crate::interp::{Frame, Interp};
use blazar_hir::{BinOp, Callee, Expr, ExprKind};
use blazar_runtime::{ElemType, Value};

impl<'p> Interp<'p> {
    /// Evaluates `e` on the host when it is an expression of scalars (each operation's
    /// operands are scalars, so none of them could join a region); `None`, as soon as
    /// an operand that is not a scalar turns up, for the caller to evaluate `e` the
    /// general way. What was evaluated before is pure (literals, variables, operators
    /// and element-wise builtins of scalars), so evaluating it again changes nothing;
    /// an error it raised is the one the general way raises first.
    pub(crate) fn try_scalar(&mut self, e: &'p Expr, frame: &mut Frame) -> R<Option<Value>> {
        Ok(Some(match &e.kind {
            ExprKind::Int(v) => Value::int(*v),
            ExprKind::Real(v) => Value::Real(self.prec.round(*v)),
            ExprKind::Var(v) => match self.var_ref(*v, frame) {
                Some(x) if !matches!(x, Value::Array(_)) => x.clone(),
                _ => return Ok(None),
            },
            ExprKind::Binary(op, a, b) => {
                let Some(x) = self.try_scalar(a, frame)? else {
                    return Ok(None);
                };
                if matches!(op, BinOp::And | BinOp::Or) {
                    // `&&` and `||` short-circuit on scalars (as `eval` does).
                    if let Some(t) = x.as_f64() {
                        let short = if *op == BinOp::And {
                            t == 0.0
                        } else {
                            t != 0.0
                        };
                        if short {
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
            } if crate::fuse::elementwise_builtin(*id, args.len()) => match args.as_slice() {
                [a] => {
                    let Some(x) = self.try_scalar(a, frame)? else {
                        return Ok(None);
                    };
                    self.call_builtin(*id, &[x], e.span)?
                }
                [a, b] => {
                    let Some(x) = self.try_scalar(a, frame)? else {
                        return Ok(None);
                    };
                    let Some(y) = self.try_scalar(b, frame)? else {
                        return Ok(None);
                    };
                    self.call_builtin(*id, &[x, y], e.span)?
                }
                _ => {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        let Some(x) = self.try_scalar(a, frame)? else {
                            return Ok(None);
                        };
                        vals.push(x);
                    }
                    self.call_builtin(*id, &vals, e.span)?
                }
            },
            ExprKind::Index { base, args } if !args.is_empty() && args.len() <= 4 => {
                // An element of a numeric array (not a cell, whose elements may be
                // arrays) at scalar coordinates.
                let ExprKind::Var(v) = base.kind else {
                    return Ok(None);
                };
                let numeric = match self.var_ref(v, frame) {
                    Some(Value::Array(a)) => {
                        a.data.meta_host().is_ok_and(|m| m.elem() != ElemType::Cell)
                    }
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
                        Some(Value::Real(x)) if x.fract() == 0.0 && x.is_finite() => {
                            ints[k] = x as i64
                        }
                        Some(_) => all_int = false,
                    }
                }
                match self.var_ref(v, frame) {
                    Some(Value::Array(arr)) if all_int => {
                        blazar_runtime::index::get_scalar_index(arr, &ints[..args.len()])
                            .at(e.span)?
                    }
                    // Fractional or complex indices: the general way reports them.
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        }))
    }
}
