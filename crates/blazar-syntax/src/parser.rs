//! Recursive-descent parser: the parser state, token helpers, blocks and error recovery.
//!
//! Statements live in `parser/stmt.rs` and `parser/decl.rs`, expressions in
//! `parser/expr.rs`, type expressions in `parser/types.rs`. Every parse function returns
//! [`PResult`]: on `Err` the diagnostic has already been recorded, and the caller
//! recovers by skipping to the end of the statement.

use crate::ast::*;
use crate::lexer::{lex, Tok, Token};
use blazar_diagnostics::{Diagnostic, FileId, Span};

mod decl;
mod expr;
mod lambda;
mod stmt;
mod types;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_expr;

/// The error of a parse function; its diagnostic is already in `Parser::diags`.
pub(crate) struct Failed;
pub(crate) type PResult<T> = Result<T, Failed>;

/// Deepest nesting of brackets, blocks and prefix operators the parser follows.
const MAX_DEPTH: u32 = 200;

/// Words that end a block.
const CLOSERS: &[&str] = &[
    "end",
    "endif",
    "endfor",
    "endwhile",
    "endfunction",
    "endmacro",
    "until",
    "else",
    "elseif",
];

/// Words that can never be used as a name.
pub const RESERVED: &[&str] = &[
    "end",
    "endif",
    "endfor",
    "endwhile",
    "endfunction",
    "endmacro",
    "until",
    "else",
    "elseif",
    "function",
    "if",
    "for",
    "while",
    "repeat",
    "break",
    "continue",
    "return",
];

pub(crate) fn parse_program(text: &str, file: FileId) -> (Program, Vec<Diagnostic>) {
    let (toks, lex_diags) = lex(text, file);
    let mut line_starts = vec![0];
    line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    let mut p = Parser {
        toks,
        pos: 0,
        file,
        diags: lex_diags,
        line_starts,
        depth: 0,
        tree: 0,
        max_tree: max_tree(),
        no_lambda: false,
        lambda_lines: false,
        lambda_tail: false,
        index_bases: Vec::new(),
        closed: Vec::new(),
        last_hi: 0,
    };
    let stmts = p.parse_top_level();
    let mut diags = p.diags;
    diags.sort_by_key(|d| d.span.map(|s| (s.lo, s.hi)));
    (Program { stmts }, diags)
}

pub(crate) struct Parser {
    toks: Vec<Token>,
    pos: usize,
    file: FileId,
    pub(crate) diags: Vec<Diagnostic>,
    line_starts: Vec<usize>,
    /// Current recursion depth (brackets, blocks, prefix operators).
    depth: u32,
    /// Current depth of the tree being built, left-associative folds included.
    tree: u32,
    /// The deepest tree allowed: as deep as this thread's stack lets later passes
    /// walk it ([`max_tree`]).
    max_tree: u32,
    /// Set while parsing a match pattern, where `x -> ...` is not a lambda.
    no_lambda: bool,
    /// Set inside a lambda's statement body, where a statement may also end at a line
    /// break inside brackets (the lexer drops those): `add(() -> (s.a = v\n f(s)))`.
    lambda_lines: bool,
    /// Set while parsing the statements after a lambda's statement body, which a `,`
    /// ends without being consumed (it separates the call's arguments).
    lambda_tail: bool,
    /// End of the last consumed token.
    last_hi: usize,
    /// The names of the variables being indexed (`v[...]`), innermost last (`None`:
    /// not a plain name), for the hint of MATLAB's `v[end]`.
    pub(crate) index_bases: Vec<Option<String>>,
    /// The blocks closed so far: the construct, its opening word and its `end`, for
    /// telling which block of an unclosed one lost its `end` ([`Parser::parse_body`]).
    closed: Vec<(String, Span, Span)>,
}

impl Parser {
    // ----- token access -------------------------------------------------------------

    pub(crate) fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    /// Whether the token after the current one starts right where the current one ends.
    pub(crate) fn next_is_adjacent(&self) -> bool {
        match (self.toks.get(self.pos), self.toks.get(self.pos + 1)) {
            (Some(a), Some(b)) => a.span.hi == b.span.lo,
            _ => false,
        }
    }

    pub(crate) fn peek_at(&self, n: usize) -> &Tok {
        match self.toks.get(self.pos + n) {
            Some(t) => &t.tok,
            None => &Tok::Eof,
        }
    }

    /// The span of the current token.
    pub(crate) fn span(&self) -> Span {
        self.span_at(0)
    }

