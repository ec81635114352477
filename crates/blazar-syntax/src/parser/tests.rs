//! Unit tests of statement parsing and error recovery.

use crate::ast::*;
use crate::printer::print_expr;
use crate::{parse, FileId};

fn ok(src: &str) -> Vec<Stmt> {
    let (p, diags) = parse(src, FileId(0));
    assert!(diags.is_empty(), "diagnostics for {src:?}: {diags:?}");
    p.stmts
}

fn one(src: &str) -> StmtKind {
    let stmts = ok(src);
    assert_eq!(stmts.len(), 1, "{stmts:?}");
    stmts
        .into_iter()
        .next()
        .map(|s| s.kind)
        .unwrap_or(StmtKind::Return)
}

fn errors(src: &str) -> Vec<String> {
    parse(src, FileId(0))
        .1
        .into_iter()
        .map(|d| d.message)
        .collect()
}

fn names(ps: &[Param]) -> Vec<&str> {
    ps.iter().map(|p| p.name.name.as_str()).collect()
}

#[test]
fn function_headers() {
    let StmtKind::Function(f) =
        one("function [a, b] = f(x, y : int, z : scalar = 0.5)\n a = x\nend")
    else {
        panic!()
    };
    assert_eq!(
        (f.name.name.as_str(), names(&f.outputs), names(&f.params)),
        ("f", vec!["a", "b"], vec!["x", "y", "z"])
    );
    assert!(f.params[2].default.is_some() && f.params[1].ty.is_some());
    assert_eq!(f.body.len(), 1);
    let StmtKind::Function(f) = one("function y : mat = f(x)\nendfunction") else {
        panic!()
    };
    assert_eq!(names(&f.outputs), vec!["y"]);
    assert!(f.outputs[0].ty.is_some());
    let StmtKind::Function(f) = one("function [] = g()\nend") else {
        panic!()
    };
    assert!(f.outputs.is_empty() && f.params.is_empty() && f.kind == FnKind::Host);
    let StmtKind::Function(f) =
        one("function [y : scalar] = __kernel__ k(x : vec'unchecked,\n  pos : int)\nend")
    else {
        panic!()
    };
    assert_eq!(
        (f.kind, names(&f.params)),
        (FnKind::Kernel, vec!["x", "pos"])
    );
    let StmtKind::Function(f) = one("function y = __device__ f(x : vec)\n y = x\nend") else {
        panic!()
    };
    assert_eq!(f.kind, FnKind::Device);
    let StmtKind::Function(f) = one("function y : scalar = r_sum(x : cube) concealed\n y = 0\nend")
    else {
        panic!()
    };
    assert!(f.concealed);
    let StmtKind::Function(f) =
        one("function total:scalar = __kernel__ k($dims:ivec2, _\n  blkpos:ivec2)\nend")
    else {
        panic!()
    };
    assert_eq!(names(&f.params), vec!["$dims", "blkpos"]);
}

#[test]
fn nested_functions() {
    let src = "function [] = outer(x)\n  function [] = __kernel__ inner(pos : ivec2)\n  endfunction\n  parallel_do(size(x), inner)\nendfunction";
    let StmtKind::Function(f) = one(src) else {
        panic!()
    };
    assert_eq!(f.body.len(), 2);
    assert!(matches!(&f.body[0].kind, StmtKind::Function(g) if g.name.name == "inner"));
}

#[test]
fn control_flow() {
    let StmtKind::If { arms, otherwise } =
        one("if a\n x = 1\nelseif b\n x = 2\nelse\n x = 3\nendif")
    else {
        panic!()
    };
    assert_eq!((arms.len(), otherwise.map(|b| b.len())), (2, Some(1)));
    let StmtKind::For {
        var,
        iter,
        body,
        label,
    } = one("for i=0..2..10\n print i\nendfor")
    else {
        panic!()
    };
    assert_eq!(
        (var.name.as_str(), print_expr(&iter), body.len(), label),
        ("i", "(0 .. 2 .. 10)".to_string(), 1, None)
    );
    assert!(matches!(
        one("while k <= n\n k *= 2\nendwhile"),
        StmtKind::While { .. }
    ));
    let StmtKind::Repeat { body, cond, .. } = one("repeat\n x += 1\nuntil x > 3") else {
        panic!()
    };
    assert_eq!((body.len(), print_expr(&cond)), (1, "(x > 3)".to_string()));
    assert!(matches!(one("if a, b = 1, end"), StmtKind::If { .. }));
}

