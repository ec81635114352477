//! Unit tests of the lexer.

use super::*;

fn toks(src: &str) -> Vec<Tok> {
    let (toks, diags) = lex(src, FileId(0));
    assert!(
        diags.is_empty(),
        "unexpected diagnostics for {src:?}: {diags:?}"
    );
    toks.into_iter()
        .map(|t| t.tok)
        .filter(|t| *t != Tok::Eof)
        .collect()
}

fn id(s: &str) -> Tok {
    Tok::Ident(s.to_string())
}

#[test]
fn numbers() {
    assert_eq!(toks("5"), vec![Tok::Int(5)]);
    assert_eq!(toks("5."), vec![Tok::Real(5.0)]);
    assert_eq!(toks("0.5 .5"), vec![Tok::Real(0.5), Tok::Real(0.5)]);
    assert_eq!(
        toks("1e37 1.9e-4"),
        vec![Tok::Real(1e37), Tok::Real(1.9e-4)]
    );
    assert_eq!(
        toks("3j 0i 2.5i"),
        vec![Tok::Imag(3.0), Tok::Imag(0.0), Tok::Imag(2.5)]
    );
    assert_eq!(toks("1011b"), vec![Tok::Int(11)]);
    assert_eq!(toks("1..n"), vec![Tok::Int(1), Tok::DotDot, id("n")]);
    assert_eq!(toks("0..2"), vec![Tok::Int(0), Tok::DotDot, Tok::Int(2)]);
    assert_eq!(toks("5.*x"), vec![Tok::Int(5), Tok::DotStar, id("x")]);
    assert_eq!(toks("99999999999999999999"), vec![Tok::Real(1e20)]);
}

#[test]
fn operators() {
    use crate::ast::BinOp::*;
    assert_eq!(
        toks("a .*= b ./= c .^= d += e -> f"),
        vec![
            id("a"),
            Tok::OpAssign(EMul),
            id("b"),
            Tok::OpAssign(EDiv),
            id("c"),
            Tok::OpAssign(EPow),
            id("d"),
            Tok::OpAssign(Add),
            id("e"),
            Tok::Arrow,
            id("f")
        ]
    );
    assert_eq!(
        toks("a != b && !c"),
        vec![
            id("a"),
            Tok::NotEq,
            id("b"),
            Tok::AndAnd,
            Tok::Bang,
            id("c")
        ]
    );
    assert_eq!(toks("$target ??"), vec![id("$target"), Tok::QQ]);
}

#[test]
fn newlines_and_continuations() {
    assert_eq!(toks("a\n\nb"), vec![id("a"), Tok::Newline, id("b")]);
    assert_eq!(
        toks("a = b + _ % more\n c"),
        vec![id("a"), Tok::Eq, id("b"), Tok::Plus, id("c")]
    );
    assert_eq!(
        toks("f(a,\n b)"),
        vec![
            id("f"),
            Tok::LParen,
            id("a"),
            Tok::Comma,
            id("b"),
            Tok::RParen
        ]
    );
    assert_eq!(
        toks("a = b &&\n c"),
        vec![id("a"), Tok::Eq, id("b"), Tok::AndAnd, id("c")]
    );
    assert_eq!(
        toks("outer:\nfor"),
        vec![id("outer"), Tok::Colon, Tok::Newline, id("for")]
    );
    assert_eq!(toks("x % comment\ny"), vec![id("x"), Tok::Newline, id("y")]);
}

#[test]
fn unclosed_bracket_stops_at_keyword_line() {
    let t = toks("f(a,\nend");
    assert_eq!(
        t,
        vec![
            id("f"),
            Tok::LParen,
            id("a"),
            Tok::Comma,
            Tok::Newline,
            id("end")
        ]
    );
}

#[test]
fn apostrophes() {
    assert_eq!(
        toks("cube'unchecked'const"),
        vec![
            id("cube"),
            Tok::Apostrophe,
            id("unchecked"),
            Tok::Apostrophe,
            id("const")
        ]
    );
    assert_eq!(
        toks("mat\u{2019} unchecked"),
        vec![id("mat"), Tok::Apostrophe, id("unchecked")]
    );
    assert_eq!(
        toks("type(x,'??')"),
        vec![
            id("type"),
            Tok::LParen,
            id("x"),
            Tok::Comma,
            Tok::Str("??".into()),
            Tok::RParen
        ]
    );
    assert_eq!(
        toks("`1,2,3'"),
        vec![
            Tok::Backquote,
            Tok::Int(1),
            Tok::Comma,
            Tok::Int(2),
            Tok::Comma,
            Tok::Int(3),
            Tok::CellClose
        ]
    );
    assert_eq!(
        toks("`1\u{b4}"),
        vec![Tok::Backquote, Tok::Int(1), Tok::CellClose]
    );
    let nested = toks("` `[1],[2]',`[3]' '");
    assert_eq!(nested.iter().filter(|t| **t == Tok::CellClose).count(), 3);
    assert_eq!(
        toks("print 'a b'"),
        vec![id("print"), Tok::Str("a b".into())]
    );
}

#[test]
fn strings() {
    // Literals are raw: a backslash is an ordinary character.
    assert_eq!(toks(r#""C:\out\""#), vec![Tok::Str(r#"C:\out\"#.into())]);
    let (_, diags) = lex("\"abc\nx", FileId(0));
    assert_eq!(diags.len(), 1);
}

#[test]
fn attributes() {
    let t = toks("!kernel_arg name=y; type=\"inout\"; op=\"+=\" % c\nx");
    match &t[0] {
        Tok::Attr {
            style, name, args, ..
        } => {
            assert_eq!(*style, AttrStyle::Bang);
            assert_eq!(name, "kernel_arg");
            assert_eq!(args, "name=y; type=\"inout\"; op=\"+=\"");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(t[1..], [Tok::Newline, id("x")]);
    let t = toks("{!parallel for}");
    assert!(matches!(&t[0], Tok::Attr { style: AttrStyle::Brace, args, .. } if args == "for"));
    // An unterminated quote: the line's last `}` still closes the attribute.
    let t = toks("{!p \"open quote}");
    assert!(matches!(&t[0], Tok::Attr { args, .. } if args == "\"open quote"));
    let t = toks("#pragma force_parallel");
    assert!(
        matches!(&t[0], Tok::Attr { style: AttrStyle::Pragma, name, .. } if name == "force_parallel")
    );
    // Not at statement start: a plain `!`.
    assert_eq!(toks("a = !b"), vec![id("a"), Tok::Eq, Tok::Bang, id("b")]);
}

#[test]
fn never_panics_on_odd_input() {
    for src in [
        "\u{b4}", "é'", "1e", "1e+", ".", "'", "`", "#", "#pragma", "{!", "_", "é_\n", "5.é",
        "\"\\",
    ] {
        let _ = lex(src, FileId(0));
    }
}
