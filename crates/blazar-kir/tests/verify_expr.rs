//! Verifier tests of the expression typing rules.

mod common;

use blazar_kir::verify::verify;
use blazar_kir::*;
use common::*;

const V3: Ty = Ty::Vector(Scalar::F32, 3);
const C32: Ty = Ty::Scalar(Scalar::C32);

/// Errors of `with_output()` (rank 2; v: f32x3, a: f32, b: u8; @1: local u8) after
/// assigning `value` to a fresh variable of `value.ty`.
fn errs(value: Expr) -> Vec<String> {
    let mut k = with_output();
    let v = k.vars.len() as VarId;
    let ty = match value.ty {
        Ty::Array(_) => Ty::I32,
        t => t,
    };
    k.vars.push(vdecl("t", ty));
    k.body.push(s(StmtKind::Assign { var: v, value }, 50));
    verify(&k).err().unwrap_or_default()
}

#[track_caller]
fn rejects(value: Expr, needle: &str) {
    let errs = errs(value);
    assert!(
        errs.iter().any(|m| m.contains(needle)),
        "no error contains {needle:?}: {errs:#?}"
    );
}

#[track_caller]
fn accepts(value: Expr) {
    assert_eq!(errs(value), Vec::<String>::new());
}

fn bx(x: Expr) -> Box<Expr> {
    Box::new(x)
}

fn math(f: MathFn, args: Vec<Expr>, ty: Ty) -> Expr {
    e(ExprKind::Math(f, args), ty)
}

#[test]
fn leaves() {
    rejects(
        e(ExprKind::Const(Const::Float(1.0)), Ty::I32),
        "L50: in `1.0:i32`: constant Float(1.0) cannot have type i32",
    );
    rejects(
        e(ExprKind::Const(Const::Int(1)), F32),
        "constant Int(1) cannot have type f32",
    );
    rejects(
        e(ExprKind::Const(Const::Complex(1.0, 0.0)), F32),
        "cannot have type f32",
    );
    accepts(e(ExprKind::Const(Const::Int(1)), Ty::Scalar(Scalar::U64)));
    rejects(var(1, Ty::I32), "%1 is declared f32 but used as i32");
    rejects(var(40, Ty::I32), "unknown variable %40");
    rejects(
        special(Special::Pos, Ty::I32),
        "Pos has type i32x2 in a rank 2 kernel, not i32",
    );
    accepts(special(Special::BlkCnt, Ty::Vector(Scalar::I32, 2)));
    rejects(
        special(Special::WarpSize, Ty::Vector(Scalar::I32, 2)),
        "WarpSize has type i32",
    );
    rejects(
        e(ExprKind::Size { arr: 0, dim: 5 }, F32),
        "sizes have type i32, not f32",
    );
    rejects(e(ExprKind::Numel(8), Ty::I32), "unknown array @8");
}

#[test]
fn operators() {
    let neg = |a: Expr, ty| e(ExprKind::Unary(UnOp::Neg, bx(a)), ty);
    accepts(neg(var(0, V3), V3));
    rejects(
        neg(Expr::boolean(true), Ty::BOOL),
        "Neg is not defined on bool",
    );
    rejects(
        e(ExprKind::Unary(UnOp::BitNot, bx(f32c(1.0))), F32),
        "BitNot is not defined on f32",
    );
    rejects(
        e(ExprKind::Unary(UnOp::Not, bx(Expr::int(1))), Ty::I32),
        "Not is not defined on i32",
    );
    rejects(
        neg(Expr::int(1), F32),
        "operand has type i32 but the result is f32",
    );
    rejects(
        bin(BinOp::Add, Expr::int(1), f32c(1.0)),
        "in `(1 + 1.0f32)`: operands have different types i32 and f32",
    );
    let b = |op, a: Expr, c: Expr, ty| e(ExprKind::Binary(op, bx(a), bx(c)), ty);
    rejects(
        b(BinOp::Lt, Expr::int(1), Expr::int(2), Ty::I32),
        "result should have type bool, not i32",
    );
    accepts(b(
        BinOp::Eq,
        var(0, V3),
        var(0, V3),
        Ty::Vector(Scalar::Bool, 3),
    ));
    rejects(
        b(BinOp::Lt, var(0, V3), var(0, V3), Ty::BOOL),
        "result should have type boolx3, not bool",
    );
    rejects(
        b(BinOp::And, Expr::int(1), Expr::int(2), Ty::I32),
        "`&&` is not defined on i32",
    );
    rejects(
        b(BinOp::Shl, f32c(1.0), f32c(2.0), F32),
        "`<<` is not defined on f32",
    );
    let c = Expr::new(ExprKind::Const(Const::Complex(0.0, 1.0)), C32);
    rejects(
        b(BinOp::Lt, c.clone(), c.clone(), Ty::BOOL),
        "`<` is not defined on c32",
    );
    accepts(b(BinOp::Mul, c.clone(), c.clone(), C32));
    let cast = |a: Expr, ty| e(ExprKind::Cast(bx(a)), ty);
    accepts(cast(Expr::int(1), Ty::Scalar(Scalar::F64)));
    accepts(cast(var(0, V3), Ty::Vector(Scalar::I32, 3)));
    rejects(cast(var(0, V3), F32), "cannot cast f32x3 to f32");
    rejects(
        cast(var(0, V3), Ty::Vector(Scalar::I32, 2)),
        "cannot cast f32x3 to i32x2",
    );
    rejects(cast(c, F32), "cannot cast complex c32 to f32");
    let sel = |c: Expr, a: Expr, x: Expr, ty| e(ExprKind::Select(bx(c), bx(a), bx(x)), ty);
    rejects(
        sel(Expr::int(1), f32c(1.0), f32c(2.0), F32),
        "condition has type i32, not bool",
    );
    rejects(
        sel(Expr::boolean(true), f32c(1.0), Expr::int(2), F32),
        "branches have types f32 and i32",
    );
    let mask = b(
        BinOp::Gt,
        var(0, V3),
        var(0, V3),
        Ty::Vector(Scalar::Bool, 3),
    );
    accepts(sel(mask, var(0, V3), var(0, V3), V3));
}