#[test]
fn labels_break_continue_return() {
    let src = "outer:\nfor j = 0..3\n inner:\n while true\n  break outer\n  continue inner\n  break\n  return\n end\nend";
    let StmtKind::For { label, body, .. } = one(src) else {
        panic!()
    };
    assert_eq!(label.map(|l| l.name), Some("outer".to_string()));
    let StmtKind::While { label, body, .. } = &body[0].kind else {
        panic!()
    };
    assert_eq!(label.as_ref().map(|l| l.name.as_str()), Some("inner"));
    assert!(matches!(&body[0].kind, StmtKind::Break(Some(l)) if l.name == "outer"));
    assert!(matches!(&body[1].kind, StmtKind::Continue(Some(l)) if l.name == "inner"));
    assert!(matches!(&body[2].kind, StmtKind::Break(None)));
    assert!(matches!(&body[3].kind, StmtKind::Return));
}

#[test]
fn match_statement() {
    let src = "match x with\n| \"a\" -> y = 1\n  z = 2\n| 1 ->\n  y = 3\n| _ -> y = 4\nend";
    let StmtKind::Match { scrutinee, arms } = one(src) else {
        panic!()
    };
    assert_eq!(print_expr(&scrutinee), "x");
    assert_eq!(arms.len(), 3);
    assert_eq!(arms[0].body.len(), 2);
    assert_eq!(
        arms[1].pattern.as_ref().map(|p| p.kind.clone()),
        Some(ExprKind::Int(1))
    );
    assert!(arms[2].pattern.is_none());
}

#[test]
fn assignments() {
    let StmtKind::Assign {
        targets, multi, op, ..
    } = one("[s[v], s[w]] = [s[w], s[v]]")
    else {
        panic!()
    };
    assert_eq!((targets.len(), multi, op), (2, true, AssignOp::Set));
    let StmtKind::Assign { targets, multi, .. } = one("[M,N,P] = blkdim+[2,0,0]") else {
        panic!()
    };
    assert_eq!((targets.len(), multi), (3, true));
    let StmtKind::Assign { targets, multi, .. } = one("[] = f()") else {
        panic!()
    };
    assert_eq!((targets.len(), multi), (0, true));
    for (src, op) in [
        ("a += 1", BinOp::Add),
        ("a -= 1", BinOp::Sub),
        ("a *= 1", BinOp::Mul),
        ("a /= 1", BinOp::Div),
        ("a ^= 1", BinOp::Pow),
        ("a .*= 1", BinOp::EMul),
        ("a ./= 1", BinOp::EDiv),
        ("a .^= 1", BinOp::EPow),
    ] {
        assert!(
            matches!(one(src), StmtKind::Assign { op: AssignOp::Update(o), .. } if o == op),
            "{src}"
        );
    }
    assert!(matches!(one("o.field = 3"), StmtKind::Assign { .. }));
    assert!(matches!(
        one("syncthreads"),
        StmtKind::Expr(Expr {
            kind: ExprKind::Ident(_),
            ..
        })
    ));
    assert_eq!(ok("x = 5,\ny = 6").len(), 2);
    assert_eq!(ok("x = 5; y = 6;").len(), 2);
}

