//! `Builder`: grows one region while the host evaluates an expression, applying the
//! host's typing rules (`rules`) and checking shapes as it goes.
//!
//! Every method returns `None` where the region cannot express what the host would do
//! (an unsupported type, an operation outside AIR, shapes that do not broadcast); the
//! caller then runs that operation on the host, which also reports any error there.

mod finish;
mod gather;
mod join;
mod unary;

pub use finish::{Arg, Finished};
pub use join::JoinKind;

use crate::region::{Along, Axis, Input, Join, JoinPart, Node, NodeKind, Reduce, Region};
use crate::rules::{
    array_elem, common_int, complex_of, conversion, convert_const, f32_exact, int_arith, Prec,
};
use blazar_kir::{MathFn, Scalar};
use blazar_ops::{BinOp, Binary, Promote};

/// A node of the region being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeRef(u32);

/// A scalar argument of the kernel, in input order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarArg {
    Int(i64),
    Real(f64),
}

pub struct Builder {
    prec: Prec,
    inputs: Vec<Input>,
    /// Per input: the caller's key of an array (the same array is read once), or the
    /// value of a scalar.
    keys: Vec<Option<usize>>,
    scalars: Vec<(u16, ScalarArg)>,
    /// Per view input: the array's key and the view's parameters.
    views: Vec<(u16, usize, Vec<i64>)>,
    /// Per table input (a gather's array): the array's key.
    tables: Vec<(u16, usize)>,
    nodes: Vec<Node>,
    /// Per node: the run-time shape (empty: a scalar), and whether it holds f32 values
    /// exactly (single precision computes in f32 only when both operands do).
    dims: Vec<Vec<usize>>,
    clean: Vec<bool>,
}

/// The most nodes a region takes: past it, operations run on the host (each a kernel
/// of its own or a host loop). A region's kernel is compiled as nested expressions,
/// and compilers take long on deep ones (`blazar_kir::visit::MAX_COMPILED_DEPTH`).
pub const MAX_NODES: usize = 256;

impl Builder {
    pub fn new(prec: Prec) -> Builder {
        Builder {
            prec,
            inputs: Vec::new(),
            keys: Vec::new(),
            scalars: Vec::new(),
            views: Vec::new(),
            tables: Vec::new(),
            nodes: Vec::new(),
            dims: Vec::new(),
            clean: Vec::new(),
        }
    }

    fn push(&mut self, kind: NodeKind, ty: Scalar, dims: Vec<usize>, clean: bool) -> NodeRef {
        self.nodes.push(Node { kind, ty });
        self.dims.push(dims);
        self.clean.push(clean);
        NodeRef(self.nodes.len() as u32 - 1)
    }

