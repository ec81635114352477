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
//!
//! This file grows regions from expressions; `views` reads arrays through index maps
//! (slices, `copy`, `transpose`, `repmat`), `reduce` ends regions in reductions,
//! `store` decides where results go (reused arrays, masked assignment), and `run`
//! lowers and launches a finished region.

mod blocks;
mod group;
mod join;
mod reduce;
mod run;
mod scan;
mod store;
mod views;

use join::JoinFn;
pub use store::pure;
use views::{is_slice, Move};

use crate::error::{At, RunError, R};
use crate::interp::{Frame, Interp};
use crate::launch::{elem_scalar, scalar_of, Flat};
use blazar_air::{Arg, Axis, Binary, Builder, Finished, NodeRef, Reduce, Region, ScalarArg};
use blazar_diagnostics::Span;
use blazar_hir::{BinOp, Callee, Expr, ExprKind, UnOp};
use blazar_kir::{BinOp as KBinOp, Kernel, MathFn, Scalar};
use blazar_launch::{KValue, LaunchPlan};
use blazar_ops::Fuse;
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
    /// Whole-array reductions use a grid stride (the backend's choice, fixed per run).
    pub grid_stride: bool,
    /// Kernels made per source line so far (the second one of a line is `_2`, ...).
    per_line: HashMap<u32, u32>,
    /// Every region lowered, with its kernel's name, in order (`blazar emit air`).
    pub regions: Vec<(String, Region)>,
    /// The first and last lines of the fused statement group being run (`fuse/group.rs`).
    pub(crate) group: Option<(u32, u32)>,
    /// Result arrays regions allocated so far (`--profile` shows those of fused groups).
    pub(crate) allocs: std::cell::Cell<u64>,
}

impl FusedCache {
    pub fn new(grid_stride: bool) -> FusedCache {
        FusedCache {
            grid_stride,
            ..Default::default()
        }
    }
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
    /// Intermediates of a fused statement group bound to nodes (`fuse/group.rs`).
    pending: Vec<(blazar_hir::Var, NodeRef)>,
}

/// The conversions AIR fuses (math functions: their rows in `blazar_ops::MATH`).
const CONVERSIONS: &[&str] = &[
    "int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float",
    "double", "single",
];

