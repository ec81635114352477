//! `fold`: constant folding. Every integer or boolean subexpression whose value is
//! known before the launch (constants and the arithmetic, comparisons, shifts and casts
//! of constants) becomes that constant, computed as the generated code and the CPU
//! executor compute it (`blazar_kir::fold::const_int`: wrapping rules, `x / 0 == 0`);
//! a value outside its expression's type is left alone.

use blazar_kir::fold::const_int;
use blazar_kir::visit::{exprs_mut, map_expr, operands};
use blazar_kir::{Const, Expr, ExprKind, Kernel, Scalar, Ty};

pub fn fold(k: &mut Kernel) {
    let rank = k.rank;
    exprs_mut(&mut k.body, &mut |e| {
        *e = map_expr(e, &mut |x| fold_node(x, rank))
    });
}

/// `e` folded, its operands already folded (bottom-up): only a node whose operands are
/// all constants is evaluated, so a long chain costs one step per node.
fn fold_node(e: Expr, rank: u8) -> Expr {
    if matches!(e.kind, ExprKind::Const(_)) {
        return e;
    }
    let mut constant = true;
    operands(&e, &mut |x| {
        constant &= matches!(x.kind, ExprKind::Const(_))
    });
    if !constant {
        return e;
    }
    match (const_int(&e, None, rank), e.ty) {
        (Some(v), Ty::Scalar(Scalar::Bool)) => {
            Expr::new(ExprKind::Const(Const::Bool(v != 0)), e.ty)
        }
        (Some(v), Ty::Scalar(_)) => Expr::new(ExprKind::Const(Const::Int(v)), e.ty),
        _ => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blazar_kir::{BinOp, Stmt, StmtKind, VarDecl};

    fn int(v: i64) -> Expr {
        Expr::new(ExprKind::Const(Const::Int(v)), Ty::Scalar(Scalar::I32))
    }

    fn kernel(value: Expr) -> Kernel {
        Kernel {
            name: "k".into(),
            rank: 1,
            params: vec![],
            outputs: vec![],
            vars: vec![VarDecl {
                name: "x".into(),
                ty: value.ty,
            }],
            arrays: vec![],
            body: vec![Stmt {
                line: 1,
                kind: StmtKind::Assign { var: 0, value },
            }],
            calls: Default::default(),
            facts: Default::default(),
        }
    }

    fn value(k: &Kernel) -> &Expr {
        match &k.body[0].kind {
            StmtKind::Assign { value, .. } => value,
            _ => unreachable!(),
        }
    }

    #[test]
    fn constant_arithmetic_becomes_a_constant() {
        let sum = Expr::new(
            ExprKind::Binary(BinOp::Add, Box::new(int(3)), Box::new(int(4))),
            Ty::Scalar(Scalar::I32),
        );
        let e = Expr::new(
            ExprKind::Binary(BinOp::Lt, Box::new(sum), Box::new(int(8))),
            Ty::Scalar(Scalar::Bool),
        );
        let mut k = kernel(e);
        fold(&mut k);
        assert_eq!(value(&k).kind, ExprKind::Const(Const::Bool(true)));
    }

    #[test]
    fn overflow_and_unknown_values_stay() {
        let big = Expr::new(
            ExprKind::Binary(BinOp::Mul, Box::new(int(1 << 20)), Box::new(int(1 << 20))),
            Ty::Scalar(Scalar::I32),
        );
        let mut k = kernel(big.clone());
        fold(&mut k);
        assert_eq!(value(&k), &big, "wraps in i32: left to the target");
        let var = Expr::new(ExprKind::Var(0), Ty::Scalar(Scalar::I32));
        let half = Expr::new(
            ExprKind::Binary(BinOp::Div, Box::new(var), Box::new(int(0))),
            Ty::Scalar(Scalar::I32),
        );
        let mut k = kernel(half.clone());
        fold(&mut k);
        assert_eq!(value(&k), &half);
    }
}
