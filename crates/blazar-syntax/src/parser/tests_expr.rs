//! Unit tests of expression parsing; shapes are checked through the printer, which
//! parenthesises every operator.

use crate::ast::*;
use crate::printer::{print_expr, print_type};
use crate::{parse, FileId};

/// Parses `x = <src>` and prints the right side.
fn ex(src: &str) -> String {
    let (p, diags) = parse(&format!("x = {src}"), FileId(0));
    assert!(diags.is_empty(), "diagnostics for {src:?}: {diags:?}");
    match &p.stmts[..] {
        [Stmt {
            kind: StmtKind::Assign { value, .. },
            ..
        }] => print_expr(value),
        other => panic!("not one assignment: {other:?}"),
    }
}

fn value(src: &str) -> Expr {
    let (p, diags) = parse(&format!("x = {src}"), FileId(0));
    assert!(diags.is_empty(), "diagnostics for {src:?}: {diags:?}");
    match p.stmts.into_iter().next().map(|s| s.kind) {
        Some(StmtKind::Assign { value, .. }) => value,
        other => panic!("{other:?}"),
    }
}

#[test]
fn precedence() {
    assert_eq!(ex("-x^2"), "(-(x ^ 2))");
    assert_eq!(ex("0..n-1"), "(0 .. (n - 1))");
    assert_eq!(ex("a..-1..b"), "(a .. (-1) .. b)");
    assert_eq!(ex("a..s..b"), "(a .. s .. b)");
    assert_eq!(ex("1 + 2 * 3 - 4"), "((1 + (2 * 3)) - 4)");
    assert_eq!(ex("a < b && c || d"), "(((a < b) && c) || d)");
    assert_eq!(ex("2^3^2"), "(2 ^ (3 ^ 2))");
    assert_eq!(ex("10^-6"), "(10 ^ (-6))");
    assert_eq!(ex("2^-x"), "(2 ^ (-x))");
    assert_eq!(ex("a .* b ./ c .^ 2"), "((a .* b) ./ (c .^ 2))");
    assert_eq!(ex("!a == b"), "((!a) == b)");
    assert_eq!(ex("c ? a : b"), "(c ? a : b)");
    assert_eq!(
        ex("x > 0 ? 1 : y > 0 ? 2 : 3"),
        "((x > 0) ? 1 : ((y > 0) ? 2 : 3))"
    );
    assert_eq!(ex("(-n..n).^2"), "(((-n) .. n) .^ 2)");
}

#[test]
fn literals() {
    assert_eq!(value("5").kind, ExprKind::Int(5));
    assert_eq!(value("5.").kind, ExprKind::Real(5.0));
    assert_eq!(value("1011b").kind, ExprKind::Int(11));
    assert_eq!(value("2.5i").kind, ExprKind::Imag(2.5));
    assert_eq!(value("'??'").kind, ExprKind::Str("??".into()));
    assert_eq!(value("true").kind, ExprKind::Ident("true".into()));
}

#[test]
fn postfix() {
    assert_eq!(ex("imread(\"f\")[:, :, 0]"), "imread(\"f\")[:, :, 0]");
    assert_eq!(ex("d[0][pos]"), "d[0][pos]");
    assert_eq!(ex("f(x)(y)"), "f(x)(y)");
    assert_eq!(ex("o.field.g(1)"), "o.field.g(1)");
    assert_eq!(ex("x[9..-1..0]"), "x[(9 .. (-1) .. 0)]");
    assert_eq!(ex("size(x,0..1)"), "size(x, (0 .. 1))");
    assert!(
        matches!(value("x[:]").kind, ExprKind::Index { ref indices, .. } if indices[0].kind == ExprKind::Colon)
    );
}

#[test]
fn matrices_and_cells() {
    assert_eq!(ex("[1, 2, 3]"), "[1, 2, 3]");
    assert_eq!(ex("[[1,2],\n [3,4]]"), "[[1, 2], [3, 4]]");
    assert_eq!(ex("[]"), "[]");
    assert_eq!(ex("`1,2,3j,zeros(4,4)'"), "`1, 2, 3.0i, zeros(4, 4)'");
    assert_eq!(ex("`1,2\u{b4}"), "`1, 2'");
    assert_eq!(
        ex("` `[1, 2],[1,2]',`[1, 2, 3],[4, 5, 6]' '"),
        "``[1, 2], [1, 2]', `[1, 2, 3], [4, 5, 6]''"
    );
    assert_eq!(
        ex("`(x->2*x), (x->3*x)'"),
        "`((x) -> (2 * x)), ((x) -> (3 * x))'"
    );
    assert_eq!(ex("`eye(4), ones(4,4)'"), "`eye(4), ones(4, 4)'");
}

