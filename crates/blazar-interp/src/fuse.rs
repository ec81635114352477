//! Whole-array expressions of host code run as fused kernels.
//!
//! Evaluating an operator, or an element-wise builtin, whose operands include a large
//! array (at least the backend's [`Backend::fuse_min`](crate::Backend::fuse_min)
//! elements, or `Options::fuse_min`), or an array whose data is only on the device,
//! does not compute it: it adds a node to an AIR
//! region ([`blazar_air::Builder`]) and hands the node to its parent. The expression's
//! root (or the first operation AIR cannot express) then lowers the region to one KIR
//! kernel (`blazar_passes::lower_region`, cached by region) and launches it through the
//! backend like any `parallel_do`: the result array comes from `Backend::alloc`, so on
//! a GPU it never exists on the host. Operands are evaluated in source order as on the
//! host; an operation the region cannot take (a type AIR does not cover, shapes that do
//! not broadcast) runs on the host, which reports its errors where they occur.

use crate::error::{At, RunError, R};
use crate::interp::{Frame, Interp};
use crate::launch::{elem_scalar, scalar_of, Flat};
use blazar_air::{Arg, Axis, Builder, Finished, HostOp, NodeRef, Reduce, Region, ScalarArg};
use blazar_diagnostics::Span;
use blazar_hir::{BinOp, Callee, Expr, ExprKind, UnOp};
use blazar_kir::{Kernel, Scalar};
use blazar_launch::{KValue, LaunchPlan};
use blazar_runtime::index::IndexArg;
use blazar_runtime::{builtins, ArrayRef, ElemType, Value};
use std::collections::HashMap;
use std::rc::Rc;

/// Threads of a whole-array reduction (a multiple of every default block size).
const REDUCE_THREADS: usize = 1 << 18;

/// Kernels made from regions, by region.
#[derive(Default)]
pub struct FusedCache {
    map: HashMap<Region, Rc<Kernel>>,
    /// Kernels made per source line so far (the second one of a line is `_2`, ...).
    per_line: HashMap<u32, u32>,
}

/// An operand while a region grows: a host value (`konst`: a literal of the source),
/// or a node of the region.
enum Operand {
    Val(Value, bool),
    Node(NodeRef),
}

/// The region being built and the arrays it reads, by key.
struct Fusion {
    b: Builder,
    arrays: Vec<(usize, ArrayRef)>,
    /// The array the assigned variable held, which the result may overwrite (see
    /// [`Interp::eval_fused_into`]).
    recycle: Option<ArrayRef>,
}

/// One-argument builtins AIR fuses.
const UNARY: &[&str] = &[
    "sqrt", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "abs", "floor", "ceil", "round", "frac", "sign", "isnan", "isinf",
    "isfinite", "int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float",
];

/// Whether `e` is an expression a region can start from.
pub fn fusable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(..) | ExprKind::Unary(..) => true,
        ExprKind::Index { args, .. } => is_slice(args),
        ExprKind::Call {
            callee: Callee::Builtin(id),
            args,
        } => builtin_op(*id, args.len()).is_some(),
        _ => false,
    }
}

/// The element type of arrays of KIR scalar type `s`.
fn elem_type(s: Scalar) -> ElemType {
    match s {
        Scalar::F32 => ElemType::F32,
        Scalar::F64 => ElemType::F64,
        Scalar::C32 => ElemType::C32,
        Scalar::C64 => ElemType::C64,
        s => ElemType::Int(crate::launch::int_of(s)),
    }
}

/// Whether `e` calls no user function or closure (so evaluating it cannot keep a
/// reference to an array anywhere).
pub fn pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Var(_) | ExprKind::Colon => true,
        ExprKind::Unary(_, a) => pure(a),
        ExprKind::Binary(_, a, b) => pure(a) && pure(b),
        ExprKind::Range { start, step, end } => {
            pure(start) && step.as_deref().is_none_or(pure) && pure(end)
        }
        ExprKind::Index { base, args } => pure(base) && args.iter().all(pure),
        ExprKind::Call {
            callee: Callee::Builtin(_),
            args,
        } => args.iter().all(pure),
        _ => false,
    }
}

