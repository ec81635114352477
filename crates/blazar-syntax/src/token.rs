//! Token kinds produced by the lexer, and how they are named in error messages.

use crate::ast::{AttrStyle, BinOp};
use blazar_diagnostics::Span;

/// One lexical token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Int(i64),
    Real(f64),
    Imag(f64),
    Str(String),
    /// Identifiers and keywords alike (`for`, `end`, `__kernel__`, `$target`); the
    /// parser decides which words are keywords where.
    Ident(String),
    /// A whole attribute: `!name args`, `{!name args}` or `#pragma name args`.
    Attr {
        style: AttrStyle,
        name: String,
        name_span: Span,
        args: String,
    },
    Newline,
    Semi,
    Comma,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    /// `` ` `` opening a cell literal.
    Backquote,
    /// `'` or `´` closing a cell literal.
    CellClose,
    /// `'` introducing a type modifier (`mat'unchecked`).
    Apostrophe,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    DotStar,
    DotSlash,
    DotCaret,
    EqEq,
    NotEq,
    Lt,
    Gt,
    Le,
    Ge,
    AndAnd,
    OrOr,
    Bang,
    Question,
    /// `??`, the unknown type.
    QQ,
    Colon,
    DotDot,
    Dot,
    /// `=`
    Eq,
    /// `+=`, `.*=`, ...
    OpAssign(BinOp),
    Arrow,
    Pipe,
    Hash,
    Eof,
}

/// A token with its source location.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

impl Tok {
    /// How the token is named in an error message: "`)`", "end of line", ...
    pub fn describe(&self) -> String {
        match self {
            Tok::Int(v) => format!("number `{v}`"),
            Tok::Real(v) => format!("number `{v}`"),
            Tok::Imag(v) => format!("number `{v}i`"),
            Tok::Str(s) => {
                let short: String = s.chars().take(20).collect();
                format!("string \"{short}\"")
            }
            Tok::Ident(name) => format!("`{name}`"),
            Tok::Attr { name, .. } => format!("attribute `!{name}`"),
            Tok::Newline => "end of line".to_string(),
            Tok::Eof => "end of file".to_string(),
            Tok::CellClose => "`'` closing a cell".to_string(),
            other => format!("`{}`", other.symbol()),
        }
    }

    /// The source text of a punctuation token.
    pub fn symbol(&self) -> &'static str {
        match self {
            Tok::Semi => ";",
            Tok::Comma => ",",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Backquote => "`",
            Tok::CellClose | Tok::Apostrophe => "'",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Caret => "^",
            Tok::DotStar => ".*",
            Tok::DotSlash => "./",
            Tok::DotCaret => ".^",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Bang => "!",
            Tok::Question => "?",
            Tok::QQ => "??",
            Tok::Colon => ":",
            Tok::DotDot => "..",
            Tok::Dot => ".",
            Tok::Eq => "=",
            Tok::OpAssign(op) => match op {
                BinOp::Add => "+=",
                BinOp::Sub => "-=",
                BinOp::Mul => "*=",
                BinOp::Div => "/=",
                BinOp::Pow => "^=",
                BinOp::EMul => ".*=",
                BinOp::EDiv => "./=",
                BinOp::EPow => ".^=",
                _ => "?=",
            },
            Tok::Arrow => "->",
            Tok::Pipe => "|",
            Tok::Hash => "#",
            _ => "?",
        }
    }

    /// Whether a line ending in this token continues on the next line.
    pub fn continues_line(&self) -> bool {
        matches!(
            self,
            Tok::Plus
                | Tok::Minus
                | Tok::Star
                | Tok::Slash
                | Tok::Caret
                | Tok::DotStar
                | Tok::DotSlash
                | Tok::DotCaret
                | Tok::EqEq
                | Tok::NotEq
                | Tok::Lt
                | Tok::Gt
                | Tok::Le
                | Tok::Ge
                | Tok::AndAnd
                | Tok::OrOr
                | Tok::Comma
                | Tok::Question
                | Tok::DotDot
                | Tok::Arrow
                | Tok::Eq
                | Tok::OpAssign(_)
        )
    }

    /// Whether this token can end an operand (so that a following `'` closes a cell).
    pub fn ends_operand(&self) -> bool {
        matches!(
            self,
            Tok::Int(_)
                | Tok::Real(_)
                | Tok::Imag(_)
                | Tok::Str(_)
                | Tok::Ident(_)
                | Tok::RParen
                | Tok::RBracket
                | Tok::RBrace
                | Tok::CellClose
                | Tok::QQ
        )
    }
}
