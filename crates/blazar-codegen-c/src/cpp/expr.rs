//! Expressions: scalars print with `crate::spell` (the executor's
//! semantics); vector operations map a scalar rule over the lanes with a generic lambda.
//!
//! A constant lane of a load-free vector expression (`lane(pos + [di, dj, 0], 1)`) is
//! pushed down to the scalars it depends on (`bz_pos1 + dj`), so that index arithmetic
//! is plain scalar code that the C++ compiler can analyse and vectorise.

use super::Gen;
use crate::spell::{self, binary, cast, math, unary};
use blazar_kir::{Expr, ExprKind, ReadMode, Ty};

impl Gen<'_> {
    /// `e` reads a `'checked` array (and so may record an error).
    pub fn has_checked(&self, e: &Expr) -> bool {
        let mut found = false;
        blazar_kir::visit::walk_expr(e, &mut |x| {
            if let ExprKind::Load { arr, .. } = &x.kind {
                if let Some(Ty::Array(t)) = self.k.arrays.get(*arr as usize).map(|d| d.ty) {
                    found |= t.read == ReadMode::Checked;
                }
            }
        });
        found
    }

    /// Lane `k` of the vector expression `e`, computed from scalars where possible.
    pub(crate) fn lane_of(&mut self, e: &Expr, k: usize) -> String {
        let Ty::Vector(s, n) = e.ty else {
            return self.expr(e);
        };
        if k >= n as usize {
            return spell::int_lit(0, s);
        }
        if !blazar_kir::visit::reads_no_array(e) {
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
}
