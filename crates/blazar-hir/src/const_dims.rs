//! The compile-time shape rule of the array constructors for a constant dimension
//! vector (seed 002: "`A = zeros([1,1,4])` creates a vector of length 4"): a literal
//! dims vector of three or more constant entries whose entries before the last are
//! all 1 makes a `vec` of the last entry's length, so `zeros([1, 1, 4])` is
//! `zeros(4)`. Any other dims keep MATLAB's shape (`zeros([1, 3, 4])` is a 1×3×4
//! cube), and a dims vector known only when the program runs (`zeros(size(x))`,
//! `reshape(x, [1, M, N])` with variables) is never rewritten: a 1×1×N cube's size
//! makes a 1×1×N cube.

use crate::hir::{Callee, Expr, ExprKind};
use crate::lower::Lowerer;

/// The constructors the rule applies to.
const CONSTRUCTORS: [&str; 3] = ["zeros", "ones", "uninit"];

impl Lowerer<'_> {
    /// Applies the rule to a lowered call: `zeros([1, ..., 1, n])` becomes `zeros(n)`.
    pub(crate) fn constant_dims_rule(&self, callee: &Callee, args: &mut [Expr]) {
        let Callee::Builtin(b) = callee else {
            return;
        };
        if !CONSTRUCTORS.iter().any(|n| (self.builtin)(n) == Some(*b)) {
            return;
        }
        let [arg] = args else {
            return;
        };
        let ExprKind::Matrix(items) = &arg.kind else {
            return;
        };
        let consts: Option<Vec<f64>> = items.iter().map(constant).collect();
        let Some(dims) = consts else {
            return;
        };
        if dims.len() >= 3 && dims[..dims.len() - 1].iter().all(|&d| d == 1.0) {
            let last = items[items.len() - 1].clone();
            *arg = last;
        }
    }
}

/// The value of a numeric literal.
fn constant(e: &Expr) -> Option<f64> {
    match e.kind {
        ExprKind::Int(i) => Some(i as f64),
        ExprKind::Real(r) => Some(r),
        _ => None,
    }
}
