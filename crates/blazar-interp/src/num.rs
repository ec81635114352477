//! Scalar evaluation without `Value`s: the interpreter's fast path for code that
//! stays dynamic.
//!
//! Most host statements of a scalar loop (`s = 0.5*s + i`, `x != 1`, `A[i, j] = ...`)
//! compute real or int scalars only. [`Interp::num`] evaluates such an expression to a
//! [`Num`], a plain copyable number: no `Result` of a boxed error travels through the
//! walk and no `Value` is built or dropped per node. It gives up (`None`) at the first
//! leaf that is not a real or int scalar and at anything that would fail (an index
//! outside an array, a builtin's error): the caller then evaluates the expression on
//! the general path ([`Interp::eval`]), which gives the same value or reports the error
//! at its place. Giving up late is harmless: what [`Interp::num`] accepts is pure
//! (literals, variables, operators, element-wise builtins, element reads).
//!
//! The operations are those of the general path (`ops::binary_scalar`, the builtin's
//! own function), so the two cannot disagree on a value.

use crate::interp::{Frame, Interp};
use blazar_hir::{BinOp, Callee, Expr, ExprKind, UnOp, Var};
use blazar_runtime::{ElemType, IntTy, Value};
use std::mem::ManuallyDrop;

/// The most nodes [`Interp::num`] looks at in one expression.
const NUM_NODES: u32 = 64;

/// A real or int scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Real(f64),
    Int(i64, IntTy),
}

impl Num {
    /// The number held by `v`, if it is a real or int scalar.
    #[inline(always)]
    pub(crate) fn of(v: &Value) -> Option<Num> {
        match *v {
            Value::Real(x) => Some(Num::Real(x)),
            Value::Int(i, t) => Some(Num::Int(i, t)),
            _ => None,
        }
    }

    #[inline(always)]
    pub(crate) fn value(self) -> Value {
        match self {
            Num::Real(x) => Value::Real(x),
            Num::Int(i, t) => Value::Int(i, t),
        }
    }

    /// Whether it counts as true in a condition.
    #[inline(always)]
    pub(crate) fn truth(self) -> bool {
        match self {
            Num::Real(x) => x != 0.0,
            Num::Int(i, _) => i != 0,
        }
    }

    /// An integer coordinate: an int, or a real with an integer value.
    #[inline(always)]
    pub(crate) fn coord(self) -> Option<i64> {
        match self {
            Num::Int(i, _) => Some(i),
            Num::Real(x) if x.fract() == 0.0 && x.is_finite() => Some(x as i64),
            Num::Real(_) => None,
        }
    }
}

/// Stores `n` in a variable's slot, overwriting a scalar in place.
#[inline(always)]
pub(crate) fn store(slot: &mut Option<Value>, n: Num) {
    match (slot, n) {
        (Some(Value::Real(x)), Num::Real(y)) => *x = y,
        (Some(Value::Int(x, t)), Num::Int(y, u)) => {
            *x = y;
            *t = u;
        }
        (slot, n) => *slot = Some(n.value()),
    }
}

impl<'p> Interp<'p> {
    /// The value of `e` when it is an expression of real and int scalars that evaluates
    /// without an error; `None` otherwise (see the module's comment). It looks at most
    /// [`NUM_NODES`] nodes: the general path, which tries this again on each operand,
    /// then costs a bounded walk per node, not one as deep as a long chain of operators
    /// (a sum of 100,000 array terms).
    #[inline]
    pub(crate) fn num(&mut self, e: &'p Expr, frame: &Frame) -> Option<Num> {
        self.num_left = NUM_NODES;
        self.num_at(e, frame)
    }

    fn num_at(&mut self, e: &'p Expr, frame: &Frame) -> Option<Num> {
        if self.num_left == 0 {
            return None;
        }
        self.num_left -= 1;
        match &e.kind {
            ExprKind::Real(v) => Some(Num::Real(self.prec.round(*v))),
            ExprKind::Int(v) => Some(Num::Int(IntTy::I32.wrap(*v), IntTy::I32)),
            ExprKind::Var(v) => Num::of(self.var_ref(*v, frame)?),
            ExprKind::Binary(op, a, b) => {
                let x = self.num_at(a, frame)?;
                if matches!(op, BinOp::And | BinOp::Or) {
                    // `&&` and `||` short-circuit on scalars (as `eval` does); the
                    // operand left out must be a scalar expression, as the general
                    // path's fused evaluation requires.
                    let short = if *op == BinOp::And {
                        !x.truth()
                    } else {
                        x.truth()
                    };
                    if short {
                        if !self.scalar_tree(b, frame) {
                            return None;
                        }
                        return Some(Num::Real(if *op == BinOp::And { 0.0 } else { 1.0 }));
                    }
                }
                let y = self.num_at(b, frame)?;
                binary(*op, x, y, self.prec)
            }
            ExprKind::Unary(op, a) => {
                let x = self.num_at(a, frame)?;
                match (op, x) {
                    (UnOp::Neg, Num::Real(v)) => Some(Num::Real(-v)),
                    (UnOp::Neg, Num::Int(v, t)) => Some(Num::Int(t.wrap(v.wrapping_neg()), t)),
                    (UnOp::Not, x) => Some(Num::Real(if x.truth() { 0.0 } else { 1.0 })),
                }
            }
            ExprKind::Call {
                callee: Callee::Builtin(id),
                args,
            } => self.num_call(*id, args, e, frame),
            ExprKind::Index { base, args } => self.num_element(base, args, frame),
            _ => None,
        }
    }