#[test]
fn declarations() {
    let StmtKind::Decl { name, value, .. } = one("x : int = 5") else {
        panic!()
    };
    assert_eq!((name.name.as_str(), value.is_some()), ("x", true));
    assert!(matches!(
        one("img : cube"),
        StmtKind::Decl { value: None, .. }
    ));
    let StmtKind::Decl { ty, .. } = one("y : vec'unchecked = zeros(256)") else {
        panic!()
    };
    assert_eq!(ty.modifiers[0].name, "unchecked");
    assert!(matches!(
        one("y_sh : mat = shared(256,4)"),
        StmtKind::Decl { .. }
    ));
    let StmtKind::Decl { name, ty, value } = one("int n = 5") else {
        panic!()
    };
    assert_eq!(name.name, "n");
    assert!(matches!(ty.kind, TypeKind::Named { ref name, .. } if name == "int"));
    assert!(value.is_some());
    assert!(matches!(one("scalar x = 1.0"), StmtKind::Decl { .. }));
}

#[test]
fn print_import() {
    assert!(matches!(one("print a, b, c"), StmtKind::Print(a) if a.len() == 3));
    assert!(matches!(one("print(x)"), StmtKind::Print(a) if a.len() == 1));
    assert!(matches!(one("print type(a)"), StmtKind::Print(a) if a.len() == 1));
    assert!(matches!(one("print"), StmtKind::Print(a) if a.is_empty()));
    assert!(matches!(one("print [1, 2]"), StmtKind::Print(a) if a.len() == 1));
    assert!(matches!(one("print[0] = 1"), StmtKind::Assign { .. }));
    assert_eq!(one("import \"file.q\""), StmtKind::Import("file.q".into()));
    assert!(matches!(one("type(x, 'cube')"), StmtKind::Expr(_)));
}

#[test]
fn type_definitions() {
    let StmtKind::TypeDef { name, def } =
        one("type point : mutable class\n  x : scalar\n  y : scalar\nend")
    else {
        panic!()
    };
    assert_eq!(name.name, "point");
    assert!(matches!(def, TypeDef::Class { mutable: true, ref fields } if fields.len() == 2));
    assert!(matches!(
        one("type p : class\nend"),
        StmtKind::TypeDef {
            def: TypeDef::Class { mutable: false, .. },
            ..
        }
    ));
    let StmtKind::TypeDef {
        def: TypeDef::Alias(t),
        ..
    } = one("type T : [vec|mat|cube]")
    else {
        panic!()
    };
    assert!(matches!(t.kind, TypeKind::Union(ref a) if a.len() == 3));
    let StmtKind::TypeDef {
        def: TypeDef::Alias(t),
        ..
    } = one("type accumulator : [__device__ (scalar, scalar) -> scalar]")
    else {
        panic!()
    };
    assert!(matches!(
        t.kind,
        TypeKind::Func {
            kind: FnKind::Device,
            ..
        }
    ));
}

#[test]
fn reduction_where_clause() {
    let StmtKind::Reduction { cond, .. } = one("reduction (x, n) -> x^n = x * x where n == 2")
    else {
        panic!()
    };
    assert!(cond.is_some());
}

#[test]
fn reductions_and_macros() {
    let StmtKind::Reduction {
        params,
        pattern,
        replacement,
        ..
    } = one("reduction (x : cube) -> sum(x) = r_sum(x)")
    else {
        panic!()
    };
    assert_eq!(names(&params), vec!["x"]);
    assert!(
        matches!(pattern.kind, StmtKind::Expr(_)) && matches!(replacement.kind, StmtKind::Expr(_))
    );
    let src = "reduction (x : T, a : T, b, c) -> (x[a > b] = c) = (x += (c - x) .* (a > b))";
    let StmtKind::Reduction {
        params,
        pattern,
        replacement,
        ..
    } = one(src)
    else {
        panic!()
    };
    assert_eq!(params.len(), 4);
    assert!(matches!(
        pattern.kind,
        StmtKind::Assign {
            op: AssignOp::Set,
            ..
        }
    ));
    assert!(matches!(
        replacement.kind,
        StmtKind::Assign {
            op: AssignOp::Update(BinOp::Add),
            ..
        }
    ));
    let src = "macro [] = hist_profile()\n  if $target(\"gpu\")\n    !kernel_transform enable=\"x\"\n  endif\nendmacro";
    let StmtKind::Macro { name, body, .. } = one(src) else {
        panic!()
    };
    assert_eq!(name.name, "hist_profile");
    assert!(
        matches!(&body[0].kind, StmtKind::If { arms, .. } if matches!(arms[0].1[0].kind, StmtKind::Attribute(_)))
    );
}

