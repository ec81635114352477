//! Lambdas (`x -> e`, `(x : int, y) -> e`, `__kernel__ (...) -> stmt`, `() -> (s1; s2)`)
//! and the look-ahead scans that tell them from parenthesised expressions.

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;

impl Parser {
    /// At `(`: the index of the matching `)` in the token list, if it is found before
    /// the end of the line. `on_depth1` sees every token directly inside the parens.
    fn scan_parens(&self, stop_at_semi: bool, mut on_depth1: impl FnMut(&Tok)) -> Option<usize> {
        let mut depth = 0usize;
        let mut i = self.pos;
        loop {
            let tok = &self.toks.get(i)?.tok;
            match tok {
                Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::Backquote => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace | Tok::CellClose => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(i);
                    }
                }
                Tok::Newline | Tok::Eof => return None,
                Tok::Semi if stop_at_semi => return None,
                _ if depth == 1 => on_depth1(tok),
                _ => {}
            }
            i += 1;
        }
    }

    /// At `(`: whether the parenthesised group is followed by `->` (lambda parameters).
    pub(crate) fn paren_is_lambda(&self) -> bool {
        match self.scan_parens(true, |_| {}) {
            Some(close) => matches!(self.toks.get(close + 1), Some(t) if t.tok == Tok::Arrow),
            None => false,
        }
    }

    /// At `(`: whether some token directly inside the parentheses satisfies `pred`.
    pub(crate) fn paren_holds(&self, pred: impl Fn(&Tok) -> bool) -> bool {
        let mut found = false;
        let closed = self.scan_parens(false, |t| found |= pred(t));
        closed.is_some() && found
    }

    /// At `name :`: whether a type and `->` follow, as in `(x:int->2*x)`.
    pub(crate) fn typed_lambda_ahead(&mut self) -> bool {
        let saved = (
            self.pos,
            self.diags.len(),
            self.last_hi,
            self.depth,
            self.tree,
        );
        self.bump();
        self.bump();
        let ok = self.parse_type().is_ok() && self.at(&Tok::Arrow);
        self.pos = saved.0;
        self.diags.truncate(saved.1);
        self.last_hi = saved.2;
        self.depth = saved.3;
        self.tree = saved.4;
        ok
    }

    /// A lambda, at its kind word, its `(`, or its single parameter name.
    pub(crate) fn parse_lambda(&mut self) -> PResult<Expr> {
        let start = self.span();
        let kind = self.fn_kind();
        let params = if self.eat(&Tok::LParen) {
            self.parse_params(&Tok::RParen)?
        } else {
            vec![self.parse_param(false)?]
        };
        self.expect(&Tok::Arrow, "`->` after the lambda parameters")?;
        let saved = std::mem::replace(&mut self.no_lambda, false);
        let body = self.nested(|p| p.parse_lambda_body());
        self.no_lambda = saved;
        let body = body?;
        let lambda = Lambda { kind, params, body };
        Ok(Expr {
            kind: ExprKind::Lambda(Box::new(lambda)),
            span: self.span_from(start),
        })
    }

    /// After a statement body `(...)` written as an argument: the statements on the
    /// lines that follow, up to the `,` or `)` that ends the argument, belong to the body
    /// too (`s.onchange.add(() -> (t.a = s.value;)` on one line, `update(t))` on the
    /// next: published code writes callbacks so). Each must start on a new line; on the
    /// same line, `,` or `)` is expected as before.
    fn lambda_continuation(&mut self, block: &mut Block) -> PResult<()> {
        let saved = std::mem::replace(&mut self.lambda_tail, true);
        let mut r = Ok(());
        while self.on_later_line()
            && !matches!(
                self.peek(),
                Tok::Comma | Tok::RParen | Tok::RBracket | Tok::Newline | Tok::Semi | Tok::Eof
            )
            && !self.at_closer()
        {
            match self.parse_stmt() {
                Ok(s) => block.push(s),
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        self.lambda_tail = saved;
        r
    }

    /// `(s1; s2)` or a parenthesised assignment gives a block; an assignment gives a
    /// one-statement block; anything else is an expression body.
    fn parse_lambda_body(&mut self) -> PResult<LambdaBody> {
        let start = self.span();
        if self.at(&Tok::LParen) {
            if self.peek_at(1) == &Tok::RParen {
                self.bump();
                self.bump();
                return Ok(LambdaBody::Block(Vec::new()));
            }
            if self.paren_holds(|t| matches!(t, Tok::Semi | Tok::Eq | Tok::OpAssign(_))) {
                self.bump();
                let saved = std::mem::replace(&mut self.lambda_lines, true);
                let tail = std::mem::replace(&mut self.lambda_tail, false);
                let mut block = self.parse_block(true);
                self.lambda_tail = tail;
                let body = self
                    .expect(&Tok::RParen, "`)` to close the lambda body")
                    .and_then(|_| self.lambda_continuation(&mut block));
                self.lambda_lines = saved;
                body?;
                return Ok(LambdaBody::Block(block));
            }
        }
        let e = self.parse_expr()?;
        let op = match self.peek() {
            Tok::Eq => AssignOp::Set,
            Tok::OpAssign(op) => AssignOp::Update(*op),
            _ => return Ok(LambdaBody::Expr(e)),
        };
        self.bump();
        let value = self.parse_expr()?;
        let kind = self.assignment(e, op, value)?;
        Ok(LambdaBody::Block(vec![Stmt {
            kind,
            span: self.span_from(start),
        }]))
    }
}
