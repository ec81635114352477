//! The band variant of a kernel: the same kernel with one more scalar parameter, the
//! band's first row, added to the first component of `pos` wherever the kernel reads
//! it. Launched over a band's rows, its threads see the positions they have in the
//! whole launch.

use blazar_kir::{BinOp, Bind, Expr, ExprKind, Kernel, Param, Special, Ty, VarDecl};

/// `k` with `pos[0]` offset by a new last parameter (an `i32`).
pub fn band_variant(k: &Kernel) -> Kernel {
    let mut v = k.clone();
    let row0 = v.vars.len() as u32;
    v.vars.push(VarDecl {
        name: "__band_row0".into(),
        ty: Ty::I32,
    });
    v.params.push(Param {
        name: "__band_row0".into(),
        bind: Bind::Var(row0),
    });
    let offset = |ty: Ty| -> Expr {
        let r = Expr::new(ExprKind::Var(row0), Ty::I32);
        match ty {
            Ty::Vector(s, n) => {
                let mut lanes = vec![r];
                lanes.extend((1..n).map(|_| Expr::int(0)));
                Expr::new(ExprKind::VecLit(lanes), Ty::Vector(s, n))
            }
            _ => r,
        }
    };
    let mut fix = |e: &mut Expr| rewrite(e, &offset);
    blazar_kir::visit::exprs_mut(&mut v.body, &mut fix);
    v
}

fn rewrite(e: &mut Expr, offset: &dyn Fn(Ty) -> Expr) {
    if let ExprKind::Special(Special::Pos) = e.kind {
        let pos = e.clone();
        *e = Expr::new(
            ExprKind::Binary(BinOp::Add, Box::new(pos), Box::new(offset(e.ty))),
            e.ty,
        );
        return;
    }
    match &mut e.kind {
        ExprKind::Const(_)
        | ExprKind::Var(_)
        | ExprKind::Special(_)
        | ExprKind::Size { .. }
        | ExprKind::Numel(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Splat(a)
        | ExprKind::VecReduce(_, a) => rewrite(a, offset),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
            rewrite(a, offset);
            rewrite(b, offset);
        }
        ExprKind::Select(a, b, c) => {
            rewrite(a, offset);
            rewrite(b, offset);
            rewrite(c, offset);
        }
        ExprKind::Math(_, xs) | ExprKind::VecLit(xs) | ExprKind::Load { index: xs, .. } => {
            xs.iter_mut().for_each(|x| rewrite(x, offset))
        }
    }
}
