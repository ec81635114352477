//! Walks over KIR shared by the passes and backends: rewriting expressions bottom-up.

use crate::ir::{Expr, ExprKind, VarId};

/// `e` with every node passed through `f` after its operands (bottom-up).
pub fn map_expr(e: &Expr, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
    let mut m = |x: &Expr| Box::new(map_expr(x, f));
    let kind = match &e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => e.kind.clone(),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, m(a)),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, m(a), m(b)),
        ExprKind::Cast(a) => ExprKind::Cast(m(a)),
        ExprKind::Select(c, a, b) => ExprKind::Select(m(c), m(a), m(b)),
        ExprKind::Math(g, args) => ExprKind::Math(*g, args.iter().map(|a| *m(a)).collect()),
        ExprKind::Load { arr, index } => ExprKind::Load {
            arr: *arr,
            index: index.iter().map(|a| *m(a)).collect(),
        },
        ExprKind::VecLit(items) => ExprKind::VecLit(items.iter().map(|a| *m(a)).collect()),
        ExprKind::Splat(a) => ExprKind::Splat(m(a)),
        ExprKind::Lane(v, l) => ExprKind::Lane(m(v), m(l)),
        ExprKind::VecReduce(r, a) => ExprKind::VecReduce(*r, m(a)),
    };
    f(Expr::new(kind, e.ty))
}

/// `e` with every read of variable `var` replaced by `with`.
pub fn substitute(e: &Expr, var: VarId, with: &Expr) -> Expr {
    map_expr(e, &mut |x| match x.kind {
        ExprKind::Var(v) if v == var => with.clone(),
        _ => x,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::BinOp;
    use crate::types::Ty;

    #[test]
    fn substitute_replaces_every_read_of_the_variable() {
        let v = |i| Expr::new(ExprKind::Var(i), Ty::I32);
        let add = |a, b| {
            Expr::new(
                ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(b)),
                Ty::I32,
            )
        };
        let e = add(v(0), add(v(1), v(0)));
        let got = substitute(&e, 0, &Expr::int(7));
        assert_eq!(got, add(Expr::int(7), add(v(1), Expr::int(7))));
    }
}