    /// The span of the token just consumed.
    pub(crate) fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span,
            None => self.span(),
        }
    }

    pub(crate) fn span_at(&self, n: usize) -> Span {
        match self.toks.get(self.pos + n).or(self.toks.last()) {
            Some(t) => t.span,
            None => Span::new(self.file, 0, 0),
        }
    }

    pub(crate) fn bump(&mut self) -> Token {
        match self.toks.get(self.pos) {
            Some(t) => {
                let t = t.clone();
                if t.tok != Tok::Eof {
                    self.pos += 1;
                    self.last_hi = t.span.hi as usize;
                }
                t
            }
            None => Token {
                tok: Tok::Eof,
                span: self.span(),
            },
        }
    }

    pub(crate) fn at(&self, tok: &Tok) -> bool {
        self.peek() == tok
    }

    pub(crate) fn eat(&mut self, tok: &Tok) -> bool {
        if self.at(tok) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn at_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Ident(n) if n == kw)
    }

    pub(crate) fn at_kw_at(&self, n: usize, kw: &str) -> bool {
        matches!(self.peek_at(n), Tok::Ident(name) if name == kw)
    }

    pub(crate) fn eat_kw(&mut self, kw: &str) -> bool {
        if self.at_kw(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Whether the current token is a word that closes a block.
    pub(crate) fn at_closer(&self) -> bool {
        matches!(self.peek(), Tok::Ident(n) if CLOSERS.contains(&n.as_str()))
    }

    pub(crate) fn is_reserved(name: &str) -> bool {
        RESERVED.contains(&name)
    }

    /// A span from `start` to the end of the last consumed token.
    pub(crate) fn span_from(&self, start: Span) -> Span {
        Span::new(
            self.file,
            start.lo as usize,
            self.last_hi.max(start.lo as usize),
        )
    }

    pub(crate) fn line_of(&self, span: Span) -> usize {
        match self.line_starts.binary_search(&(span.lo as usize)) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    // ----- errors -------------------------------------------------------------------

    pub(crate) fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Records "expected X, found Y" at the current token and fails.
    pub(crate) fn expected<T>(&mut self, what: &str) -> PResult<T> {
        let found = self.peek().describe();
        let span = self.span();
        let hint = if self.at(&Tok::Apostrophe) {
            " (Quasar has no transpose operator: use `transpose(x)`)"
        } else if self.at(&Tok::Colon) && what == "end of statement" {
            " (a range is written `a..b` in Quasar, not MATLAB's `a:b`; indices start at \
             0, so a loop over n elements is `for i = 0..n-1`)"
        } else if let Some(call) = self.command_syntax() {
            return {
                self.error(
                    span,
                    format!(
                        "expected {what}, found {found} (MATLAB's command syntax; in Quasar \
                         call the function: `{call}`)"
                    ),
                );
                Err(Failed)
            };
        } else if self.at(&Tok::DotDot) && self.peek_at(1) == &Tok::Dot {
            " (`...` continues a line in MATLAB; in Quasar end the line with `_`, or break \
             it inside brackets)"
        } else {
            ""
        };
        self.error(span, format!("expected {what}, found {found}{hint}"));
        Err(Failed)
    }

    /// At `on` of a statement `hold on` (a name, then words to the end of the line):
    /// the call MATLAB's command syntax means, `hold("on")`.
    fn command_syntax(&self) -> Option<String> {
        let at = |i: usize| self.toks.get(i).map(|t| &t.tok);
        let f = match at(self.pos.checked_sub(1)?)? {
            Tok::Ident(f) if !Self::is_reserved(f) => f,
            _ => return None,
        };
        let starts = match self.pos.checked_sub(2) {
            None => true,
            Some(i) => matches!(at(i), Some(Tok::Newline | Tok::Semi)),
        };
        let mut words = Vec::new();
        let mut i = self.pos;
        while let Some(Tok::Ident(w)) = at(i) {
            words.push(format!("\"{w}\""));
            i += 1;
        }
        let ends = matches!(at(i), None | Some(Tok::Newline | Tok::Semi | Tok::Eof));
        (starts && ends && !words.is_empty()).then(|| format!("{f}({})", words.join(", ")))
    }

    pub(crate) fn expect(&mut self, tok: &Tok, what: &str) -> PResult<Span> {
        if self.at(tok) {
            Ok(self.bump().span)
        } else {
            self.expected(what)
        }
    }

    pub(crate) fn expect_ident(&mut self, what: &str) -> PResult<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) if !Self::is_reserved(&name) => {
                let span = self.bump().span;
                Ok(Ident { name, span })
            }
            _ => self.expected(what),
        }
    }

    /// Enters one level of nesting; fails with an error beyond [`MAX_DEPTH`].
    pub(crate) fn enter(&mut self) -> PResult<()> {
        if self.depth >= MAX_DEPTH || self.tree >= self.max_tree {
            let span = self.span();
            self.error(
                span,
                format!("program nested too deeply (more than {MAX_DEPTH} levels)"),
            );
            return Err(Failed);
        }
        self.depth += 1;
        self.tree += 1;
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.tree = self.tree.saturating_sub(1);
    }

    /// Runs `f` one nesting level deeper.
    pub(crate) fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let r = f(self);
        self.leave();
        r
    }

    /// Skips the rest of a broken statement: up to (not including) the next end of
    /// line or `;`, stopping early at a word that closes a block.
    pub(crate) fn recover(&mut self) {
        loop {
            match self.peek() {
                Tok::Eof | Tok::Newline | Tok::Semi => return,
                _ if self.at_closer() => return,
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// Consumes the end of a statement: a newline, `;` or a tolerated `,`. Nothing is
    /// consumed before a block closer, `|` (next match arm), `)` or end of file.
    pub(crate) fn end_of_stmt(&mut self) -> PResult<()> {
        match self.peek() {
            Tok::Comma if self.lambda_tail => Ok(()),
            Tok::Newline | Tok::Semi | Tok::Comma => {
                self.bump();
                Ok(())
            }
            Tok::Eof | Tok::Pipe | Tok::RParen => Ok(()),
            _ if self.at_closer() => Ok(()),
            _ if self.lambda_lines && self.on_later_line() => Ok(()),
            _ => self.expected("end of statement"),
        }
    }

    /// Whether the current token starts on a later line than the one consumed before it.
    pub(crate) fn on_later_line(&self) -> bool {
        self.pos > 0 && self.line_of(self.span()) > self.line_of(self.prev_span())
    }

    pub(crate) fn skip_separators(&mut self) {
        while matches!(self.peek(), Tok::Newline | Tok::Semi) {
            self.bump();
        }
    }

    // ----- blocks -------------------------------------------------------------------

    fn parse_top_level(&mut self) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        loop {
            stmts.extend(self.parse_block(false));
            if self.at(&Tok::Eof) {
                return stmts;
            }
            // A stray closer or `)` at top level.
            let span = self.span();
            if self.doubled_end() {
                // `y = f(x); end` followed by another `end` (published code has it):
                // the first `end` closed the block, the second closes nothing.
                self.diags.push(Diagnostic::warning(
                    span,
                    "this `end` closes nothing (the `end` before it closed the block); ignored",
                ));
                self.bump();
                continue;
            }
            let found = self.peek().describe();
            self.error(span, format!("unexpected {found}"));
            self.bump();
        }
    }

    /// At a stray top-level `end`: whether it directly follows (on the next line or
    /// after a `;`, nothing else between) the `end` that closed the last block, so that
    /// it repeats that `end` rather than closing a block whose opening word is missing.
    fn doubled_end(&self) -> bool {
        if !self.at_kw("end") {
            return false;
        }
        let mut i = self.pos;
        while i > 0 && matches!(self.toks[i - 1].tok, Tok::Newline | Tok::Semi) {
            i -= 1;
        }
        let Some(prev) = i.checked_sub(1).map(|i| &self.toks[i]) else {
            return false;
        };
        let closed_by_prev = self
            .closed
            .last()
            .is_some_and(|(_, _, end)| *end == prev.span);
        closed_by_prev && matches!(&prev.tok, Tok::Ident(w) if w == "end")
    }

    /// Parses statements up to end of file, a block closer, or (inside match arms) `|`;
    /// with `in_parens`, also up to `)`.
    pub(crate) fn parse_block(&mut self, in_parens: bool) -> Block {
        let mut stmts = Vec::new();
        loop {
            self.skip_separators();
            match self.peek() {
                Tok::Eof | Tok::Pipe => break,
                Tok::RParen if in_parens => break,
                _ if self.at_closer() => break,
                _ => {}
            }
            let before = self.pos;
            match self.parse_stmt() {
                Ok(s) => stmts.push(s),
                Err(Failed) => {
                    self.recover();
                    if self.pos == before && !self.at_closer() {
                        self.bump();
                    }
                }
            }
        }
        stmts
    }

    /// Parses a block body and its closing word for the construct `what` that started
    /// at `start`; `closers` are the words accepted besides `end`. Returns the block
    /// and the closing word found (if any).
    pub(crate) fn parse_body(
        &mut self,
        what: &str,
        start: Span,
        closers: &[&str],
    ) -> PResult<(Block, String)> {
        self.enter()?;
        let body = self.parse_block(false);
        self.leave();
        let misplaced = self.misplaced_end(start);
        match self.peek().clone() {
            Tok::Ident(w) if w == "end" || closers.contains(&w.as_str()) => {
                self.closed.push((what.to_string(), start, self.span()));
                Ok((body, w))
            }
            _ if misplaced.is_some() => {
                let (inner, at, end) = misplaced.expect("just tested");
                let span = self.span();
                let found = self.peek().describe();
                let (line, end_line, outer_line) =
                    (self.line_of(at), self.line_of(end), self.line_of(start));
                let here = blazar_diagnostics::Span::new(
                    at.file,
                    at.lo as usize,
                    at.lo as usize + inner.len(),
                );
                self.diags.push(
                    Diagnostic::error(
                        here,
                        format!(
                            "this `{inner}` (line {line}) has no `end`: the `end` on line {end_line} \
                             is indented as the `{what}` of line {outer_line}, which it closes instead"
                        ),
                    )
                    .with_related(
                        span,
                        format!("{found} is reached here, and the `{what}` is still open"),
                    ),
                );
                Ok((body, String::new()))
            }
            _ => {
                let line = self.line_of(start);
                let found = self.peek().describe();
                let span = self.span();
                let here = blazar_diagnostics::Span::new(
                    start.file,
                    start.lo as usize,
                    start.lo as usize + what.len(),
                );
                self.diags.push(
                    Diagnostic::error(
                        here,
                        format!(
                            "expected `end` to close `{what}` started at line {line}, found {found}"
                        ),
                    )
                    .with_related(
                        span,
                        format!("{found} is reached here, and the `{what}` is still open"),
                    ),
                );
                // Keep what was parsed; the enclosing block handles the token.
                Ok((body, String::new()))
            }
        }
    }

    /// For a block at `start` left open at the end of the text: a block inside it whose
    /// `end` lines up with `start` rather than with its own opening word, which is then
    /// the block that lost its `end` (its construct, its word and that `end`).
    /// Indentation decides only when the opening words are indented apart.
    fn misplaced_end(&self, start: Span) -> Option<(String, Span, Span)> {
        if !matches!(self.peek(), Tok::Eof) {
            return None;
        }
        let col = |s: Span| s.lo as usize - self.line_starts[self.line_of(s) - 1];
        let outer = col(start);
        self.closed
            .iter()
            .filter(|(_, at, _)| at.lo > start.lo)
            .find(|(_, at, end)| col(*at) > outer && col(*end) == outer)
            .cloned()
    }

    /// Consumes the closing word found by [`Parser::parse_body`], if any.
    pub(crate) fn finish_closer(&mut self, closer: &str) {
        if !closer.is_empty() {
            self.bump();
        }
    }
}

// How deep a tree the parser may build: as deep as the stack of the thread parsing
// it lets every later pass (lowering, checking, evaluation, dropping) walk it
// recursively, within fixed bounds.
//
// Passes recurse once per tree level; the deepest of them takes about 600 bytes of
// stack per level of a binary chain (a debug build; measured with `x = 1 + 1 + ...`).
// The parser allows one level per `STACK_PER_LEVEL` bytes of the stack left when it
// starts, so the `blazar` command's 512 MiB thread takes flat chains of about 350,000
// operators, and a 2 MiB test thread still takes `MIN_TREE`.

/// Stack bytes budgeted per tree level (about 2.5 times the deepest pass's use).
const STACK_PER_LEVEL: usize = 1536;
/// The depth allowed whatever the stack (what an 8 MiB main thread always takes).
const MIN_TREE: u32 = 1000;
/// The depth allowed however large the stack.
const MAX_TREE: u32 = 1_000_000;

/// The deepest tree to build on this thread.
fn max_tree() -> u32 {
    match remaining() {
        Some(bytes) => u32::try_from(bytes / STACK_PER_LEVEL)
            .unwrap_or(MAX_TREE)
            .clamp(MIN_TREE, MAX_TREE),
        None => MIN_TREE,
    }
}

/// Bytes of stack left below the caller on this thread, when the platform says.
#[cfg(target_os = "linux")]
fn remaining() -> Option<usize> {
    // SAFETY: pthread_getattr_np fills `attr` for the calling thread (initialised on
    // success, destroyed after use); pthread_attr_getstack writes the lowest address
    // and size of the stack. Only addresses are compared; nothing is dereferenced.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut low: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut low, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if !ok {
            return None;
        }
        let here = &attr as *const _ as usize;
        here.checked_sub(low as usize)
    }
}

#[cfg(not(target_os = "linux"))]
fn remaining() -> Option<usize> {
    None
}
