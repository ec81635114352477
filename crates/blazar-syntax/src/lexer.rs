//! Hand-written lexer: turns Quasar source text into [`Token`]s with byte spans.
//!
//! Besides splitting text, the lexer settles the context-dependent parts of the
//! surface syntax so that the parser sees a clean token stream:
//! - line continuations (`_` at end of line, open brackets, a trailing operator) remove
//!   the [`Tok::Newline`] that would otherwise end the statement;
//! - the apostrophe becomes [`Tok::CellClose`] inside a cell literal after an operand,
//!   [`Tok::Apostrophe`] (a type modifier) right after a name or closing bracket, and
//!   the start of a single-quoted string elsewhere;
//! - attributes (`!name ...`, `{!name ...}`, `#pragma ...`) become one [`Tok::Attr`]
//!   token holding the rest of the line verbatim.
//!
//! It never panics: every slice is taken on character boundaries, and unknown
//! characters are reported and skipped.

use crate::ast::{AttrStyle, BinOp};
pub use crate::token::{Tok, Token};
use blazar_diagnostics::{Diagnostic, FileId, Span};

mod number;

/// Words that, at the start of a line inside an unclosed bracket, show that the
/// bracket was never closed: the lexer then ends the statement there.
const LINE_KEYWORDS: &[&str] = &[
    "function",
    "end",
    "endfunction",
    "endif",
    "endfor",
    "endwhile",
    "endmacro",
    "else",
    "elseif",
    "until",
    "for",
    "while",
    "repeat",
    "if",
    "return",
    "macro",
    "reduction",
    "import",
];

/// Deepest bracket nesting the lexer tracks.
const MAX_OPEN: usize = 256;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Open {
    Paren,
    Bracket,
    Brace,
    Cell,
}

/// Splits `text` into tokens; the last token is always [`Tok::Eof`].
pub fn lex(text: &str, file: FileId) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lx = Lexer {
        src: text,
        pos: 0,
        file,
        toks: Vec::new(),
        diags: Vec::new(),
        stack: Vec::new(),
        stmt_start: true,
        spaced: true,
    };
    lx.run();
    let end = text.len();
    lx.toks.push(Token {
        tok: Tok::Eof,
        span: Span::new(file, end, end),
    });
    (lx.toks, lx.diags)
}

pub(crate) fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

pub(crate) fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_single_quote(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}' | '\u{2018}')
}