    /// [`Interp::num`] of an element-wise builtin's call.
    #[inline(never)]
    fn num_call(&mut self, id: u32, args: &'p [Expr], e: &'p Expr, frame: &Frame) -> Option<Num> {
        if !elementwise(id, args.len()) {
            return None;
        }
        // The arguments are scalars, which own nothing: no drop glue for them.
        let v = match args {
            [a] => {
                let x = ManuallyDrop::new([self.num_at(a, frame)?.value()]);
                self.call_builtin(id, &*x, e.span).ok()?
            }
            [a, b] => {
                let x = self.num_at(a, frame)?.value();
                let y = self.num_at(b, frame)?.value();
                let xy = ManuallyDrop::new([x, y]);
                self.call_builtin(id, &*xy, e.span).ok()?
            }
            _ => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.num_at(a, frame)?.value());
                }
                self.call_builtin(id, &vals, e.span).ok()?
            }
        };
        of_result(v)
    }

    /// [`Interp::num`] of an element of a numeric array (not a cell) at integer
    /// coordinates.
    #[inline(never)]
    fn num_element(&mut self, base: &'p Expr, args: &'p [Expr], frame: &Frame) -> Option<Num> {
        let ExprKind::Var(v) = base.kind else {
            return None;
        };
        if args.is_empty() || args.len() > 4 {
            return None;
        }
        let mut ints = [0i64; 4];
        for (k, a) in args.iter().enumerate() {
            ints[k] = self.num_at(a, frame)?.coord()?;
        }
        self.element_at(v, &ints[..args.len()], frame)
    }

    /// The element of variable `var`, a numeric host array (not a cell), at integer
    /// coordinates; `None` for anything else (the general path then decides).
    pub(crate) fn element_at(&self, var: Var, ints: &[i64], frame: &Frame) -> Option<Num> {
        let Some(Value::Array(arr)) = self.var_ref(var, frame) else {
            return None;
        };
        if !arr
            .data
            .meta_host()
            .is_ok_and(|m| m.elem() != ElemType::Cell)
        {
            return None;
        }
        of_result(blazar_runtime::index::get_scalar_index(arr, ints).ok()?)
    }
}

/// `x op y` by the general path's rules (`ops::binary_scalar`).
#[inline(always)]
pub(crate) fn binary(op: BinOp, x: Num, y: Num, prec: blazar_runtime::Prec) -> Option<Num> {
    // A real operand makes a real operation (as `binary_scalar` decides), computed
    // without building `Value`s.
    use blazar_runtime::ops::real_scalar;
    let rt = crate::eval::rt_op(op).op;
    match (x, y) {
        (Num::Real(a), Num::Real(b)) => return Some(Num::Real(real_scalar(rt, a, b, prec)?)),
        (Num::Real(a), Num::Int(b, u)) => {
            return Some(Num::Real(real_scalar(rt, a, u.to_f64(b), prec)?))
        }
        (Num::Int(a, t), Num::Real(b)) => {
            return Some(Num::Real(real_scalar(rt, t.to_f64(a), b, prec)?))
        }
        (Num::Int(a, t), Num::Int(b, u)) => {
            of_result(blazar_runtime::ops::int_scalar(rt, a, t, b, u, prec)?)
        }
    }
}

/// The number a computed value holds, without running the `Value`'s drop glue when it
/// is one (the common case); anything else is dropped.
#[inline(always)]
pub(crate) fn of_result(v: Value) -> Option<Num> {
    let v = ManuallyDrop::new(v);
    match Num::of(&v) {
        Some(n) => Some(n),
        None => {
            drop(ManuallyDrop::into_inner(v));
            None
        }
    }
}

/// [`crate::fuse::elementwise_builtin`] remembered per builtin in a table shared by all
/// runs: one load per call of a builtin. Each entry holds a bit per argument count
/// below 7 and, in bit 7, whether the entry was filled.
#[inline]
pub(crate) fn elementwise(id: u32, nargs: usize) -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    static TABLE: std::sync::OnceLock<Vec<AtomicU8>> = std::sync::OnceLock::new();
    const FILLED: u8 = 1 << 7;
    if nargs >= 7 {
        return crate::fuse::elementwise_builtin(id, nargs);
    }
    let table = TABLE.get_or_init(|| {
        (0..blazar_runtime::builtins::all().len())
            .map(|_| AtomicU8::new(0))
            .collect()
    });
    let Some(entry) = table.get(id as usize) else {
        return crate::fuse::elementwise_builtin(id, nargs);
    };
    let mut bits = entry.load(Ordering::Relaxed);
    if bits & FILLED == 0 {
        bits = (0..7)
            .filter(|&n| crate::fuse::elementwise_builtin(id, n))
            .fold(FILLED, |m, n| m | 1 << n);
        entry.store(bits, Ordering::Relaxed);
    }
    bits >> nargs & 1 != 0
}
