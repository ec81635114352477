//! Small arrays in kernel and device code as register vectors: `acc = zeros(4)` (or
//! `ones`, `uninit`, also of `size(v)` for a `vec3 v`) with a constant length of at
//! most 32 becomes a fixed-length vector value, so `acc = acc + x[i, j, 0..3]` and
//! `acc[k] = e` work on it. Only where a value cannot be told from the array: the
//! variable is used as a whole only inside arithmetic, builtin calls and its own
//! assignments, never handed to a function, captured or copied to another variable
//! (host arrays are references, vectors are values). Anything else stays local memory.

use crate::lower::Lower;
use crate::lower_expr::Val;
use crate::lower_math::cast;
use blazar_hir::{self as hir, Access, Callee, ExprKind as H, Var};
use blazar_kir::{Const, Expr, ExprKind as K, Fill, Scalar, Space, Ty};

/// The most lanes a register vector has.
const MAX_LANES: i64 = 32;

impl<'a> Lower<'a> {
    /// `Val::Alloc` of local memory assigned to local `slot`, as a register vector when
    /// it may be one (see the module comment); otherwise `val` unchanged.
    pub(crate) fn alloc_as_vector(&self, slot: u32, val: Val) -> Val {
        let Val::Alloc { ty, dims, fill } = &val else {
            return val;
        };
        if ty.space != Space::Local {
            return val;
        }
        let Some(extents) = dims.iter().map(const_int).collect::<Option<Vec<i64>>>() else {
            return val;
        };
        let n: i64 = extents.iter().product();
        let vector_shape = extents.iter().filter(|&&d| d != 1).count() <= 1;
        if !vector_shape || !(1..=MAX_LANES).contains(&n) || !self.value_safe(slot) {
            return val;
        }
        let one = matches!(fill, Fill::One);
        let x = match ty.elem {
            Scalar::Bool => Expr::boolean(one),
            e if e.is_int() => cast(Expr::int(one as i64), Ty::Scalar(e)),
            e if e.is_complex() => Expr::new(
                K::Const(Const::Complex(one as i64 as f64, 0.0)),
                Ty::Scalar(e),
            ),
            e => Expr::new(K::Const(Const::Float(one as i64 as f64)), Ty::Scalar(e)),
        };
        let t = Ty::Vector(ty.elem, n as u8);
        Val::E(Expr::new(K::Splat(Box::new(x)), t))
    }

    /// Whether every use of local `slot` in the function being lowered is one a vector
    /// value gives the same result for as an array.
    fn value_safe(&self, slot: u32) -> bool {
        let func = self.frames.last().map(|f| f.func);
        let Some(f) = func.and_then(|f| self.env.prog.functions.get(f as usize)) else {
            return false;
        };
        let v = Var::Local(slot);
        // A parameter holds the caller's array; an output is returned as a fresh value.
        if f.params.iter().any(|p| p.slot == slot) {
            return false;
        }
        f.body.iter().all(|s| stmt_safe(s, v))
    }
}

/// The value of a constant integer expression (dims of a `zeros` call: literals, lanes
/// of constant vectors such as `size(v)` of a vector, casts of them).
fn const_int(e: &Expr) -> Option<i64> {
    match &e.kind {
        K::Const(Const::Int(v)) => Some(*v),
        K::Const(Const::Float(x)) if x.fract() == 0.0 => Some(*x as i64),
        K::Cast(x) => const_int(x),
        K::Lane(v, i) => {
            let K::VecLit(items) = &v.kind else {
                return None;
            };
            items
                .get(usize::try_from(const_int(i)?).ok()?)
                .and_then(const_int)
        }
        _ => None,
    }
}

fn stmt_safe(s: &hir::Stmt, v: Var) -> bool {
    use hir::StmtKind as S;
    let place_ok = |p: &hir::Place| {
        p.path.iter().all(|a| match a {
            Access::Index(args) => args.iter().all(|e| expr_safe(e, v)),
            Access::Field(_) => p.var != v,
        })
    };
    let own = match &s.kind {
        S::Assign { target, value, .. } => {
            // `b = v` would share the array; `v = e`, `v[i] = e` and `b[i..j] = v`
            // (a copy of the elements) are fine.
            let shares = target.path.is_empty() && target.var != v && is_var(value, v);
            place_ok(target) && !shares && expr_safe(value, v)
        }
        S::MultiAssign { targets, value } => {
            targets.iter().all(|t| t.var != v && place_ok(t)) && expr_safe(value, v)
        }
        S::Parallel(_) | S::Rewritten(_) => false,
        _ => own_exprs_safe(s, v),
    };
    own && blazar_hir::visit::blocks(s)
        .iter()
        .all(|b| b.iter().all(|t| stmt_safe(t, v)))
}

fn own_exprs_safe(s: &hir::Stmt, v: Var) -> bool {
    blazar_hir::visit::own_exprs(s)
        .into_iter()
        .all(|e| !is_var(e, v) && expr_safe(e, v))
}

fn is_var(e: &hir::Expr, v: Var) -> bool {
    matches!(e.kind, H::Var(w) if w == v)
}

/// Whether `e` uses `v` only as an operand of arithmetic or of a builtin, or as the
/// array of an index.
fn expr_safe(e: &hir::Expr, v: Var) -> bool {
    match &e.kind {
        H::Var(_) => true,
        H::Closure { captures, .. } => !captures.contains(&v),
        H::Call { callee, args } => {
            let args_ok = match callee {
                Callee::Builtin(_) => true,
                Callee::Nested { captures, .. } if captures.contains(&v) => false,
                _ => !args.iter().any(|a| is_var(a, v)),
            };
            let callee_ok = match callee {
                Callee::Value(f) => !is_var(f, v) && expr_safe(f, v),
                _ => true,
            };
            args_ok && callee_ok && args.iter().all(|a| expr_safe(a, v))
        }
        H::Ternary(c, a, b) => {
            !is_var(a, v) && !is_var(b, v) && [c, a, b].iter().all(|x| expr_safe(x, v))
        }
        H::Matrix(items) | H::Cell(items) => items.iter().all(|x| !is_var(x, v) && expr_safe(x, v)),
        H::Field { base, .. } | H::Convert(base, _) => !is_var(base, v) && expr_safe(base, v),
        _ => blazar_hir::visit::children(e)
            .iter()
            .all(|x| expr_safe(x, v)),
    }
}