fn is_double_quote(c: char) -> bool {
    matches!(c, '"' | '\u{201C}' | '\u{201D}')
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    file: FileId,
    toks: Vec<Token>,
    diags: Vec<Diagnostic>,
    stack: Vec<Open>,
    /// Whether the next token starts a statement (for `!attribute` detection).
    stmt_start: bool,
    /// Whether whitespace precedes the current position.
    spaced: bool,
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<char> {
        self.src.get(self.pos..).and_then(|s| s.chars().next())
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src.get(self.pos..).and_then(|s| s.chars().nth(n))
    }

    fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn span(&self, lo: usize) -> Span {
        Span::new(self.file, lo, self.pos)
    }

    fn push(&mut self, tok: Tok, lo: usize) {
        let span = self.span(lo);
        self.toks.push(Token { tok, span });
        self.stmt_start = false;
        self.spaced = false;
    }

    fn error(&mut self, lo: usize, hi: usize, msg: impl Into<String>) {
        self.diags
            .push(Diagnostic::error(Span::new(self.file, lo, hi), msg));
    }

    fn last_tok(&self) -> Option<&Tok> {
        self.toks.last().map(|t| &t.tok)
    }

    /// The text from the current position to the end of the line (newline excluded).
    fn rest_of_line(&self) -> &'a str {
        let rest = self.rest();
        &rest[..rest.find('\n').unwrap_or(rest.len())]
    }

    /// MATLAB's block comment `%{ ... %}`: in Quasar `%{` is a comment of one line and
    /// the lines after it are code, so a warning says so at the `%{` (with the `%}`).
    fn matlab_block_comment(&mut self, lo: usize, n: usize) {
        let line_start = self.src[..lo].rfind('\n').map_or(0, |i| i + 1);
        if self.src[lo..lo + n].trim() != "%{" || !self.src[line_start..lo].trim().is_empty() {
            return;
        }
        let after = &self.src[lo + n..];
        let close = after.lines().scan(lo + n, |at, l| {
            let here = *at;
            *at += l.len() + 1;
            Some((here, l))
        });
        let close = close
            .skip(1)
            .find(|(_, l)| l.trim() == "%}")
            .map(|(at, l)| at + l.len() - l.trim_start().len());
        let Some(close) = close else { return };
        let d = Diagnostic::warning(
            Span::new(self.file, lo, lo + 2),
            "`%{ ... %}` is MATLAB's block comment; in Quasar `%` comments out one line, so \
             the lines up to `%}` are code: start each of them with `%`",
        )
        .with_related(
            Span::new(self.file, close, close + 2),
            "the block was meant to end here",
        );
        self.diags.push(d);
    }

    fn run(&mut self) {
        while let Some(c) = self.peek() {
            let lo = self.pos;
            match c {
                ' ' | '\t' | '\r' | '\u{c}' | '\u{a0}' | '\u{feff}' => {
                    self.bump();
                    self.spaced = true;
                }
                '%' => {
                    let n = self.rest_of_line().len();
                    self.matlab_block_comment(lo, n);
                    self.pos += n;
                    self.spaced = true;
                }
                '\n' => {
                    self.bump();
                    self.newline(lo);
                    self.spaced = true;
                }
                '_' if self.is_continuation_underscore() => {
                    let n = self.rest_of_line().len();
                    self.pos += n;
                    self.bump();
                    self.spaced = true;
                }
                c if is_ident_start(c) => self.ident(lo),
                c if c.is_ascii_digit() => self.number(lo),
                '.' if self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) => self.number(lo),
                c if is_double_quote(c) => self.string(lo),
                c if is_single_quote(c) => self.apostrophe(lo),
                '\u{b4}' => {
                    self.bump();
                    if self.stack.last() == Some(&Open::Cell) {
                        self.stack.pop();
                        self.push(Tok::CellClose, lo);
                    } else {
                        self.error(lo, self.pos, "`´` outside a cell literal");
                    }
                }
                '`' => {
                    self.bump();
                    self.open(Open::Cell);
                    self.push(Tok::Backquote, lo);
                }
                '!' if self.stmt_start
                    && self.open_brackets() == 0
                    && self.peek_at(1).is_some_and(is_ident_start) =>
                {
                    self.bump();
                    self.attribute(lo, AttrStyle::Bang)
                }
                '{' if self.peek_at(1) == Some('!')
                    && self.peek_at(2).is_some_and(is_ident_start) =>
                {
                    self.bump();
                    self.bump();
                    self.attribute(lo, AttrStyle::Brace)
                }
                '#' if self.rest().starts_with("#pragma")
                    && !self.rest()[7..].starts_with(is_ident_continue) =>
                {
                    self.pos += 7;
                    let rest = self.rest_of_line();
                    self.pos += rest.len() - rest.trim_start().len();
                    self.attribute(lo, AttrStyle::Pragma)
                }
                _ => self.punct(lo, c),
            }
        }
    }

    /// Records an opening bracket. Nesting beyond [`MAX_OPEN`] is not tracked (the
    /// parser rejects it anyway), which keeps every stack operation cheap.
    fn open(&mut self, o: Open) {
        if self.stack.len() < MAX_OPEN {
            self.stack.push(o);
        }
    }

    fn open_brackets(&self) -> usize {
        self.stack.iter().filter(|o| **o != Open::Cell).count()
    }

    /// A lone `_` followed only by blanks or a comment up to the end of the line.
    fn is_continuation_underscore(&self) -> bool {
        if self.peek_at(1).is_some_and(is_ident_continue) {
            return false;
        }
        // An identifier like `x_` never reaches here: `_` is only seen at a token start.
        let line = &self.rest_of_line()[1..];
        let code = line.split('%').next().unwrap_or("");
        code.trim().is_empty()
    }

    /// Handles a newline: emits [`Tok::Newline`] unless the statement continues.
    fn newline(&mut self, lo: usize) {
        while self.stack.last() == Some(&Open::Cell) {
            self.stack.pop();
        }
        if !self.stack.is_empty() {
            let next = self.rest_of_line().trim_start();
            let word: String = next.chars().take_while(|c| is_ident_continue(*c)).collect();
            if !LINE_KEYWORDS.contains(&word.as_str()) {
                return;
            }
            // The bracket was never closed: end the statement so that the parser
            // reports it here instead of swallowing the rest of the file.
            self.stack.clear();
        } else if self.last_tok().is_some_and(Tok::continues_line) {
            return;
        }
        if !matches!(self.last_tok(), None | Some(Tok::Newline)) {
            self.toks.push(Token {
                tok: Tok::Newline,
                span: Span::new(self.file, lo, lo + 1),
            });
        }
        self.stmt_start = true;
    }

    fn ident(&mut self, lo: usize) {
        // The first character (a letter, `_` or `$`) is ASCII, hence one byte.
        let tail = &self.rest()[1..];
        let len = 1 + tail
            .find(|c: char| !is_ident_continue(c))
            .unwrap_or(tail.len());
        let name = self.rest()[..len].to_string();
        self.pos += len;
        self.push(Tok::Ident(name), lo);
    }

    fn string(&mut self, lo: usize) {
        let open = self.bump().unwrap_or('"');
        let double = is_double_quote(open);
        let start = self.pos;
        loop {
            match self.peek() {
                None | Some('\n') => {
                    let content = self.src[start..self.pos].to_string();
                    self.error(lo, self.pos, "unterminated string: missing closing quote");
                    self.push(Tok::Str(content), lo);
                    return;
                }
                Some(c) if (double && is_double_quote(c)) || (!double && is_single_quote(c)) => {
                    let content = self.src[start..self.pos].to_string();
                    self.bump();
                    self.push(Tok::Str(content), lo);
                    return;
                }
                Some(_) => {
                    self.bump();
                }
            }
        }
    }

    /// `'`: closes a cell, introduces a type modifier, or starts a string.
    fn apostrophe(&mut self, lo: usize) {
        let in_cell = self.stack.last() == Some(&Open::Cell);
        let prev = self.last_tok().cloned();
        if in_cell && prev.as_ref().is_some_and(Tok::ends_operand) {
            self.bump();
            self.stack.pop();
            self.push(Tok::CellClose, lo);
            return;
        }
        let after_name = matches!(
            prev,
            Some(Tok::Ident(_) | Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::QQ)
        );
        // `step : 'unchecked`: a type that is only a modifier (a word not closed by a
        // quote on its own, so `c ? 'a' : 'b'` stays a string).
        if matches!(prev, Some(Tok::Colon)) && self.modifier_only_ahead() {
            self.bump();
            self.push(Tok::Apostrophe, lo);
            return;
        }
        if after_name {
            let closed_later = self.rest_of_line()[self.peek().map_or(1, char::len_utf8)..]
                .contains(is_single_quote);
            if !self.spaced || !closed_later {
                self.bump();
                self.push(Tok::Apostrophe, lo);
                return;
            }
        }
        self.string(lo)
    }

    /// After `: '`: a word follows, and no quote closes it right after.
    fn modifier_only_ahead(&self) -> bool {
        let rest = &self.rest()[self.peek().map_or(1, char::len_utf8)..];
        let word = rest
            .find(|c: char| !is_ident_continue(c))
            .unwrap_or(rest.len());
        word > 0 && rest.starts_with(is_ident_start) && !rest[word..].starts_with(is_single_quote)
    }

    /// Reads an attribute after its `!`, `{!` or `#pragma` introducer.
    fn attribute(&mut self, lo: usize, style: AttrStyle) {
        let name_lo = self.pos;
        let name: String = self
            .rest()
            .chars()
            .take_while(|c| is_ident_continue(*c) || *c == '$')
            .collect();
        self.pos += name.len();
        let name_span = self.span(name_lo);
        if name.is_empty() {
            self.error(lo, self.pos, "expected a name after `#pragma`");
        }
        let line = self.rest_of_line();
        let (mut args, consumed) = attribute_args(line, style == AttrStyle::Brace);
        if style == AttrStyle::Brace && consumed == line.len() {
            match line.trim_end().strip_suffix('}') {
                // The last `}` closes the attribute even inside an unterminated quote,
                // so that printing and parsing again gives the same arguments.
                Some(inner) => args = inner.trim().to_string(),
                None => self.error(
                    lo,
                    self.pos + line.len(),
                    "missing `}` to close `{!` attribute",
                ),
            }
        }
        self.pos += consumed;
        self.push(
            Tok::Attr {
                style,
                name,
                name_span,
                args,
            },
            lo,
        );
        self.stmt_start = true;
    }

    fn punct(&mut self, lo: usize, c: char) {
        let rest = self.rest();
        let two = rest.get(..2).unwrap_or("");
        let three = rest.get(..3).unwrap_or("");
        if two == "~=" {
            // Published Quasar code has MATLAB's not-equal.
            self.diags.push(Diagnostic::warning(
                Span::new(self.file, lo, lo + 2),
                "`~=` is MATLAB's spelling of `!=`; read as `!=`",
            ));
        }
        let (tok, len) = match three {
            ".*=" => (Tok::OpAssign(BinOp::EMul), 3),
            "./=" => (Tok::OpAssign(BinOp::EDiv), 3),
            ".^=" => (Tok::OpAssign(BinOp::EPow), 3),
            _ => match two {
                ".*" => (Tok::DotStar, 2),
                "./" => (Tok::DotSlash, 2),
                ".^" => (Tok::DotCaret, 2),
                ".." => (Tok::DotDot, 2),
                "==" => (Tok::EqEq, 2),
                "!=" | "~=" => (Tok::NotEq, 2),
                "<=" => (Tok::Le, 2),
                ">=" => (Tok::Ge, 2),
                "&&" => (Tok::AndAnd, 2),
                "||" => (Tok::OrOr, 2),
                "??" => (Tok::QQ, 2),
                "->" => (Tok::Arrow, 2),
                "+=" => (Tok::OpAssign(BinOp::Add), 2),
                "-=" => (Tok::OpAssign(BinOp::Sub), 2),
                "*=" => (Tok::OpAssign(BinOp::Mul), 2),
                "/=" => (Tok::OpAssign(BinOp::Div), 2),
                "^=" => (Tok::OpAssign(BinOp::Pow), 2),
                _ => match c {
                    '+' => (Tok::Plus, 1),
                    '-' => (Tok::Minus, 1),
                    '*' => (Tok::Star, 1),
                    '/' => (Tok::Slash, 1),
                    '^' => (Tok::Caret, 1),
                    '<' => (Tok::Lt, 1),
                    '>' => (Tok::Gt, 1),
                    '!' => (Tok::Bang, 1),
                    '?' => (Tok::Question, 1),
                    ':' => (Tok::Colon, 1),
                    '.' => (Tok::Dot, 1),
                    '=' => (Tok::Eq, 1),
                    '|' => (Tok::Pipe, 1),
                    '#' => (Tok::Hash, 1),
                    ',' => (Tok::Comma, 1),
                    ';' => (Tok::Semi, 1),
                    '(' | '[' | '{' | ')' | ']' | '}' => return self.bracket(lo, c),
                    _ => {
                        self.bump();
                        let msg = if c == '&' {
                            "unexpected character `&` (the logical and is `&&`)".to_string()
                        } else {
                            format!("unexpected character `{}`", c.escape_debug())
                        };
                        self.error(lo, self.pos, msg);
                        return;
                    }
                },
            },
        };
        self.pos += len;
        let is_semi = tok == Tok::Semi;
        self.push(tok, lo);
        if is_semi && self.open_brackets() == 0 {
            self.stmt_start = true;
        }
    }

    fn bracket(&mut self, lo: usize, c: char) {
        self.bump();
        let (tok, open, closes) = match c {
            '(' => (Tok::LParen, Some(Open::Paren), None),
            '[' => (Tok::LBracket, Some(Open::Bracket), None),
            '{' => (Tok::LBrace, Some(Open::Brace), None),
            ')' => (Tok::RParen, None, Some(Open::Paren)),
            ']' => (Tok::RBracket, None, Some(Open::Bracket)),
            _ => (Tok::RBrace, None, Some(Open::Brace)),
        };
        if let Some(o) = open {
            self.open(o);
        }
        if let Some(o) = closes {
            if let Some(i) = self.stack.iter().rposition(|s| *s == o) {
                self.stack.truncate(i);
            }
        }
        self.push(tok, lo);
    }
}

/// Splits the arguments of an attribute off `line` (the text after its name): the rest
/// of the line without a trailing comment, or for a brace attribute the text up to the
/// closing `}`. Returns the trimmed arguments and how many bytes were consumed.
fn attribute_args(line: &str, brace: bool) -> (String, usize) {
    let mut quote: Option<char> = None;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' => quote = Some(c),
            None if c == '%' => return (line[..i].trim().to_string(), i),
            None if c == '}' && brace => return (line[..i].trim().to_string(), i + 1),
            None => {}
        }
    }
    (line.trim().to_string(), line.len())
}

#[cfg(test)]
mod tests;
