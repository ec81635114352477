//! Property tests: the parser never panics, and printing a parsed program gives source
//! that parses back to the same tree.

mod corpus;

use blazar_syntax::printer::print_program;
use blazar_syntax::{parse, FileId, Program};
use corpus::PROGRAMS;
use proptest::prelude::*;

fn parse_ok(src: &str) -> Program {
    let (p, diags) = parse(src, FileId(0));
    assert!(diags.is_empty(), "diagnostics for\n{src}\n{diags:?}");
    p
}

/// The Debug form of a program with every span blanked out.
fn shape(p: &Program) -> String {
    let text = format!("{p:?}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find("Span {") {
        out.push_str(&rest[..i]);
        out.push_str("Span");
        rest = &rest[i..];
        rest = &rest[rest.find('}').map_or(rest.len(), |j| j + 1)..];
    }
    out.push_str(rest);
    out
}

fn assert_roundtrip(src: &str) {
    let first = parse_ok(src);
    let printed = print_program(&first);
    let second = parse_ok(&printed);
    assert_eq!(shape(&first), shape(&second), "printed form:\n{printed}");
    assert_eq!(print_program(&second), printed);
}

#[test]
fn corpus_parses_and_roundtrips() {
    for src in PROGRAMS {
        assert_roundtrip(src);
    }
}

const TOKENS: &[&str] = &[
    "x",
    "y",
    "f",
    "end",
    "endfor",
    "for",
    "if",
    "else",
    "while",
    "function",
    "match",
    "with",
    "|",
    "_",
    "->",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "`",
    "'",
    "´",
    "’",
    "\"s\"",
    "1",
    "2.5",
    "3j",
    "1011b",
    "..",
    ":",
    ",",
    ";",
    "\n",
    "=",
    "+=",
    ".*",
    "^",
    "-",
    "!",
    "!p ",
    "#pragma x",
    "?",
    "??",
    "__kernel__",
    "__device__",
    "type",
    "print",
    "reduction",
    "macro",
    "%c\n",
    "_\n",
    " ",
    ".",
    "$t",
    "é",
    "int",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|v| v.join(" "))
}

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize),
    Insert(usize, char),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Delete),
        (
            any::<usize>(),
            prop::sample::select(vec![
                '(', ')', '[', ']', '\'', '`', '\n', ';', '-', '>', 'e', '_', '"', '|', '%', '.',
                '´'
            ])
        )
            .prop_map(|(i, c)| Edit::Insert(i, c)),
        (any::<usize>(), 1usize..20).prop_map(|(i, n)| Edit::Duplicate(i, n)),
    ]
}

fn apply(src: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = src.chars().collect();
    for e in edits {
        let len = chars.len().max(1);
        match *e {
            Edit::Delete(i) if !chars.is_empty() => {
                chars.remove(i % chars.len());
            }
            Edit::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
            Edit::Duplicate(i, n) if !chars.is_empty() => {
                let start = i % len;
                let end = (start + n).min(chars.len());
                let piece: Vec<char> = chars[start..end].to_vec();
                chars.splice(start..start, piece);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse(&text, FileId(0));
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,120}") {
        let _ = parse(&text, FileId(0));
    }

    #[test]
    fn token_soup_never_panics(text in token_soup()) {
        let _ = parse(&text, FileId(0));
    }

    #[test]
    fn mutated_programs_never_panic(which in 0..PROGRAMS.len(), edits in prop::collection::vec(edit(), 1..6)) {
        let text = apply(PROGRAMS[which], &edits);
        let (p, _) = parse(&text, FileId(0));
        // Whatever was recovered prints and re-parses without panicking.
        let _ = parse(&print_program(&p), FileId(0));
    }

    #[test]
    fn reprinting_is_stable(which in 0..PROGRAMS.len(), edits in prop::collection::vec(edit(), 1..4)) {
        // Mutants that happen to be valid must round-trip like the originals.
        let text = apply(PROGRAMS[which], &edits);
        let (p, diags) = parse(&text, FileId(0));
        if diags.is_empty() {
            let printed = print_program(&p);
            let (q, d2) = parse(&printed, FileId(0));
            prop_assert!(d2.is_empty(), "reprint of\n{}\nfails:\n{}\n{:?}", text, printed, d2);
            prop_assert_eq!(shape(&p), shape(&q), "printed:\n{}", printed);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for src in [
        "(".repeat(5000),
        format!("x = {}1", "-".repeat(5000)),
        format!("x = {}", "[".repeat(5000)),
        format!("x = 1{}", "+1".repeat(5000)),
        format!("x = a{}", "[0]".repeat(5000)),
        format!("x = 2{}", "^2".repeat(5000)),
        "if a\n".repeat(5000),
        format!("x : {}", "vec[".repeat(5000)),
        "`".repeat(5000),
        "x -> ".repeat(5000),
    ] {
        let (_, diags) = parse(&src, FileId(0));
        assert!(!diags.is_empty());
    }
}