fn attr(src: &str) -> Attribute {
    match one(src) {
        StmtKind::Attribute(a) => a,
        other => panic!("{other:?}"),
    }
}

#[test]
fn attributes() {
    let a = attr("!parallel for");
    assert_eq!(
        (a.style, a.name.name.as_str(), a.args.as_str()),
        (AttrStyle::Bang, "parallel", "for")
    );
    let a = attr("!kernel_arg name=y; type=\"inout\"; access=\"shared\"; op=\"+=\"; cache_slices=y[:]; numel=256");
    assert_eq!(
        a.args,
        "name=y; type=\"inout\"; access=\"shared\"; op=\"+=\"; cache_slices=y[:]; numel=256"
    );
    let a = attr("!kernel_tiling dims=[128,256,1]; mode=\"global\"; target=\"gpu\"}");
    assert!(a.args.ends_with('}'));
    let a = attr("!hist_profile");
    assert_eq!(
        (a.name.name.as_str(), a.args.as_str()),
        ("hist_profile", "")
    );
    let a = attr("{!name key=\"v\"}");
    assert_eq!((a.style, a.args.as_str()), (AttrStyle::Brace, "key=\"v\""));
    let a = attr("#pragma force_parallel");
    assert_eq!(
        (a.style, a.name.name.as_str()),
        (AttrStyle::Pragma, "force_parallel")
    );
    let stmts = ok("!parallel for\nfor m=0..9\n  x[m] = 1\nend");
    assert_eq!(stmts.len(), 2);
}

#[test]
fn recovery_reports_every_error() {
    let src = "x = (1 +\ny = 2\nz = )\nfor i = 0..3\n  a = ]\nend\nw = 3 3\n";
    let errs = errors(src);
    // The open `(` continues the first statement onto the next line.
    assert_eq!(
        errs,
        vec![
            "expected `)`, found `=`".to_string(),
            "expected an expression, found `]`".to_string(),
            "expected end of statement, found number `3`".to_string(),
        ]
    );
    let (p, _) = parse(src, FileId(0));
    assert!(p
        .stmts
        .iter()
        .any(|s| matches!(s.kind, StmtKind::For { .. })));
}

#[test]
fn unclosed_blocks() {
    let errs = errors("x = 1\nfor i = 0..3\n  y = 2\n");
    assert_eq!(
        errs,
        vec!["expected `end` to close `for` started at line 2, found end of file".to_string()]
    );
    let errs = errors("function f()\n if a\n  b = 1\nendfunction");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].contains("close `if` started at line 2"), "{errs:?}");
    let errs = errors("end\nx = 1\nelse");
    assert_eq!(
        errs,
        vec![
            "unexpected `end`".to_string(),
            "unexpected `else`".to_string()
        ]
    );
}

#[test]
fn error_locations() {
    let (_, diags) = parse("a = 1\nb = )\n", FileId(0));
    assert_eq!(diags.len(), 1);
    let span = diags[0].span.unwrap_or_default();
    assert_eq!((span.lo, span.hi), (10, 11));
    assert!(errors("x = y'").iter().any(|e| e.contains("transpose")));
    assert!(!errors("x = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1").is_empty());
}

#[test]
fn spans_and_blocks_kept_after_junk() {
    let src = "for i = 0..1\n x = 1\nend junk\nrepeat\n y = 2\n";
    let (p, diags) = parse(src, FileId(0));
    let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "expected end of statement, found `junk`",
            "expected `until` to close `repeat` started at line 4, found end of file"
        ]
    );
    assert_eq!(p.stmts.len(), 2);
    let end = src.find("end").unwrap_or(0) + 3;
    assert_eq!((p.stmts[0].span.lo, p.stmts[0].span.hi), (0, end as u32));
    let StmtKind::For { body, .. } = &p.stmts[0].kind else {
        panic!()
    };
    assert_eq!((body[0].span.lo, body[0].span.hi), (14, 19));
}
