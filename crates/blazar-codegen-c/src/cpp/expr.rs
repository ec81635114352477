//! Expressions: scalars print with `crate::spell` (the executor's
//! semantics); vector operations map a scalar rule over the lanes with a generic lambda.
//!
//! A constant lane of a load-free vector expression (`lane(pos + [di, dj, 0], 1)`) is
//! pushed down to the scalars it depends on (`bz_pos1 + dj`), so that index arithmetic
//! is plain scalar code that the C++ compiler can analyse and vectorise.

use super::Gen;
use crate::spell::{self, binary, cast, math, operator, scalar, unary};
use blazar_kir::{BinOp, Const, Expr, ExprKind, ReadMode, Ty, VecReduce};

fn reduce_op(r: VecReduce) -> BinOp {
    match r {
        VecReduce::Sum => BinOp::Add,
        VecReduce::Prod => BinOp::Mul,
        VecReduce::Min => BinOp::Min,
        VecReduce::Max => BinOp::Max,
    }
}

/// `e` reads no array (so lanes of it may be computed alone).
fn load_free(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Load { .. } => false,
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => true,
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Splat(a)
        | ExprKind::VecReduce(_, a) => load_free(a),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => load_free(a) && load_free(b),
        ExprKind::Select(a, b, c) => load_free(a) && load_free(b) && load_free(c),
        ExprKind::Math(_, xs) | ExprKind::VecLit(xs) => xs.iter().all(load_free),
    }
}

impl Gen<'_> {
    /// `e` reads a `'checked` array (and so may record an error).
    pub fn has_checked(&self, e: &Expr) -> bool {
        let mut found = false;
        visit(e, &mut |x| {
            if let ExprKind::Load { arr, .. } = &x.kind {
                if let Some(Ty::Array(t)) = self.k.arrays.get(*arr as usize).map(|d| d.ty) {
                    found |= t.read == ReadMode::Checked;
                }
            }
        });
        found
    }

    /// Lane `k` of the vector expression `e`, computed from scalars where possible.
    fn lane_of(&mut self, e: &Expr, k: usize) -> String {
        let Ty::Vector(s, n) = e.ty else {
            return self.expr(e);
        };
        if k >= n as usize {
            return spell::int_lit(0, s);
        }
        if !load_free(e) {
            let x = self.expr(e);
            return format!("({x})[{k}]");
        }
        match &e.kind {
            ExprKind::Const(c) => spell::constant(c, s),
            ExprKind::Var(v) => match self.aliases.get(v) {
                Some(&sp) => self.special_part(sp, k),
                None => format!("{}[{k}]", self.var_name(*v)),
            },
            ExprKind::Special(sp) => self.special_part(*sp, k),
            ExprKind::Unary(op, a) => {
                let x = self.lane_of(a, k);
                unary(*op, a.ty.elem(), &x)
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.lane_of(a, k), self.lane_of(b, k));
                binary(*op, a.ty.elem(), &x, &y)
            }
            ExprKind::Cast(a) => {
                let x = self.lane_of(a, k);
                cast(s, a.ty.elem(), &x)
            }
            ExprKind::Select(c, a, b) => {
                let cc = self.lane_of(c, k);
                let (x, y) = (self.lane_of(a, k), self.lane_of(b, k));
                format!("({cc} ? {x} : {y})")
            }
            ExprKind::Math(f, args) => {
                let first = args.first().map_or(s, |a| a.ty.elem());
                let xs: Vec<String> = args.iter().map(|a| self.lane_of(a, k)).collect();
                math(*f, first, &xs)
            }
            ExprKind::VecLit(es) => match es.get(k) {
                Some(x) => self.expr(x),
                None => spell::int_lit(0, s),
            },
            ExprKind::Splat(a) => self.expr(a),
            _ => {
                let x = self.expr(e);
                format!("({x})[{k}]")
            }
        }
    }

    /// The C expression of `e`.
    pub fn expr(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Unary(..)
            | ExprKind::Binary(..)
            | ExprKind::Cast(_)
            | ExprKind::Select(..)
            | ExprKind::Math(..) => operator(e, "[&]", &mut |x| self.expr(x)).unwrap_or_default(),
            ExprKind::Const(c) => match e.ty {
                Ty::Scalar(s) => spell::constant(c, s),
                Ty::Vector(s, n) => {
                    let x = spell::constant(c, s);
                    format!("bz_splat<{n}, {}>({x})", scalar(s))
                }
                Ty::Array(_) => "0".into(),
            },
            ExprKind::Var(v) => match self.aliases.get(v) {
                Some(&sp) => self.special(sp),
                None => self.var_name(*v),
            },
            ExprKind::Special(sp) => self.special(*sp),
            ExprKind::Load { arr, index } => self.load(e as *const Expr as usize, *arr, index),
            ExprKind::Size { arr, dim } => self.size(*arr, Some(*dim)),
            ExprKind::Numel(arr) => self.size(*arr, None),
            ExprKind::VecLit(es) => {
                let xs: Vec<String> = es.iter().map(|x| self.expr(x)).collect();
                format!("{}{{{{{}}}}}", spell::ty(e.ty), xs.join(", "))
            }
            ExprKind::Splat(a) => {
                let x = self.expr(a);
                match e.ty {
                    Ty::Vector(s, n) => format!("bz_splat<{n}, {}>({x})", scalar(s)),
                    _ => x,
                }
            }
            ExprKind::Lane(v, i) => {
                let n = match v.ty {
                    Ty::Vector(_, n) => n as i64,
                    _ => return self.expr(v),
                };
                match i.kind {
                    ExprKind::Const(Const::Int(k)) if (0..n).contains(&k) => {
                        self.lane_of(v, k as usize)
                    }
                    ExprKind::Const(Const::Int(_)) => spell::int_lit(0, e.ty.elem()),
                    _ => {
                        let (x, j) = (self.expr(v), self.expr(i));
                        format!("bz_lane({x}, {j})")
                    }
                }
            }
            ExprKind::VecReduce(r, a) => {
                let x = self.expr(a);
                let s = a.ty.elem();
                let body = binary(reduce_op(*r), s, "x", "y");
                format!("bz_fold({x}, [&](auto x, auto y) {{ return {body}; }})")
            }
        }
    }
}

/// Calls `f` on `e` and every subexpression.
pub(crate) fn visit(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Splat(a)
        | ExprKind::VecReduce(_, a) => visit(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
            visit(a, f);
            visit(b, f);
        }
        ExprKind::Select(a, b, c) => {
            visit(a, f);
            visit(b, f);
            visit(c, f);
        }
        ExprKind::Math(_, xs) | ExprKind::VecLit(xs) => xs.iter().for_each(|x| visit(x, f)),
        ExprKind::Load { index, .. } => index.iter().for_each(|x| visit(x, f)),
    }
}