#[test]
fn math_functions() {
    accepts(math(MathFn::Atan2, vec![f32c(1.0), f32c(2.0)], F32));
    rejects(
        math(MathFn::Atan2, vec![f32c(1.0)], F32),
        "atan2 takes 2 argument(s), not 1",
    );
    rejects(
        math(MathFn::Sqrt, vec![], F32),
        "sqrt takes 1 argument(s), not 0",
    );
    rejects(
        math(MathFn::Sqrt, vec![Expr::int(4)], Ty::I32),
        "sqrt is not defined on i32",
    );
    rejects(
        math(MathFn::IsNan, vec![f32c(1.0)], F32),
        "isnan of f32 gives bool, not f32",
    );
    accepts(math(
        MathFn::IsFinite,
        vec![var(0, V3)],
        Ty::Vector(Scalar::Bool, 3),
    ));
    rejects(
        math(MathFn::MakeComplex, vec![f32c(1.0), f32c(2.0)], F32),
        "complex of f32 gives c32, not f32",
    );
    rejects(
        math(MathFn::Periodize, vec![f32c(1.0), Expr::int(2)], F32),
        "arguments have different types f32 and i32",
    );
    let c = Expr::new(ExprKind::Const(Const::Complex(0.0, 1.0)), C32);
    accepts(math(MathFn::Abs, vec![c.clone()], F32));
    rejects(
        math(MathFn::Angle, vec![c.clone()], C32),
        "angle of c32 gives f32, not c32",
    );
    accepts(math(MathFn::Conj, vec![c.clone()], C32));
    accepts(math(MathFn::Exp, vec![c], C32));
}

#[test]
fn arrays_and_vectors() {
    rejects(
        load(0, Scalar::F64, vec![Expr::int(0)]),
        "@0 has elements of type f32, not f64",
    );
    rejects(
        load(0, Scalar::F32, vec![Expr::int(0); 3]),
        "@0 of rank 2 is indexed with 3 indices",
    );
    accepts(load(
        0,
        Scalar::F32,
        vec![e(ExprKind::Const(Const::Int(0)), Ty::Scalar(Scalar::I64))],
    ));
    rejects(
        load(9, Scalar::F32, vec![Expr::int(0)]),
        "unknown array @9 (kernel has 2)",
    );
    rejects(
        e(ExprKind::VecLit(vec![f32c(1.0); 2]), V3),
        "2 elements for f32x3",
    );
    rejects(
        e(
            ExprKind::VecLit(vec![f32c(1.0), f32c(1.0), Expr::int(1)]),
            V3,
        ),
        "element 2 has type i32, not f32",
    );
    rejects(
        e(ExprKind::VecLit(vec![]), F32),
        "vector literal of non-vector type f32",
    );
    rejects(
        e(ExprKind::Splat(bx(Expr::int(1))), V3),
        "splatting i32 to f32x3",
    );
    rejects(
        e(ExprKind::Lane(bx(f32c(1.0)), bx(Expr::int(0))), F32),
        "lane of non-vector type f32",
    );
    rejects(
        e(ExprKind::Lane(bx(var(0, V3)), bx(f32c(0.0))), F32),
        "lane index has type f32",
    );
    rejects(
        e(ExprKind::Lane(bx(var(0, V3)), bx(Expr::int(0))), Ty::I32),
        "a lane of f32x3 has type f32, not i32",
    );
    rejects(
        e(ExprKind::VecReduce(VecReduce::Max, bx(var(0, V3))), V3),
        "reducing f32x3 gives f32, not f32x3",
    );
    rejects(
        e(ExprKind::VecReduce(VecReduce::Sum, bx(f32c(1.0))), F32),
        "vector reduction of non-vector type f32",
    );
}

#[test]
fn every_error_is_collected_with_its_line() {
    let mut k = reduction();
    k.body.insert(
        0,
        s(
            StmtKind::Assign {
                var: 0,
                value: f32c(1.0),
            },
            2,
        ),
    );
    k.body.push(s(StmtKind::Break(0), 30));
    k.body.push(s(
        StmtKind::Assign {
            var: 1,
            value: bin(BinOp::Add, f32c(1.0), Expr::int(1)),
        },
        31,
    ));
    let errs = verify(&k).unwrap_err();
    assert_eq!(
        errs,
        vec![
            "L2: assigning `1.0f32` of type f32 to %0 of type i32",
            "L30: break 0 with only 0 enclosing loop(s)",
            "L31: in `(1.0f32 + 1)`: operands have different types f32 and i32",
            "L31: assigning `(1.0f32 + 1)` of type f32 to %1 of type i32",
        ]
    );
}

#[test]
fn malformed_ids_never_panic() {
    let mut k = with_output();
    k.arrays[1].ty = Ty::I32;
    k.vars.clear();
    k.body.push(s(
        StmtKind::For {
            var: 5,
            start: Expr::int(0),
            step: Expr::int(1),
            end: Expr::int(2),
            body: vec![],
        },
        9,
    ));
    let errs = verify(&k).unwrap_err();
    assert!(
        errs.iter().any(|m| m.contains("array @1 (t) has type i32")),
        "{errs:#?}"
    );
    assert!(
        errs.iter()
            .any(|m| m.contains("L9: unknown variable %5 (kernel has 0)")),
        "{errs:#?}"
    );
}