/// Whether an index list selects a slice (some `:` or range).
fn is_slice(args: &[Expr]) -> bool {
    args.iter()
        .any(|a| matches!(a.kind, ExprKind::Colon | ExprKind::Range { .. }))
}

/// Elements of an inclusive range (0 when it goes the wrong way).
fn range_len(start: i64, step: i64, end: i64) -> i64 {
    if (step > 0 && end < start) || (step < 0 && end > start) || step == 0 {
        0
    } else {
        (end - start) / step + 1
    }
}

#[derive(Clone, Copy)]
enum BuiltinOp {
    Unary(&'static str),
    Binary(HostOp),
    /// A reduction over all elements; `mean` divides the sum by their number.
    Reduce(Reduce, bool),
    /// The same along one dimension (`sum(x, d)`).
    ReduceAlong(Reduce, bool),
    /// Data movement: `copy`, `transpose`, `repmat`.
    Move(Move),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Move {
    Copy,
    Transpose,
    Repmat,
}

fn builtin_op(id: u32, nargs: usize) -> Option<BuiltinOp> {
    let name = builtins::get(id).name;
    match (name, nargs) {
        ("min", 2) => Some(BuiltinOp::Binary(HostOp::Min)),
        ("max", 2) => Some(BuiltinOp::Binary(HostOp::Max)),
        ("mod", 2) => Some(BuiltinOp::Binary(HostOp::Mod)),
        ("atan2", 2) => Some(BuiltinOp::Binary(HostOp::Atan2)),
        ("pow", 2) => Some(BuiltinOp::Binary(HostOp::Pow)),
        ("sum", 1) => Some(BuiltinOp::Reduce(Reduce::Sum, false)),
        ("mean", 1) => Some(BuiltinOp::Reduce(Reduce::Sum, true)),
        ("prod", 1) => Some(BuiltinOp::Reduce(Reduce::Prod, false)),
        ("min", 1) => Some(BuiltinOp::Reduce(Reduce::Min, false)),
        ("max", 1) => Some(BuiltinOp::Reduce(Reduce::Max, false)),
        ("sum", 2) => Some(BuiltinOp::ReduceAlong(Reduce::Sum, false)),
        ("mean", 2) => Some(BuiltinOp::ReduceAlong(Reduce::Sum, true)),
        ("prod", 2) => Some(BuiltinOp::ReduceAlong(Reduce::Prod, false)),
        ("copy", 1) => Some(BuiltinOp::Move(Move::Copy)),
        ("transpose", 1) => Some(BuiltinOp::Move(Move::Transpose)),
        ("repmat", n) if n >= 2 => Some(BuiltinOp::Move(Move::Repmat)),
        (n, 1) => UNARY.iter().find(|u| **u == n).map(|u| BuiltinOp::Unary(u)),
        _ => None,
    }
}

impl<'p> Interp<'p> {
    /// Evaluates a [`fusable`] expression, as a fused kernel where its arrays are large.
    pub fn eval_fused(&mut self, e: &'p Expr, frame: &mut Frame) -> R<Value> {
        let mut f = self.fusion();
        let o = self.operand(e, frame, &mut f)?;
        self.force(o, &mut f, e.span)
    }

    /// As [`Interp::eval_fused`] for `v = e`, where `old` is the array `v` holds: when
    /// nothing else refers to it and it has the result's shape and type, the kernel
    /// writes the result into it instead of a new array (no allocation, no page
    /// faults), as `out[i] = f(..., old[i], ...)` allows: each element is read before
    /// it is written, at the same position.
    pub fn eval_fused_into(
        &mut self,
        e: &'p Expr,
        old: Option<ArrayRef>,
        frame: &mut Frame,
    ) -> R<Value> {
        let mut f = self.fusion();
        f.recycle = old;
        let o = self.operand(e, frame, &mut f)?;
        self.force(o, &mut f, e.span)
    }

    /// The recycled array, if the result of `done` may overwrite it.
    fn recyclable(&self, done: &Finished, elem: ElemType, f: &mut Fusion) -> Option<ArrayRef> {
        let r = f.recycle.take()?;
        let key = Rc::as_ptr(&r.data) as usize;
        let read = f.arrays.iter().any(|(k, _)| *k == key);
        // Held by the variable, by `recycle`, and by the region's inputs if it is one.
        let holders = 2 + read as usize;
        let meta = r.data.meta().ok()?;
        let fits = meta.dims == done.dims && meta.elem() == elem;
        let safe = !read
            || (done.region.flat
                && done
                    .args
                    .iter()
                    .all(|a| !matches!(a, Arg::View(k, _) if *k == key)));
        let placed = !self.device_arrays || r.data.residency() != blazar_runtime::Residency::Host;
        drop(meta);
        (fits && safe && placed && Rc::strong_count(&r.data) <= holders).then_some(r)
    }

    fn operand(&mut self, e: &'p Expr, frame: &mut Frame, f: &mut Fusion) -> R<Operand> {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Real(_) => Ok(Operand::Val(self.eval(e, frame)?, true)),
            ExprKind::Binary(op, a, b) => {
                let x = self.operand(a, frame, f)?;
                if matches!(op, BinOp::And | BinOp::Or) {
                    if let Operand::Val(v, _) = &x {
                        if !matches!(v, Value::Array(_)) {
                            // Scalars short-circuit on the host.
                            let v = v.clone();
                            return self.short_circuit(*op, v, b, frame, e.span);
                        }
                    }
                }
                let y = self.operand(b, frame, f)?;
                let host = match op {
                    BinOp::Add => Some(HostOp::Add),
                    BinOp::Sub => Some(HostOp::Sub),
                    BinOp::Mul if self.scalar_side(&x) || self.scalar_side(&y) => Some(HostOp::Mul),
                    BinOp::EMul => Some(HostOp::Mul),
                    BinOp::Div | BinOp::EDiv => Some(HostOp::Div),
                    BinOp::Pow | BinOp::EPow => Some(HostOp::Pow),
                    BinOp::Eq => Some(HostOp::Eq),
                    BinOp::Ne => Some(HostOp::Ne),
                    BinOp::Lt => Some(HostOp::Lt),
                    BinOp::Gt => Some(HostOp::Gt),
                    BinOp::Le => Some(HostOp::Le),
                    BinOp::Ge => Some(HostOp::Ge),
                    BinOp::And => Some(HostOp::And),
                    BinOp::Or => Some(HostOp::Or),
                    BinOp::Mul => None,
                };
                self.combine(host, [x, y], f, e.span, &|it, [x, y], span| {
                    it.binary(*op, &x, &y, span)
                })
            }
            ExprKind::Index { base, args } if is_slice(args) => {
                let b = self.eval(base, frame)?;
                let Value::Array(arr) = &b else {
                    return Ok(Operand::Val(
                        self.index_value(&b, args, frame, e.span)?,
                        false,
                    ));
                };
                let idx = self.index_args(args, frame)?;
                if self.big(&Operand::Val(b.clone(), false)) {
                    if let Some(n) = self.view_node(arr, &idx, f) {
                        return Ok(Operand::Node(n));
                    }
                }
                let v = blazar_runtime::index::get(arr, &idx).at(e.span)?;
                Ok(Operand::Val(v, false))
            }
            ExprKind::Unary(op, a) => {
                let x = self.operand(a, frame, f)?;
                let grow = |b: &mut Builder, [n]: [NodeRef; 1]| match op {
                    UnOp::Neg => b.neg(n),
                    UnOp::Not => b.not(n),
                };
                self.grow([x], f, e.span, &grow, &|it, [x], span| {
                    it.unary(*op, &x, span)
                })
            }
            ExprKind::Call {
                callee: Callee::Builtin(id),
                args,
            } => match builtin_op(*id, args.len()) {
                Some(BuiltinOp::Unary(name)) => {
                    let x = self.operand(&args[0], frame, f)?;
                    let grow = |b: &mut Builder, [n]: [NodeRef; 1]| b.math(name, n);
                    self.grow([x], f, e.span, &grow, &|it, [x], span| {
                        it.call_builtin(*id, &[x], span)
                    })
                }
                Some(BuiltinOp::Binary(op)) => {
                    let x = self.operand(&args[0], frame, f)?;
                    let y = self.operand(&args[1], frame, f)?;
                    self.combine(Some(op), [x, y], f, e.span, &|it, [x, y], span| {
                        it.call_builtin(*id, &[x, y], span)
                    })
                }
                Some(BuiltinOp::Reduce(r, mean)) => {
                    let x = self.operand(&args[0], frame, f)?;
                    if self.big(&x) {
                        if let Some(n) = self.node_of(&x, f) {
                            if let Some(v) = self.reduce(n, r, mean, f, e.span)? {
                                return Ok(Operand::Val(v, false));
                            }
                        }
                    }
                    let x = self.force(x, f, e.span)?;
                    Ok(Operand::Val(self.call_builtin(*id, &[x], e.span)?, false))
                }
                Some(BuiltinOp::ReduceAlong(r, mean)) => {
                    let x = self.operand(&args[0], frame, f)?;
                    let d = self.eval(&args[1], frame)?;
                    if self.big(&x) {
                        if let (Some(n), Some(axis)) = (self.node_of(&x, f), d.as_i64()) {
                            if let Some(v) = self.reduce_along(n, r, axis, mean, f, e.span)? {
                                return Ok(Operand::Val(v, false));
                            }
                        }
                    }
                    let x = self.force(x, f, e.span)?;
                    Ok(Operand::Val(
                        self.call_builtin(*id, &[x, d], e.span)?,
                        false,
                    ))
                }
                Some(BuiltinOp::Move(m)) => {
                    let x = self.operand(&args[0], frame, f)?;
                    let mut rest = Vec::with_capacity(args.len() - 1);
                    for a in &args[1..] {
                        rest.push(self.eval(a, frame)?);
                    }
                    if m == Move::Copy && matches!(x, Operand::Node(_)) {
                        // The copy of a computed value is that value.
                        return Ok(x);
                    }
                    let big = self.big(&x);
                    let x = self.force(x, f, e.span)?;
                    if let (true, Value::Array(arr)) = (big, &x) {
                        if let Some(n) = self.move_node(m, arr, &rest, f) {
                            return Ok(Operand::Node(n));
                        }
                    }
                    let mut all = vec![x];
                    all.extend(rest);
                    Ok(Operand::Val(self.call_builtin(*id, &all, e.span)?, false))
                }
                None => Ok(Operand::Val(self.eval(e, frame)?, false)),
            },
            _ => Ok(Operand::Val(self.eval(e, frame)?, false)),
        }
    }

    /// `&&` or `||` with a scalar left operand: the right one only when it decides.
    fn short_circuit(
        &mut self,
        op: BinOp,
        x: Value,
        b: &'p Expr,
        frame: &mut Frame,
        span: Span,
    ) -> R<Operand> {
        if let Some(t) = x.as_f64() {
            let short = if op == BinOp::And { t == 0.0 } else { t != 0.0 };
            if short {
                let v = if op == BinOp::And { 0.0 } else { 1.0 };
                return Ok(Operand::Val(Value::Real(v), false));
            }
        }
        let y = self.eval(b, frame)?;
        Ok(Operand::Val(self.binary(op, &x, &y, span)?, false))
    }

    /// Whether an operand is a scalar (so that `*` is element-wise).
    fn scalar_side(&self, o: &Operand) -> bool {
        match o {
            Operand::Val(v, _) => !matches!(v, Value::Array(_)),
            Operand::Node(_) => false,
        }
    }

    fn combine(
        &mut self,
        op: Option<HostOp>,
        ops: [Operand; 2],
        f: &mut Fusion,
        span: Span,
        host: &dyn Fn(&mut Self, [Value; 2], Span) -> R<Value>,
    ) -> R<Operand> {
        match op {
            Some(op) => {
                let grow = |b: &mut Builder, [x, y]: [NodeRef; 2]| b.binary(op, x, y);
                self.grow(ops, f, span, &grow, host)
            }
            None => {
                let [x, y] = ops;
                let (x, y) = (self.force(x, f, span)?, self.force(y, f, span)?);
                Ok(Operand::Val(host(self, [x, y], span)?, false))
            }
        }
    }

    /// Adds one operation to the region when an operand is a node or a large array;
    /// otherwise (or when the region cannot take it) runs `host` on the values.
    fn grow<const N: usize>(
        &mut self,
        ops: [Operand; N],
        f: &mut Fusion,
        span: Span,
        grow: &dyn Fn(&mut Builder, [NodeRef; N]) -> Option<NodeRef>,
        host: &dyn Fn(&mut Self, [Value; N], Span) -> R<Value>,
    ) -> R<Operand> {
        if ops.iter().any(|o| self.big(o)) {
            let nodes: Option<Vec<NodeRef>> = ops.iter().map(|o| self.node_of(o, f)).collect();
            if let Some(nodes) = nodes {
                let nodes: [NodeRef; N] = nodes.try_into().expect("one node per operand");
                if let Some(n) = grow(&mut f.b, nodes) {
                    return Ok(Operand::Node(n));
                }
            }
        }
        let mut vals = Vec::with_capacity(N);
        for o in ops {
            vals.push(self.force(o, f, span)?);
        }
        let vals: [Value; N] = vals.try_into().ok().expect("one value per operand");
        Ok(Operand::Val(host(self, vals, span)?, false))
    }

    /// Whether an operand joins a region: a node, or an array large enough (or only on
    /// the device).
    fn big(&self, o: &Operand) -> bool {
        match o {
            Operand::Node(_) => true,
            Operand::Val(Value::Array(a), _) => {
                a.data.meta().is_ok_and(|m| m.len() >= self.fuse_min)
                    || (self.device_arrays
                        && a.data.residency() == blazar_runtime::Residency::Device)
            }
            Operand::Val(..) => false,
        }
    }

    /// The region node of an operand, adding an input for a value (`None` for values a
    /// region cannot read: cells, strings, complex numbers, ...).
    fn node_of(&self, o: &Operand, f: &mut Fusion) -> Option<NodeRef> {
        match o {
            Operand::Node(n) => Some(*n),
            Operand::Val(Value::Real(x), konst) => {
                Some(f.b.scalar(ScalarArg::Real(*x), Scalar::F64, *konst))
            }
            Operand::Val(Value::Int(i, t), konst) => {
                Some(f.b.scalar(ScalarArg::Int(*i), scalar_of(*t), *konst))
            }
            Operand::Val(Value::Array(a), _) => {
                let m = a.data.meta().ok()?;
                let elem = elem_scalar(m.elem())?;
                if m.len() > i32::MAX as usize {
                    return None;
                }
                let key = Rc::as_ptr(&a.data) as usize;
                let n = f.b.array(key, elem, &m.dims)?;
                if !f.arrays.iter().any(|(k, _)| *k == key) {
                    f.arrays.push((key, a.clone()));
                }
                Some(n)
            }
            Operand::Val(..) => None,
        }
    }

    /// `arr[index] = v` with a large `arr` and a mask `index` (a comparison or logic
    /// result of `arr`'s shape) as one in-place kernel: `Ok(None)`. Otherwise the index's
    /// value, for the host to store through.
    pub fn masked_store(
        &mut self,
        arr: &ArrayRef,
        index: &'p Expr,
        v: &Value,
        frame: &mut Frame,
        span: Span,
    ) -> R<Option<Value>> {
        let mut f = self.fusion();
        let o = self.operand(index, frame, &mut f)?;
        let whole = Operand::Val(Value::Array(arr.clone()), false);
        if let (Operand::Node(mask), true) = (&o, self.big(&whole)) {
            let old = self.node_of(&whole, &mut f);
            let value = self.node_of(&Operand::Val(v.clone(), false), &mut f);
            if let (Some(old), Some(value)) = (old, value) {
                if let Some(n) = f.b.masked(old, *mask, value) {
                    if let Some(done) = f.b.finish(n, None) {
                        self.launch_region(&done, Some(arr.clone()), &f, span)?;
                        return Ok(None);
                    }
                }
            }
        }
        self.force(o, &mut f, span).map(Some)
    }

    /// Whether `arr[index] = v` may run as a masked kernel: fusion is on, `arr` is
    /// large, and the index is an expression (not `:` or a range).
    pub fn fuses_into(&self, arr: &ArrayRef, index: &Expr) -> bool {
        self.fuse_min != usize::MAX
            && !matches!(index.kind, ExprKind::Colon | ExprKind::Range { .. })
            && self.big(&Operand::Val(Value::Array(arr.clone()), false))
    }

    fn fusion(&self) -> Fusion {
        Fusion {
            b: Builder::new(match self.prec {
                blazar_runtime::Prec::Single => blazar_air::Prec::Single,
                blazar_runtime::Prec::Double => blazar_air::Prec::Double,
            }),
            arrays: Vec::new(),
            recycle: None,
        }
    }

    /// `copy`, `transpose` or `repmat` of `arr` as a node (a view through an index
    /// map); `None` where the host's rules need more (a vec, a bad repetition count).
    fn move_node(
        &self,
        m: Move,
        arr: &ArrayRef,
        rest: &[Value],
        f: &mut Fusion,
    ) -> Option<NodeRef> {
        if m == Move::Copy {
            return self.node_of(&Operand::Val(Value::Array(arr.clone()), false), f);
        }
        let meta = arr.data.meta().ok()?;
        let elem = elem_scalar(meta.elem())?;
        let src = meta.dims.clone();
        drop(meta);
        if src.len() < 2 || src.len() > 4 {
            return None;
        }
        // The result's dimensions before the host drops leading units, and per array
        // dimension the result dimension it runs along.
        let (full, along): (Vec<usize>, Vec<usize>) = match m {
            Move::Transpose if src.len() == 2 => (vec![src[1], src[0]], vec![1, 0]),
            Move::Repmat => {
                let reps: Vec<i64> = match rest {
                    [Value::Array(r)] => {
                        let a = r.data.try_borrow().ok()?;
                        (0..a.len()).map(|i| a.buf.get_f64(i) as i64).collect()
                    }
                    vals => vals.iter().map(|v| v.as_i64()).collect::<Option<_>>()?,
                };
                if reps.iter().any(|&k| k < 1) || reps.len() > 4 {
                    return None;
                }
                let r = src.len().max(reps.len());
                let full = (0..r)
                    .map(|k| src.get(k).copied().unwrap_or(1) * *reps.get(k).unwrap_or(&1) as usize)
                    .collect();
                (full, (0..src.len()).collect())
            }
            _ => return None,
        };
        let dims = blazar_runtime::Array::canonical_dims(&full);
        let dropped = full.len() - dims.len();
        if dims.iter().product::<usize>() == 0 || dims.len() > 4 {
            return None;
        }
        let (mut axes, mut params) = (Vec::new(), Vec::new());
        for (j, &d) in along.iter().enumerate() {
            if d < dropped {
                axes.push(Axis::Fixed);
                params.push(0);
            } else if m == Move::Repmat {
                axes.push(Axis::Tile((d - dropped) as u8));
                params.push(src[j] as i64);
            } else {
                axes.push(Axis::Range((d - dropped) as u8));
                params.extend([0, 1]);
            }
        }
        let key = Rc::as_ptr(&arr.data) as usize;
        let n = f.b.view(key, elem, axes, params, dims)?;
        if !f.arrays.iter().any(|(k, _)| *k == key) {
            f.arrays.push((key, arr.clone()));
        }
        Some(n)
    }

    /// A slice of `arr` as a view node, when every index is inside the array (else the
    /// host reads it and reports what is wrong).
    fn view_node(&self, arr: &ArrayRef, idx: &[IndexArg], f: &mut Fusion) -> Option<NodeRef> {
        let m = arr.data.meta().ok()?;
        let elem = elem_scalar(m.elem())?;
        if m.dims.len() != idx.len() || m.len() > i32::MAX as usize {
            return None;
        }
        let (mut axes, mut params, mut dims) = (Vec::new(), Vec::new(), Vec::new());
        for (a, &n) in idx.iter().zip(&m.dims) {
            let n = n as i64;
            let (start, step, len) = match a {
                IndexArg::All => (0, 1, n),
                IndexArg::Range { start, step, end } => {
                    (*start, *step, range_len(*start, *step, *end))
                }
                IndexArg::Value(v) => {
                    let i = match v {
                        Value::Int(i, _) => *i,
                        Value::Real(x) if x.fract() == 0.0 => *x as i64,
                        _ => return None,
                    };
                    if !(0..n).contains(&i) {
                        return None;
                    }
                    axes.push(Axis::Fixed);
                    params.push(i);
                    continue;
                }
            };
            let last = start.checked_add(step.checked_mul(len - 1)?)?;
            if len <= 0 || !(0..n).contains(&start) || !(0..n).contains(&last) {
                return None;
            }
            axes.push(Axis::Range(dims.len() as u8));
            params.extend([start, step]);
            dims.push(len as usize);
        }
        let key = Rc::as_ptr(&arr.data) as usize;
        let n = f.b.view(key, elem, axes, params, dims)?;
        if !f.arrays.iter().any(|(k, _)| *k == key) {
            f.arrays.push((key, arr.clone()));
        }
        Some(n)
    }

    /// The value of an operand: a node's region runs as a kernel.
    fn force(&mut self, o: Operand, f: &mut Fusion, span: Span) -> R<Value> {
        let n = match o {
            Operand::Val(v, _) => return Ok(v),
            Operand::Node(n) => n,
        };
        let Some(done) = f.b.finish(n, None) else {
            return Err(RunError::new(
                span,
                "internal error: a region without an array",
            ));
        };
        let elem = elem_type(done.region.elem());
        let out = match self.recyclable(&done, elem, f) {
            Some(r) => r,
            None => self
                .backend_ref(span)?
                .0
                .try_borrow_mut()
                .map_err(|_| RunError::new(span, "an array operation inside a kernel"))?
                .alloc(done.dims.clone(), elem)
                .map_err(|m| RunError::new(span, m))?,
        };
        if done.dims.iter().product::<usize>() > 0 {
            self.launch_region(&done, Some(out.clone()), f, span)?;
        }
        Ok(Value::Array(out))
    }

    /// `sum`, `prod`, `min`, `max` or (`mean`) of node `n`'s elements as one kernel;
    /// `None` leaves it to the host (an empty array, an accumulator AIR does not have).
    fn reduce(
        &mut self,
        n: NodeRef,
        r: Reduce,
        mean: bool,
        f: &mut Fusion,
        span: Span,
    ) -> R<Option<Value>> {
        let Some(done) = f.b.finish(n, Some(r)) else {
            return Ok(None);
        };
        let numel: usize = done.dims.iter().product();
        let Some((_, acc)) = done.region.reduce else {
            return Ok(None);
        };
        if numel == 0 {
            return Ok(None);
        }
        let outs = self.launch_region(&done, None, f, span)?;
        if let Some(KValue::Int(0)) = outs.get(1) {
            // min/max of reals that are all NaN.
            return Ok(Some(Value::Real(f64::NAN)));
        }
        let Some(v) = outs.into_iter().next() else {
            return Err(RunError::new(
                span,
                "internal error: a reduction without its value",
            ));
        };
        Ok(Some(match (v, mean) {
            (KValue::Float(x), true) => Value::Real(self.prec.round(x / numel as f64)),
            (KValue::Int(i), true) => Value::Real(self.prec.round(i as f64 / numel as f64)),
            (KValue::Float(x), false) => Value::Real(self.prec.round(x)),
            (KValue::Int(i), false) => Value::Int(i, crate::launch::int_of(acc)),
            _ => return Err(RunError::new(span, "internal error: a reduction's type")),
        }))
    }

    /// `sum`, `prod` or `mean` of node `n` along dimension `axis` (of `size`, so a
    /// matrix or larger) as one kernel; `None` leaves it to the host (a vec, an axis
    /// past the rank, a one-element or empty result, an accumulator AIR lacks).
    fn reduce_along(
        &mut self,
        n: NodeRef,
        r: Reduce,
        axis: i64,
        mean: bool,
        f: &mut Fusion,
        span: Span,
    ) -> R<Option<Value>> {
        let Ok(axis) = usize::try_from(axis) else {
            return Ok(None);
        };
        let Some(done) = f.b.finish_along(n, r, axis, mean) else {
            return Ok(None);
        };
        let numel: usize = done.dims.iter().product();
        let Some(along) = done.region.along else {
            return Ok(None);
        };
        if numel <= 1 || done.along_len == 0 {
            return Ok(None);
        }
        let elem = elem_type(along.elem);
        let out = self
            .backend_ref(span)?
            .0
            .try_borrow_mut()
            .map_err(|_| RunError::new(span, "an array operation inside a kernel"))?
            .alloc(done.dims.clone(), elem)
            .map_err(|m| RunError::new(span, m))?;
        self.launch_region(&done, Some(out.clone()), f, span)?;
        // The host's shape: leading unit dimensions dropped (the elements' order is
        // the same).
        let canonical = blazar_runtime::Array::canonical_dims(&done.dims);
        if let Ok(mut a) = out.data.host_unsynced().try_borrow_mut() {
            a.dims = canonical;
        }
        Ok(Some(Value::Array(out)))
    }

    fn backend_ref(&self, span: Span) -> R<crate::BackendRef> {
        self.backend
            .clone()
            .ok_or_else(|| RunError::new(span, "no backend to run array operations was given"))
    }

    /// Launches the kernel of a finished region: over its result array `out`, or, for
    /// a reduction, returning the kernel's output.
    fn launch_region(
        &mut self,
        done: &Finished,
        out: Option<ArrayRef>,
        f: &Fusion,
        span: Span,
    ) -> R<Vec<KValue>> {
        let kernel = self.fused_kernel(&done.region, span);
        let mut flat = Vec::with_capacity(done.args.len() + 1);
        flat.extend(out.map(Flat::Array));
        for a in &done.args {
            flat.push(match a {
                Arg::Array(k) => match f.arrays.iter().find(|(key, _)| key == k) {
                    Some((_, arr)) => Flat::Array(arr.clone()),
                    None => return Err(RunError::new(span, "internal error: a lost array")),
                },
                Arg::View(k, params) => {
                    match f.arrays.iter().find(|(key, _)| key == k) {
                        Some((_, arr)) => flat.push(Flat::Array(arr.clone())),
                        None => return Err(RunError::new(span, "internal error: a lost array")),
                    }
                    flat.extend(params.iter().map(|p| Flat::Value(KValue::Int(*p))));
                    continue;
                }
                Arg::Scalar(ScalarArg::Int(i)) => Flat::Value(KValue::Int(*i)),
                Arg::Scalar(ScalarArg::Real(x)) => Flat::Value(KValue::Float(*x)),
            });
        }
        let numel: usize = done.dims.iter().product();
        if done.region.along.is_some() {
            flat.push(Flat::Value(KValue::Int(done.along_len as i64)));
        }
        let space: Vec<usize> = if done.region.flat && done.region.reduce.is_some() {
            // Grid-stride reduction: a fixed pool of threads (every CPU work item and
            // enough warps to fill a GPU), each summing numel/threads elements.
            let threads = numel.min(REDUCE_THREADS);
            flat.push(Flat::Value(KValue::Int(numel as i64)));
            flat.push(Flat::Value(KValue::Int(threads as i64)));
            vec![threads]
        } else if done.region.flat {
            vec![numel]
        } else {
            done.dims.clone()
        };
        let mut plan = LaunchPlan {
            rank: kernel.rank,
            data_dims: [1; 4],
            block_dims: [1; 4],
            serial: false,
            block_given: false,
        };
        plan.data_dims[..space.len()].copy_from_slice(&space);
        let block = crate::dims::default_block(&space);
        plan.block_dims[..block.len()].copy_from_slice(&block);
        let name = kernel.name.clone();
        self.run_kernel_raw(&kernel, &plan, flat, &name, span)
    }

    /// The kernel of `region`, lowered once.
    fn fused_kernel(&mut self, region: &Region, span: Span) -> Rc<Kernel> {
        if let Some(k) = self.fused.map.get(region) {
            return k.clone();
        }
        let line = self.sources.line_of(span) as u32;
        let n = self.fused.per_line.entry(line).or_insert(0);
        *n += 1;
        let name = match *n {
            1 => format!("array_line{line}"),
            n => format!("array_line{line}_{n}"),
        };
        let k = Rc::new(blazar_passes::lower_region(region, &name, line));
        self.fused.map.insert(region.clone(), k.clone());
        self.kernels.record(k.clone());
        k
    }
}