#[test]
fn lambdas() {
    assert_eq!(ex("x -> x + 1"), "((x) -> (x + 1))");
    assert_eq!(ex("(x, y) -> x * y"), "((x, y) -> (x * y))");
    assert_eq!(ex("(x : int) -> 2*x"), "((x : int) -> (2 * x))");
    assert_eq!(ex("(x:int->2*x)"), "((x : int) -> (2 * x))");
    assert_eq!(ex("() -> (a = 1; b)"), "(() -> (a = 1; b))");
    assert_eq!(
        ex("__device__ (x : scalar, y : scalar) -> x + y"),
        "(__device__ (x : scalar, y : scalar) -> (x + y))"
    );
    assert_eq!(
        ex("__kernel__ (y : cube'unchecked, pos : ivec3) -> _\n  y[pos] = 2*y[pos]"),
        "(__kernel__ (y : cube'unchecked, pos : ivec3) -> (y[pos] = (2 * y[pos])))"
    );
    assert_eq!(
        ex("parallel_do(size(y), y, __kernel__ (y : vec, pos : int) -> y[pos] += 1)"),
        "parallel_do(size(y), y, (__kernel__ (y : vec, pos : int) -> (y[pos] += 1)))"
    );
    let v = value("(x, y) -> x");
    let ExprKind::Lambda(l) = v.kind else {
        panic!()
    };
    assert_eq!(l.params.len(), 2);
    assert!(matches!(l.body, LambdaBody::Expr(_)));
    let v = value("() -> (s1; s2)");
    let ExprKind::Lambda(l) = v.kind else {
        panic!()
    };
    assert!(matches!(&l.body, LambdaBody::Block(b) if b.len() == 2));
}

fn ty(src: &str) -> String {
    let (p, diags) = parse(&format!("x : {src}"), FileId(0));
    assert!(diags.is_empty(), "diagnostics for {src:?}: {diags:?}");
    match &p.stmts[0].kind {
        StmtKind::Decl { ty, .. } => print_type(ty),
        other => panic!("{other:?}"),
    }
}

#[test]
fn types() {
    assert_eq!(ty("??"), "??");
    assert_eq!(ty("vec[int8]"), "vec[int8]");
    assert_eq!(ty("cube[??]"), "cube[??]");
    assert_eq!(ty("cube{4}"), "cube{4}");
    assert_eq!(ty("cube'unchecked'const"), "cube'unchecked'const");
    assert_eq!(ty("mat' unchecked"), "mat'unchecked");
    assert_eq!(ty("[vec|mat|cube]"), "[vec | mat | cube]");
    assert_eq!(
        ty("[(scalar, scalar) -> scalar]"),
        "[(scalar, scalar) -> scalar]"
    );
    assert_eq!(
        ty("[__device__ (scalar, scalar) -> scalar]"),
        "[__device__ (scalar, scalar) -> scalar]"
    );
    assert_eq!(ty("[?? -> ??]"), "[(??) -> ??]");
    assert_eq!(ty("[(??,??)->(??,??)]"), "[(??, ??) -> (??, ??)]");
    assert_eq!(ty("[__device__ mat -> ()]"), "[__device__ (mat) -> ()]");
    assert_eq!(ty("vec[ [int->int] ]"), "vec[[(int) -> int]]");
    // A union whose alternatives are function types (brackets balanced).
    let nested =
        ty("[vec[ [??->[int|mat|cube[??->??] ] | int -> ?? | __device__ mat->() ] | cscalar ] ]");
    assert_eq!(ty(&nested), nested);
    let (p, _) = parse("x : [int->int]", FileId(0));
    let StmtKind::Decl { ty, .. } = &p.stmts[0].kind else {
        panic!()
    };
    assert!(
        matches!(&ty.kind, TypeKind::Func { kind: FnKind::Host, params, results } if params.len() == 1 && results.len() == 1)
    );
}