/// Whether `e` is an expression a region can start from.
pub fn fusable(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(..) | ExprKind::Unary(..) => true,
        ExprKind::Index { args, .. } => is_slice(args),
        ExprKind::Matrix(items) => join::joins_arrays(items),
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

#[derive(Clone, Copy)]
enum BuiltinOp {
    Unary(&'static str),
    Binary(Binary),
    /// A reduction over all elements; `mean` divides the sum by their number.
    Reduce(Reduce, bool),
    /// The same along one dimension (`sum(x, d)`).
    ReduceAlong(Reduce, bool),
    /// Data movement: `copy`, `transpose`, `repmat`.
    Move(Move),
    /// A running sum or product (`cumsum`, `cumprod`).
    Scan(Reduce),
    /// `cat`, `horzcat`, `vertcat`.
    Join(JoinFn),
}

/// The fused operation of builtin `id` called with `nargs` arguments, looked up by name
/// once per builtin and arity and then cached (every evaluation of a call asks).
fn builtin_op(id: u32, nargs: usize) -> Option<BuiltinOp> {
    const ARITIES: usize = 4;
    thread_local! {
        static OPS: std::cell::RefCell<Vec<[Option<Option<BuiltinOp>>; ARITIES]>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    if nargs >= ARITIES {
        return builtin_op_by_name(id, nargs);
    }
    OPS.with(|ops| {
        let mut ops = ops.borrow_mut();
        let i = id as usize;
        if ops.len() <= i {
            ops.resize(i + 1, [None; ARITIES]);
        }
        *ops[i][nargs].get_or_insert_with(|| builtin_op_by_name(id, nargs))
    })
}

/// Whether builtin `id` with `nargs` arguments is element-wise (a math function or an
/// operator): on scalars it gives a scalar (`interp::scalar`).
pub(crate) fn elementwise_builtin(id: u32, nargs: usize) -> bool {
    matches!(
        builtin_op(id, nargs),
        Some(BuiltinOp::Unary(_) | BuiltinOp::Binary(_))
    )
}

fn builtin_op_by_name(id: u32, nargs: usize) -> Option<BuiltinOp> {
    let name = builtins::get(id).name;
    if let Some(f) = MathFn::from_name(name, nargs).filter(|f| f.def().fuse != Fuse::No) {
        return Some(match nargs {
            1 => BuiltinOp::Unary(f.name()),
            _ => BuiltinOp::Binary(Binary::Math(f)),
        });
    }
    if let Some(op) = KBinOp::from_builtin(name).filter(|op| nargs == 2 && !op.is_bitwise()) {
        return Some(BuiltinOp::Binary(Binary::Op(op)));
    }
    match (name, nargs) {
        ("sum", 1) => Some(BuiltinOp::Reduce(Reduce::Sum, false)),
        ("mean", 1) => Some(BuiltinOp::Reduce(Reduce::Sum, true)),
        ("prod", 1) => Some(BuiltinOp::Reduce(Reduce::Prod, false)),
        ("min", 1) => Some(BuiltinOp::Reduce(Reduce::Min, false)),
        ("max", 1) => Some(BuiltinOp::Reduce(Reduce::Max, false)),
        ("sum", 2) => Some(BuiltinOp::ReduceAlong(Reduce::Sum, false)),
        ("mean", 2) => Some(BuiltinOp::ReduceAlong(Reduce::Sum, true)),
        ("prod", 2) => Some(BuiltinOp::ReduceAlong(Reduce::Prod, false)),
        ("cumsum", 1 | 2) => Some(BuiltinOp::Scan(Reduce::Sum)),
        ("cumprod", 1 | 2) => Some(BuiltinOp::Scan(Reduce::Prod)),
        ("copy", 1) => Some(BuiltinOp::Move(Move::Copy)),
        ("transpose", 1) => Some(BuiltinOp::Move(Move::Transpose)),
        ("repmat", n) if n >= 2 => Some(BuiltinOp::Move(Move::Repmat)),
        ("flipud", 1) => Some(BuiltinOp::Move(Move::FlipUd)),
        ("fliplr", 1) => Some(BuiltinOp::Move(Move::FlipLr)),
        ("circshift", 2 | 3) => Some(BuiltinOp::Move(Move::Circshift)),
        ("reshape", n) if n >= 2 => Some(BuiltinOp::Move(Move::Reshape)),
        ("cat", n) if n >= 2 => Some(BuiltinOp::Join(JoinFn::Cat)),
        ("horzcat", n) if n >= 1 => Some(BuiltinOp::Join(JoinFn::Horzcat)),
        ("vertcat", n) if n >= 1 => Some(BuiltinOp::Join(JoinFn::Vertcat)),
        (n, 1) => CONVERSIONS
            .iter()
            .find(|u| **u == n)
            .map(|u| BuiltinOp::Unary(u)),
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

    fn operand(&mut self, e: &'p Expr, frame: &mut Frame, f: &mut Fusion) -> R<Operand> {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Real(_) => Ok(Operand::Val(self.eval(e, frame)?, true)),
            ExprKind::Var(v) if !f.pending.is_empty() => {
                match f.pending.iter().rev().find(|(p, _)| p == v) {
                    Some((_, n)) => Ok(Operand::Node(*n)),
                    None => Ok(Operand::Val(self.eval(e, frame)?, false)),
                }
            }
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
                // The host operator's element-wise operation; `*` of two arrays is
                // the matrix product, which does not fuse.
                let rt = crate::eval::rt_op(*op);
                let elementwise =
                    !rt.is_matrix_product() || self.scalar_side(&x) || self.scalar_side(&y);
                let host = elementwise.then_some(Binary::Op(rt.op));
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
                    let n = match idx.as_slice() {
                        // `x[:]` of a matrix or cube: its elements as a vec, in place.
                        [IndexArg::All] => self.colon_node(arr, f),
                        _ => self.view_node(arr, &idx, f),
                    };
                    if let Some(n) = n {
                        return Ok(Operand::Node(n));
                    }
                }
                let v = blazar_runtime::index::get(arr, &idx).at(e.span)?;
                Ok(Operand::Val(v, false))
            }
            ExprKind::Index { base, args } if args.len() == 1 => {
                // A gather `x[idx]` with an int array (or int node) of indices.
                let b = self.eval(base, frame)?;
                let Value::Array(arr) = &b else {
                    return Ok(Operand::Val(
                        self.index_value(&b, args, frame, e.span)?,
                        false,
                    ));
                };
                let x = self.operand(&args[0], frame, f)?;
                let int = match &x {
                    Operand::Node(n) => f.b.ty(*n).is_int(),
                    Operand::Val(Value::Array(a), _) => a
                        .meta()
                        .is_ok_and(|m| matches!(m.elem(), blazar_runtime::ElemType::Int(_))),
                    Operand::Val(..) => false,
                };
                if int && self.big(&x) {
                    if let Some(g) = self
                        .node_of(&x, f)
                        .and_then(|n| self.gather_node(arr, n, f))
                    {
                        return Ok(Operand::Node(g));
                    }
                }
                let ix = self.force(x, f, e.span)?;
                let v = blazar_runtime::index::get(arr, &[IndexArg::Value(ix)]).at(e.span)?;
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
                Some(BuiltinOp::Scan(r)) => {
                    let x = self.operand(&args[0], frame, f)?;
                    let d = match args.get(1) {
                        Some(a) => Some(self.eval(a, frame)?),
                        None => None,
                    };
                    if self.big(&x) {
                        if let Some(v) = self.scan(&x, r, d.as_ref(), f, e.span)? {
                            return Ok(Operand::Val(v, false));
                        }
                    }
                    let mut all = vec![self.force(x, f, e.span)?];
                    all.extend(d);
                    Ok(Operand::Val(self.call_builtin(*id, &all, e.span)?, false))
                }
                Some(BuiltinOp::Move(m)) => {
                    let x = self.operand(&args[0], frame, f)?;
                    if let (Move::Reshape, Operand::Val(Value::Array(arr), _)) = (m, &x) {
                        // `reshape(x, [M, N])` or `reshape(x, M, N)` with scalar dims: the
                        // view, without the dims array and the builtin's argument values.
                        if let Some(dims) = self.scalar_dims(&args[1..], frame) {
                            let v = blazar_runtime::builtins::construct::reshape_view(arr, dims)
                                .at(e.span)?;
                            return Ok(Operand::Val(Value::Array(v), false));
                        }
                    }
                    // The builtin's arguments in one vector; the first one, `x`, is
                    // set once forced, after the others are evaluated (source order).
                    let mut all = Vec::with_capacity(args.len());
                    all.push(Value::Real(0.0));
                    for a in &args[1..] {
                        all.push(self.eval(a, frame)?);
                    }
                    if m == Move::Copy && matches!(x, Operand::Node(_)) {
                        // The copy of a computed value is that value.
                        return Ok(x);
                    }
                    let big = self.big(&x);
                    let x = self.force(x, f, e.span)?;
                    // `reshape` of an array is a view of its elements (the host
                    // builtin, O(1)), which a parent reads as an input of its own shape.
                    let big = big && m != Move::Reshape;
                    if let (true, Value::Array(arr)) = (big, &x) {
                        if let Some(n) = self.move_node(m, arr, &all[1..], f) {
                            return Ok(Operand::Node(n));
                        }
                    }
                    all[0] = x;
                    Ok(Operand::Val(self.call_builtin(*id, &all, e.span)?, false))
                }
                Some(BuiltinOp::Join(which)) => {
                    self.cat_operand(which, *id, args, frame, f, e.span)
                }
                None => Ok(Operand::Val(self.eval(e, frame)?, false)),
            },
            ExprKind::Matrix(items) if join::joins_arrays(items) => {
                self.matrix_operand(items, frame, f, e.span)
            }
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

    /// The dims of `reshape(x, dims...)` when they are one row literal of scalars or
    /// scalar arguments, each an integer in 0..=2^24 (exact in single precision, so the
    /// literal's array would hold the same values); otherwise `None` (nothing evaluated
    /// has side effects) and the builtin checks them.
    fn scalar_dims(&mut self, args: &'p [Expr], frame: &mut Frame) -> Option<Vec<usize>> {
        let items = match args {
            [Expr {
                kind: ExprKind::Matrix(items),
                ..
            }] => items.as_slice(),
            _ => args,
        };
        if items.is_empty() || items.len() > 16 {
            return None;
        }
        let mut dims = Vec::with_capacity(items.len());
        for i in items {
            let d = self.num(i, frame)?.value().as_f64()?;
            if !(0.0..=16_777_216.0).contains(&d) || d.fract() != 0.0 {
                return None;
            }
            dims.push(d as usize);
        }
        // An element count over the builtin's limit errors there.
        dims.iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .filter(|&n| n <= 1 << 32)?;
        Some(dims)
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
        op: Option<Binary>,
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
        if f.b.len() < blazar_air::MAX_NODES && ops.iter().any(|o| self.big(o)) {
            let nodes: Option<Vec<NodeRef>> = ops.iter().map(|o| self.node_of(o, f)).collect();
            if let Some(nodes) = nodes {
                let nodes: [NodeRef; N] = nodes.try_into().expect("one node per operand");
                if let Some(n) = grow(&mut f.b, nodes) {
                    return Ok(Operand::Node(n));
                }
            }
        }
        // Forced in order without a heap allocation (the first error wins).
        let mut err = None;
        let vals: [Value; N] = ops.map(|o| match err {
            Some(_) => Value::Real(0.0),
            None => self.force(o, f, span).unwrap_or_else(|e| {
                err = Some(e);
                Value::Real(0.0)
            }),
        });
        if let Some(e) = err {
            return Err(e);
        }
        Ok(Operand::Val(host(self, vals, span)?, false))
    }

    /// Whether an operand joins a region: a node, or an array large enough (or only on
    /// the device).
    fn big(&self, o: &Operand) -> bool {
        match o {
            Operand::Node(_) => true,
            Operand::Val(Value::Array(a), _) => {
                // The store's count, without copying dims: a view (`reshape`) has the
                // element count of its store.
                a.data.meta_host().is_ok_and(|m| m.len() >= self.fuse_min)
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
                let m = a.meta().ok()?;
                let elem = elem_scalar(m.elem())?;
                if m.len() > i32::MAX as usize {
                    return None;
                }
                let key = f.key(a)?;
                let n = f.b.array(key, elem, &m.dims)?;
                f.hold(key, a);
                Some(n)
            }
            Operand::Val(..) => None,
        }
    }

    fn fusion(&self) -> Fusion {
        Fusion {
            b: Builder::new(match self.prec {
                blazar_runtime::Prec::Single => blazar_air::Prec::Single,
                blazar_runtime::Prec::Double => blazar_air::Prec::Double,
            }),
            arrays: Vec::new(),
            recycle: None,
            pending: Vec::new(),
        }
    }
}