    /// Nodes in the region so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn ty(&self, n: NodeRef) -> Scalar {
        self.nodes[n.0 as usize].ty
    }

    pub fn dims(&self, n: NodeRef) -> &[usize] {
        &self.dims[n.0 as usize]
    }

    /// Elements of the node's result.
    pub fn numel(&self, n: NodeRef) -> usize {
        self.dims(n).iter().product()
    }

    /// An array input with `dims` (at most 4, each element type but complex and bool);
    /// `key` identifies the array, so reading one array twice reads it once.
    pub fn array(&mut self, key: usize, elem: Scalar, dims: &[usize]) -> Option<NodeRef> {
        if !array_elem(elem) || dims.is_empty() || dims.len() > 4 {
            return None;
        }
        let input = match self.keys.iter().position(|k| *k == Some(key)) {
            Some(i) => i,
            None => {
                let unit = dims
                    .iter()
                    .enumerate()
                    .filter(|(_, &d)| d == 1)
                    .fold(0u8, |m, (i, _)| m | 1 << i);
                self.inputs.push(Input::Array {
                    elem,
                    rank: dims.len() as u8,
                    unit,
                });
                self.keys.push(Some(key));
                self.inputs.len() - 1
            }
        };
        let clean = elem == Scalar::F32;
        Some(self.push(NodeKind::Input(input as u16), elem, dims.to_vec(), clean))
    }

    /// A view of an array with key `key` (a slice, a transpose, a repmat): `axes` per
    /// array dimension, with their parameters (a fixed index; a start and a step; a
    /// tile's extent), giving an array of `dims`. Every index must be inside the array
    /// (the caller checks). A range of step 1 becomes an [`Axis::Shift`] (its step
    /// parameter dropped).
    pub fn view(
        &mut self,
        key: usize,
        elem: Scalar,
        axes: Vec<Axis>,
        params: Vec<i64>,
        dims: Vec<usize>,
    ) -> Option<NodeRef> {
        if !array_elem(elem) || axes.len() > 4 || dims.is_empty() || dims.len() > 4 {
            return None;
        }
        let (axes, params) = unit_steps(axes, params)?;
        let unit = dims
            .iter()
            .enumerate()
            .filter(|(_, &d)| d == 1)
            .fold(0u8, |m, (i, _)| m | 1 << i);
        let i = self.inputs.len() as u16;
        let rank = dims.len() as u8;
        self.inputs.push(Input::View {
            elem,
            axes,
            rank,
            unit,
        });
        self.keys.push(None);
        self.views.push((i, key, params));
        Some(self.push(NodeKind::Input(i), elem, dims, elem == Scalar::F32))
    }

    /// A scalar: a constant of the source (folded into the kernel) or a run-time value
    /// (a kernel parameter). Reals have the program precision's type.
    pub fn scalar(&mut self, v: ScalarArg, int_ty: Scalar, constant: bool) -> NodeRef {
        let (ty, clean, bits) = match v {
            ScalarArg::Int(i) => (int_ty, f32_exact(i as f64), i as u64),
            ScalarArg::Real(x) => (Scalar::F64, f32_exact(x), x.to_bits()),
        };
        let ty = if ty == Scalar::F64 {
            self.prec.real()
        } else {
            ty
        };
        let bits = if ty == Scalar::F32 {
            (f64::from_bits(bits) as f32 as f64).to_bits()
        } else {
            bits
        };
        if constant {
            return self.push(NodeKind::Const(bits), ty, Vec::new(), clean);
        }
        let i = self.inputs.len() as u16;
        self.inputs.push(Input::Scalar(ty));
        self.keys.push(None);
        self.scalars.push((i, v));
        self.push(NodeKind::Input(i), ty, Vec::new(), clean)
    }

    /// `a` converted to `ty` (itself when it has that type).
    fn cast(&mut self, a: NodeRef, ty: Scalar) -> NodeRef {
        if self.ty(a) == ty {
            return a;
        }
        let (dims, clean) = (self.dims(a).to_vec(), self.clean[a.0 as usize]);
        if let (NodeKind::Const(bits), false) =
            (self.nodes[a.0 as usize].kind.clone(), ty.is_complex())
        {
            // Constants convert here, so the kernel sees a literal of its type (a
            // complex one stays a cast of the real literal).
            let from = self.ty(a);
            let bits = convert_const(bits, from, ty);
            return self.push(NodeKind::Const(bits), ty, dims, clean);
        }
        self.push(NodeKind::Cast(a.0), ty, dims, clean && ty != Scalar::F64)
    }

    /// The broadcast shape of two operands (leading dimensions aligned, as the host does), or `None`.
    fn broadcast(&self, a: NodeRef, b: NodeRef) -> Option<Vec<usize>> {
        let (x, y) = (self.dims(a), self.dims(b));
        if (self.gathers(a) || self.gathers(b)) && !self.plain_pair(a, b) {
            // A region with a gather runs over one linear index: no broadcasting.
            return None;
        }
        blazar_ops::broadcast::shape(x, y)
    }

    /// The real type an operation on `a` and `b` computes in: f32 at single precision
    /// when both operands hold f32 values exactly, else f64 (rounded afterwards).
    fn real_compute(&self, a: NodeRef, b: Option<NodeRef>) -> Scalar {
        let clean = |n: NodeRef| self.clean[n.0 as usize] || self.ty(n) == Scalar::F32;
        match self.prec {
            Prec::Single if clean(a) && b.is_none_or(clean) => Scalar::F32,
            _ => Scalar::F64,
        }
    }

    /// `a op b` with the host's result type (`Mul` is the element-wise product, `Rem`
    /// is `mod`).
    pub fn binary(&mut self, op: Binary, a: NodeRef, b: NodeRef) -> Option<NodeRef> {
        use BinOp::*;
        let op = match op {
            Binary::Math(f) => return self.math2(f, a, b),
            Binary::Op(op) if op.is_bitwise() => return None,
            Binary::Op(op) => op,
        };
        let dims = self.broadcast(a, b)?;
        let (ta, tb) = (self.ty(a), self.ty(b));
        if ta.is_complex() || tb.is_complex() {
            // The host computes in complex f64 (reals and ints converted) and rounds to
            // the precision's complex type (`^`: the one rule of `blazar_ops::scalar`);
            // other operators stay on the host.
            if !matches!(op, Add | Sub | Mul | Div | Pow) {
                return None;
            }
            let (x, y) = (self.cast(a, Scalar::C64), self.cast(b, Scalar::C64));
            let v = self.push(
                NodeKind::Binary(Binary::Op(op), x.0, y.0),
                Scalar::C64,
                dims,
                false,
            );
            return Some(self.cast(v, complex_of(self.prec)));
        }
        let ints = ta.is_int() && tb.is_int();
        let real = self.prec.real();
        let node = |s: &mut Builder, op: BinOp, x: NodeRef, y: NodeRef, ty: Scalar| {
            let clean = ty == Scalar::F32;
            s.push(
                NodeKind::Binary(Binary::Op(op), x.0, y.0),
                ty,
                dims.clone(),
                clean,
            )
        };
        let r = match op {
            Add | Sub | Mul | Min | Max | Rem if ints => {
                let t = common_int(ta, tb);
                if !int_arith(t) {
                    return None;
                }
                let (x, y) = (self.cast(a, t), self.cast(b, t));
                node(self, op, x, y, t)
            }
            Add | Sub | Mul | Div | Pow | Min | Max | Rem => {
                let c = self.real_compute(a, Some(b));
                if op == Pow {
                    if let Some(sq) = self.square(a, b, c) {
                        return Some(self.cast(sq, real));
                    }
                }
                let (x, y) = (self.cast(a, c), self.cast(b, c));
                let v = node(self, op, x, y, c);
                self.cast(v, real)
            }
            Eq | Ne | Lt | Gt | Le | Ge => {
                let c = if ints {
                    if ta != tb && (ta == Scalar::U64 || tb == Scalar::U64) {
                        return None;
                    }
                    if ta == tb {
                        ta
                    } else {
                        Scalar::I64
                    }
                } else {
                    self.real_compute(a, Some(b))
                };
                let (x, y) = (self.cast(a, c), self.cast(b, c));
                let v = node(self, op, x, y, Scalar::Bool);
                self.cast(v, real)
            }
            And | Or => {
                let (x, y) = (self.truth(a), self.truth(b));
                let v = node(self, op, x, y, Scalar::Bool);
                self.cast(v, real)
            }
            BitAnd | BitOr | BitXor | Shl | Shr => return None,
        };
        Some(r)
    }

    /// A math function of two arguments with the host's result type: `complex(re, im)`
    /// of reals or ints, or a function of reals (`Promote::Real` in its row).
    fn math2(&mut self, f: MathFn, a: NodeRef, b: NodeRef) -> Option<NodeRef> {
        let dims = self.broadcast(a, b)?;
        if self.ty(a).is_complex() || self.ty(b).is_complex() {
            return None;
        }
        if f == MathFn::MakeComplex {
            // Both parts as f64 (the host's values), rounded to the complex type.
            let (x, y) = (self.cast(a, Scalar::F64), self.cast(b, Scalar::F64));
            let v = self.push(
                NodeKind::Binary(Binary::Math(f), x.0, y.0),
                Scalar::C64,
                dims,
                false,
            );
            return Some(self.cast(v, complex_of(self.prec)));
        }
        if f.def().promote != Promote::Real {
            return None;
        }
        let c = if self.prec == Prec::Single && f.in_f32() {
            Scalar::F32
        } else {
            self.real_compute(a, Some(b))
        };
        let (x, y) = (self.cast(a, c), self.cast(b, c));
        let v = self.push(
            NodeKind::Binary(Binary::Math(f), x.0, y.0),
            c,
            dims,
            c == Scalar::F32,
        );
        Some(self.cast(v, self.prec.real()))
    }

    /// `a .^ 2` with a constant 2 as `a .* a`, exact like the host's `pow` in f64.
    fn square(&mut self, a: NodeRef, b: NodeRef, c: Scalar) -> Option<NodeRef> {
        let NodeKind::Const(bits) = self.nodes[b.0 as usize].kind else {
            return None;
        };
        let two = match self.ty(b) {
            t if t.is_int() => bits as i64 == 2,
            Scalar::F32 | Scalar::F64 => f64::from_bits(bits) == 2.0,
            _ => false,
        };
        if !two {
            return None;
        }
        let x = self.cast(a, c);
        let dims = self.dims(a).to_vec();
        Some(self.push(
            NodeKind::Binary(Binary::Op(BinOp::Mul), x.0, x.0),
            c,
            dims,
            c == Scalar::F32,
        ))
    }

    /// `a != 0` as a bool.
    fn truth(&mut self, a: NodeRef) -> NodeRef {
        let t = self.ty(a);
        let zero = self.push(NodeKind::Const(0), t, Vec::new(), true);
        let dims = self.dims(a).to_vec();
        self.push(
            NodeKind::Binary(Binary::Op(BinOp::Ne), a.0, zero.0),
            Scalar::Bool,
            dims,
            false,
        )
    }

    /// `old[mask] = value` as an element-wise choice: where `mask` (a comparison or
    /// logic result, so 0/1 by construction, of `old`'s shape) is 1 the value converted
    /// to `old`'s type, else `old`. `None` for any other mask, or a value of another
    /// shape than `old`'s (the host then stores the selected elements in order).
    pub fn masked(&mut self, old: NodeRef, mask: NodeRef, value: NodeRef) -> Option<NodeRef> {
        if self.gathers(old) || self.gathers(mask) || self.gathers(value) {
            return None;
        }
        let dims = self.dims(old).to_vec();
        if self.dims(mask) != dims.as_slice() {
            return None;
        }
        if !(self.dims(value).is_empty() || self.dims(value) == dims.as_slice()) {
            return None;
        }
        let NodeKind::Cast(c) = self.nodes[mask.0 as usize].kind else {
            return None;
        };
        if self.nodes[c as usize].ty != Scalar::Bool {
            return None;
        }
        let t = self.ty(old);
        if !(t.is_float() && (self.ty(value).is_float() || self.ty(value).is_int())) {
            return None;
        }
        let v = self.cast(value, t);
        let clean = t == Scalar::F32;
        Some(self.push(NodeKind::Select(c, v.0, old.0), t, dims, clean))
    }
}

/// `axes` and their `params` with every range of step 1 written as an [`Axis::Shift`]
/// (one parameter, the start); `None` when `params` is short of what `axes` take.
fn unit_steps(axes: Vec<Axis>, params: Vec<i64>) -> Option<(Vec<Axis>, Vec<i64>)> {
    let mut out = (
        Vec::with_capacity(axes.len()),
        Vec::with_capacity(params.len()),
    );
    let mut p = params.into_iter();
    for a in axes {
        let taken = match a {
            Axis::Fixed | Axis::Tile(_) | Axis::Shift(_) => 1,
            Axis::Range(_) | Axis::Rotate(_) => 2,
        };
        let mut these: Vec<i64> = p.by_ref().take(taken).collect();
        if these.len() != taken {
            return None;
        }
        let a = match a {
            Axis::Range(d) if these[1] == 1 => {
                these.pop();
                Axis::Shift(d)
            }
            a => a,
        };
        out.0.push(a);
        out.1.extend(these);
    }
    Some(out)
}
