//! Statements: dispatch on the first token, control flow, assignments and declarations.

use super::{Failed, PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;

/// Scalar and array type names that start a C-like declaration `int n = 5`.
fn is_c_decl_type(name: &str) -> bool {
    const FIXED: &[&str] = &[
        "scalar", "cscalar", "int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64", "string", "vec", "mat", "cube", "cvec", "cmat", "ccube", "ivec", "imat", "icube",
        "bool", "float", "double",
    ];
    if FIXED.contains(&name) {
        return true;
    }
    ["ivec", "cvec", "vec"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Statements that end with a block closer (`end`, `until cond`, ...).
fn is_compound(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::If { .. }
            | StmtKind::For { .. }
            | StmtKind::While { .. }
            | StmtKind::Repeat { .. }
            | StmtKind::Match { .. }
            | StmtKind::Function(_)
            | StmtKind::Macro { .. }
            | StmtKind::TypeDef {
                def: TypeDef::Class { .. },
                ..
            }
    )
}

impl Parser {
    pub(crate) fn parse_stmt(&mut self) -> PResult<Stmt> {
        self.nested(|p| p.parse_stmt_inner())
    }

    fn parse_stmt_inner(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let kind = match self.peek().clone() {
            Tok::Attr {
                style,
                name,
                name_span,
                args,
            } => {
                self.bump();
                let name = Ident {
                    name,
                    span: name_span,
                };
                return Ok(Stmt {
                    kind: StmtKind::Attribute(Attribute { style, name, args }),
                    span: start,
                });
            }
            Tok::Ident(word) => match self.keyword_stmt(&word, start)? {
                Some(kind) if is_compound(&kind) => {
                    // The block is kept even when junk follows its closing word.
                    let span = self.span_from(start);
                    if self.end_of_stmt().is_err() {
                        self.recover();
                    }
                    return Ok(Stmt { kind, span });
                }
                Some(kind) => kind,
                None => self.simple_stmt()?,
            },
            _ => self.simple_stmt()?,
        };
        let span = self.span_from(start);
        self.end_of_stmt()?;
        Ok(Stmt { kind, span })
    }

    /// Statements introduced by a word. `Ok(None)` when the word starts an ordinary
    /// expression or assignment. The end of the statement is left to the caller.
    fn keyword_stmt(
        &mut self,
        word: &str,
        start: blazar_diagnostics::Span,
    ) -> PResult<Option<StmtKind>> {
        let next = self.peek_at(1).clone();
        let assigned = matches!(next, Tok::Eq | Tok::OpAssign(_));
        match word {
            "if" => self.parse_if(start).map(Some),
            "for" => self.parse_for(None, start).map(Some),
            "while" => self.parse_while(None, start).map(Some),
            "repeat" => self.parse_repeat(None, start).map(Some),
            "function" => self
                .parse_function()
                .map(|f| Some(StmtKind::Function(Box::new(f)))),
            "break" | "continue" => {
                self.bump();
                let label = match self.peek().clone() {
                    Tok::Ident(name) if !Self::is_reserved(&name) => Some(Ident {
                        name,
                        span: self.bump().span,
                    }),
                    _ => None,
                };
                let kind = if word == "break" {
                    StmtKind::Break(label)
                } else {
                    StmtKind::Continue(label)
                };
                Ok(Some(kind))
            }
            "return" => {
                self.bump();
                Ok(Some(StmtKind::Return))
            }
            "match"
                if !assigned
                    && !matches!(
                        next,
                        Tok::Newline | Tok::Semi | Tok::Eof | Tok::Dot | Tok::Comma
                    ) =>
            {
                self.parse_match(start).map(Some)
            }
            // `print[i]` (no space) indexes a variable named print; `print [1, 2]` prints.
            "print"
                if !assigned
                    && !matches!(next, Tok::Dot)
                    && (next != Tok::LBracket || !self.next_is_adjacent()) =>
            {
                self.bump();
                let mut args = Vec::new();
                if !matches!(self.peek(), Tok::Newline | Tok::Semi | Tok::Eof) && !self.at_closer()
                {
                    args.push(self.parse_expr()?);
                    while self.eat(&Tok::Comma) {
                        if matches!(self.peek(), Tok::Newline | Tok::Semi | Tok::Eof) {
                            break;
                        }
                        args.push(self.parse_expr()?);
                    }
                }
                Ok(Some(StmtKind::Print(args)))
            }
            "import" if matches!(next, Tok::Str(_)) => {
                self.bump();
                let Tok::Str(path) = self.bump().tok else {
                    return Err(Failed);
                };
                Ok(Some(StmtKind::Import(path)))
            }
            "type" if matches!(next, Tok::Ident(_)) && self.peek_at(2) == &Tok::Colon => {
                self.parse_typedef().map(Some)
            }
            "reduction" if matches!(next, Tok::LParen) => self.parse_reduction().map(Some),
            "macro" if matches!(next, Tok::LBracket) => self.parse_macro(start).map(Some),
            _ if Self::is_reserved(word) => {
                let span = self.span();
                self.error(span, format!("unexpected `{word}`"));
                Err(Failed)
            }
            // `outer:` alone on a line labels the loop that follows.
            _ if next == Tok::Colon && matches!(self.peek_at(2), Tok::Newline | Tok::Semi) => {
                let label = Ident {
                    name: word.to_string(),
                    span: self.bump().span,
                };
                self.bump();
                self.skip_separators();
                let start = self.span();
                match self.peek() {
                    Tok::Ident(w) if w == "for" => self.parse_for(Some(label), start).map(Some),
                    Tok::Ident(w) if w == "while" => self.parse_while(Some(label), start).map(Some),
                    Tok::Ident(w) if w == "repeat" => {
                        self.parse_repeat(Some(label), start).map(Some)
                    }
                    _ => self.expected(&format!("a loop after the label `{}:`", label.name)),
                }
            }
            // `x : T` and `x : T = e`.
            _ if next == Tok::Colon => {
                let name = self.expect_ident("a name")?;
                self.bump();
                let ty = self.parse_type()?;
                let value = if self.eat(&Tok::Eq) {
                    Some(self.parse_expr()?)
                } else {
                    None
                };
                Ok(Some(StmtKind::Decl { name, ty, value }))
            }
            // The C-like `int n = 5`.
            _ if is_c_decl_type(word)
                && matches!(&next, Tok::Ident(n) if !Self::is_reserved(n)) =>
            {
                let ty = self.parse_type()?;
                let name = self.expect_ident("a name")?;
                let value = if self.eat(&Tok::Eq) {
                    Some(self.parse_expr()?)
                } else {
                    None
                };
                Ok(Some(StmtKind::Decl { name, ty, value }))
            }
            _ => Ok(None),
        }
    }

    /// An expression statement or an assignment.
    pub(crate) fn simple_stmt(&mut self) -> PResult<StmtKind> {
        let lhs = self.parse_expr()?;
        if matches!(lhs.kind, ExprKind::Field { .. }) && self.at(&Tok::Colon) {
            // `p.gain : scalar = 2.5`: the field's type, stated at its assignment.
            self.bump();
            let ty = self.parse_type()?;
            self.expect(&Tok::Eq, "`=` after the field's type")?;
            let value = self.parse_expr()?;
            let span = value.span;
            let value = Expr {
                kind: ExprKind::Typed(Box::new(value), Box::new(ty)),
                span,
            };
            return self.assignment(lhs, AssignOp::Set, value);
        }
        let op = match self.peek() {
            Tok::Eq => AssignOp::Set,
            Tok::OpAssign(op) => AssignOp::Update(*op),
            _ => return Ok(StmtKind::Expr(lhs)),
        };
        self.bump();
        let value = self.parse_expr()?;
        self.assignment(lhs, op, value)
    }

    /// Checks the left side of an assignment and builds the statement.
    pub(crate) fn assignment(&mut self, lhs: Expr, op: AssignOp, value: Expr) -> PResult<StmtKind> {
        let (targets, multi) = match lhs.kind {
            ExprKind::Matrix(elems) => (elems, true),
            _ => (vec![lhs], false),
        };
        for t in &targets {
            if !matches!(
                t.kind,
                ExprKind::Ident(_) | ExprKind::Index { .. } | ExprKind::Field { .. }
            ) {
                let mut d = blazar_diagnostics::Diagnostic::error(
                    t.span,
                    "cannot assign to this expression",
                );
                if let ExprKind::Call { callee, args } = &t.kind {
                    if let ExprKind::Ident(x) = &callee.kind {
                        let commas = ", ".repeat(args.len().saturating_sub(1));
                        d = d.with_note(format!(
                            "Quasar indexes arrays with brackets, not MATLAB's parentheses: \
                             `{x}[...{commas}...] = ...`, and indices start at 0"
                        ));
                    }
                }
                self.diags.push(d);
                return Err(Failed);
            }
        }
        Ok(StmtKind::Assign {
            targets,
            multi,
            op,
            value,
        })
    }

    /// A placeholder for an expression that failed to parse (the error is reported).
    pub(crate) fn error_expr(&self, span: blazar_diagnostics::Span) -> Expr {
        Expr {
            kind: ExprKind::Ident("$error".into()),
            span,
        }
    }

    /// The condition of a compound statement and the end of its line. On an error the
    /// rest of the line is skipped so that the body is still parsed as this block's.
    fn header_expr(&mut self) -> Expr {
        let start = self.span();
        match self
            .parse_expr()
            .and_then(|e| self.end_of_stmt().map(|_| e))
        {
            Ok(e) => e,
            Err(Failed) => {
                self.recover();
                self.error_expr(start)
            }
        }
    }

    fn parse_if(&mut self, start: blazar_diagnostics::Span) -> PResult<StmtKind> {
        self.bump();
        let mut arms = Vec::new();
        let mut otherwise = None;
        let mut cond = self.header_expr();
        loop {
            let (body, closer) = self.parse_body("if", start, &["endif", "else", "elseif"])?;
            arms.push((cond, body));
            match closer.as_str() {
                "elseif" => {
                    self.bump();
                    cond = self.header_expr();
                }
                "else" => {
                    self.bump();
                    let (body, closer) = self.parse_body("if", start, &["endif"])?;
                    otherwise = Some(body);
                    self.finish_closer(&closer);
                    break;
                }
                _ => {
                    self.finish_closer(&closer);
                    break;
                }
            }
        }
        Ok(StmtKind::If { arms, otherwise })
    }

    fn parse_for(
        &mut self,
        label: Option<Ident>,
        start: blazar_diagnostics::Span,
    ) -> PResult<StmtKind> {
        self.bump();
        let header = self.expect_ident("a loop variable").and_then(|var| {
            self.expect(&Tok::Eq, "`=` after the loop variable")?;
            Ok((var, self.parse_expr()?))
        });
        let (var, iter) = match header {
            Ok(h) => h,
            Err(Failed) => (
                Ident {
                    name: "$error".into(),
                    span: start,
                },
                self.error_expr(start),
            ),
        };
        if self.end_of_stmt().is_err() {
            self.recover();
        }
        let (body, closer) = self.parse_body("for", start, &["endfor"])?;
        self.finish_closer(&closer);
        Ok(StmtKind::For {
            label,
            var,
            iter,
            body,
        })
    }

    fn parse_while(
        &mut self,
        label: Option<Ident>,
        start: blazar_diagnostics::Span,
    ) -> PResult<StmtKind> {
        self.bump();
        let cond = self.header_expr();
        let (body, closer) = self.parse_body("while", start, &["endwhile"])?;
        self.finish_closer(&closer);
        Ok(StmtKind::While { label, cond, body })
    }

    fn parse_repeat(
        &mut self,
        label: Option<Ident>,
        start: blazar_diagnostics::Span,
    ) -> PResult<StmtKind> {
        self.bump();
        self.enter()?;
        let body = self.parse_block(false);
        self.leave();
        if !self.eat_kw("until") {
            let line = self.line_of(start);
            let found = self.peek().describe();
            let span = self.span();
            self.error(
                span,
                format!("expected `until` to close `repeat` started at line {line}, found {found}"),
            );
            let cond = self.error_expr(start);
            return Ok(StmtKind::Repeat { label, body, cond });
        }
        let cond = self.parse_expr().unwrap_or_else(|Failed| {
            self.recover();
            self.error_expr(start)
        });
        Ok(StmtKind::Repeat { label, body, cond })
    }

    fn parse_match(&mut self, start: blazar_diagnostics::Span) -> PResult<StmtKind> {
        self.bump();
        let scrutinee = self.parse_expr().and_then(|e| {
            if self.eat_kw("with") {
                Ok(e)
            } else {
                self.expected("`with` after the matched expression")
            }
        });
        let scrutinee = scrutinee.unwrap_or_else(|Failed| {
            self.recover();
            self.error_expr(start)
        });
        self.skip_separators();
        let mut arms = Vec::new();
        while self.at(&Tok::Pipe) {
            let arm_start = self.bump().span;
            let pattern = if self.at_kw("_") && self.peek_at(1) == &Tok::Arrow {
                self.bump();
                None
            } else {
                let saved = std::mem::replace(&mut self.no_lambda, true);
                let pat = self.parse_expr();
                self.no_lambda = saved;
                Some(pat?)
            };
            self.expect(&Tok::Arrow, "`->` after the match pattern")?;
            self.enter()?;
            let body = self.parse_block(false);
            self.leave();
            arms.push(MatchArm {
                pattern,
                body,
                span: self.span_from(arm_start),
            });
        }
        let (rest, closer) = self.parse_body("match", start, &["endmatch"])?;
        if let Some(first) = rest.first() {
            self.error(first.span, "expected `|` to start a match arm");
        }
        self.finish_closer(&closer);
        Ok(StmtKind::Match { scrutinee, arms })
    }
}
