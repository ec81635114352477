//! Expressions: precedence climbing for binary operators, prefix and postfix operators,
//! literals, matrices and cells.
//!
//! Precedence, high to low: postfix > `^ .^` (right-assoc) > unary `- ! +` >
//! `* / .* ./` > `+ -` > `..` > comparisons > `&&` > `||` > `c ? a : b`.

use super::{Failed, PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;

/// Binary operators with their precedence (higher binds tighter). `..` is level 4.
fn binop(tok: &Tok) -> Option<(u8, BinOp)> {
    Some(match tok {
        Tok::OrOr => (1, BinOp::Or),
        Tok::AndAnd => (2, BinOp::And),
        Tok::EqEq => (3, BinOp::Eq),
        Tok::NotEq => (3, BinOp::Ne),
        Tok::Lt => (3, BinOp::Lt),
        Tok::Gt => (3, BinOp::Gt),
        Tok::Le => (3, BinOp::Le),
        Tok::Ge => (3, BinOp::Ge),
        Tok::Plus => (5, BinOp::Add),
        Tok::Minus => (5, BinOp::Sub),
        Tok::Star => (6, BinOp::Mul),
        Tok::Slash => (6, BinOp::Div),
        Tok::DotStar => (6, BinOp::EMul),
        Tok::DotSlash => (6, BinOp::EDiv),
        _ => return None,
    })
}

const RANGE_PREC: u8 = 4;

fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
    Expr {
        span: l.span.to(r.span),
        kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
    }
}

impl Parser {
    /// A full expression (lowest precedence: the conditional `c ? a : b`).
    pub(crate) fn parse_expr(&mut self) -> PResult<Expr> {
        self.nested(|p| p.parse_ternary())
    }

    fn parse_ternary(&mut self) -> PResult<Expr> {
        let cond = self.parse_binary(1)?;
        if !self.eat(&Tok::Question) {
            return Ok(cond);
        }
        let yes = self.parse_expr()?;
        self.expect(&Tok::Colon, "`:` in the conditional expression `c ? a : b`")?;
        let no = self.parse_expr()?;
        let span = cond.span.to(no.span);
        Ok(Expr {
            kind: ExprKind::Ternary(Box::new(cond), Box::new(yes), Box::new(no)),
            span,
        })
    }

    /// One more level in a left-associative chain; bounded by `max_tree`, which the
    /// stack of the parsing thread decides (`parser::max_tree`).
    fn fold(&mut self) -> PResult<()> {
        self.tree += 1;
        if self.tree >= self.max_tree {
            let span = self.span();
            self.error(
                span,
                format!(
                    "expression too deeply nested (more than {} levels: a chain of \
                     operators this long needs a larger stack)",
                    self.max_tree
                ),
            );
            return Err(Failed);
        }
        Ok(())
    }

    fn parse_binary(&mut self, min: u8) -> PResult<Expr> {
        let saved = self.tree;
        let r = self.parse_binary_chain(min);
        self.tree = saved;
        r
    }

    fn parse_binary_chain(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.parse_unary()?;
        loop {
            if self.at(&Tok::DotDot) && RANGE_PREC >= min {
                self.bump();
                let mid = self.parse_binary(RANGE_PREC + 1)?;
                let (step, end) = if self.eat(&Tok::DotDot) {
                    (Some(Box::new(mid)), self.parse_binary(RANGE_PREC + 1)?)
                } else {
                    (None, mid)
                };
                let span = lhs.span.to(end.span);
                lhs = Expr {
                    kind: ExprKind::Range {
                        start: Box::new(lhs),
                        step,
                        end: Box::new(end),
                    },
                    span,
                };
                if self.at(&Tok::DotDot) {
                    let span = self.span();
                    self.error(span, "a range has at most three parts: `start..step..end`");
                    return Err(Failed);
                }
                self.fold()?;
                continue;
            }
            let Some((prec, op)) = binop(self.peek()) else {
                break;
            };
            if prec < min {
                break;
            }
            self.bump();
            let rhs = self.parse_binary(prec + 1)?;
            lhs = bin(op, lhs, rhs);
            self.fold()?;
        }
        Ok(lhs)
    }

    fn parse_unary(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Minus => UnOp::Neg,
            Tok::Bang => UnOp::Not,
            Tok::Plus => UnOp::Plus,
            _ => return self.parse_power(),
        };
        let start = self.bump().span;
        let operand = self.nested(|p| p.parse_unary())?;
        Ok(Expr {
            span: start.to(operand.span),
            kind: ExprKind::Unary(op, Box::new(operand)),
        })
    }

    fn parse_power(&mut self) -> PResult<Expr> {
        let base = self.parse_postfix()?;
        let op = match self.peek() {
            Tok::Caret => BinOp::Pow,
            Tok::DotCaret => BinOp::EPow,
            _ => return Ok(base),
        };
        self.bump();
        let exp = self.nested(|p| p.parse_pow_operand())?;
        Ok(bin(op, base, exp))
    }

    /// The right side of `^`: a power, possibly under prefix operators (`10^-6`).
    fn parse_pow_operand(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Minus => UnOp::Neg,
            Tok::Bang => UnOp::Not,
            Tok::Plus => UnOp::Plus,
            _ => return self.parse_power(),
        };
        let start = self.bump().span;
        let operand = self.nested(|p| p.parse_pow_operand())?;
        Ok(Expr {
            span: start.to(operand.span),
            kind: ExprKind::Unary(op, Box::new(operand)),
        })
    }

    fn parse_postfix(&mut self) -> PResult<Expr> {
        let saved = self.tree;
        let r = self.parse_postfix_chain();
        self.tree = saved;
        r
    }

    fn parse_postfix_chain(&mut self) -> PResult<Expr> {
        let mut e = self.parse_primary()?;
        loop {
            let kind = match self.peek() {
                Tok::LParen => {
                    self.bump();
                    let args = self.parse_args(&Tok::RParen)?;
                    ExprKind::Call {
                        callee: Box::new(e),
                        args,
                    }
                }
                Tok::LBracket => {
                    self.bump();
                    let base = match &e.kind {
                        ExprKind::Ident(n) => Some(n.clone()),
                        _ => None,
                    };
                    self.index_bases.push(base);
                    let indices = self.parse_args(&Tok::RBracket);
                    self.index_bases.pop();
                    let indices = indices?;
                    ExprKind::Index {
                        base: Box::new(e),
                        indices,
                    }
                }
                Tok::Dot => {
                    self.bump();
                    let name = self.expect_ident("a field name after `.`")?;
                    ExprKind::Field {
                        base: Box::new(e),
                        name,
                    }
                }
                _ => return Ok(e),
            };
            let span = self.span_from(self.expr_start(&kind));
            e = Expr { kind, span };
            self.fold()?;
        }
    }

    fn expr_start(&self, kind: &ExprKind) -> blazar_diagnostics::Span {
        match kind {
            ExprKind::Call { callee: b, .. }
            | ExprKind::Index { base: b, .. }
            | ExprKind::Field { base: b, .. } => b.span,
            _ => self.span(),
        }
    }

    /// Call or index arguments up to `close` (the opener is consumed); `:` alone is
    /// the whole dimension.
    fn parse_args(&mut self, close: &Tok) -> PResult<Vec<Expr>> {
        let saved = std::mem::replace(&mut self.no_lambda, false);
        let r = self.nested(|p| p.parse_list(close, true));
        self.no_lambda = saved;
        r
    }

    /// Comma-separated expressions up to `close`; a trailing comma is allowed.
    fn parse_list(&mut self, close: &Tok, colon: bool) -> PResult<Vec<Expr>> {
        // The opening token was just consumed.
        let open = (self.pos > 0).then(|| self.prev_span());
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(items);
            }
            let next = self.peek_at(1);
            let call = colon && close == &Tok::RParen;
            if colon && self.at(&Tok::Colon) && (next == close || next == &Tok::Comma) {
                let span = self.bump().span;
                items.push(Expr {
                    kind: ExprKind::Colon,
                    span,
                });
            } else if call
                && matches!(self.peek(), Tok::Ident(_))
                && ((next == &Tok::Colon && self.peek_at(2) == &Tok::Eq) || next == &Tok::Eq)
            {
                // `name := value`, or `name = value` as MATLAB writes it (published
                // Quasar code has both; `=` can mean nothing else inside a call).
                let start = self.span();
                let name = self.expect_ident("a parameter name")?;
                if self.bump().tok == Tok::Colon {
                    self.bump();
                }
                let value = self.parse_expr()?;
                items.push(Expr {
                    kind: ExprKind::Named(name, Box::new(value)),
                    span: self.span_from(start),
                });
            } else {
                let start = self.span();
                let e = self.parse_expr()?;
                if call && self.eat(&Tok::Colon) {
                    // `n : int`: the argument with its type stated.
                    let ty = self.parse_type()?;
                    items.push(Expr {
                        kind: ExprKind::Typed(Box::new(e), Box::new(ty)),
                        span: self.span_from(start),
                    });
                } else {
                    let lambda = matches!(e.kind, ExprKind::Lambda(_));
                    items.push(e);
                    // `h.add(() -> (s.v = 7);)`: the `;` ends the lambda's statement.
                    if lambda && self.at(&Tok::Semi) && self.peek_at(1) == close {
                        self.bump();
                    }
                }
            }
            if !self.eat(&Tok::Comma) && !self.at(close) {
                let what = match close {
                    Tok::CellClose => "`,` or `'` to close the cell literal".to_string(),
                    _ => format!("`,` or `{}`", close.symbol()),
                };
                if let Some(open) = open.filter(|o| self.line_of(*o) < self.line_of(self.span())) {
                    // The list runs past its line: most likely its closer is missing.
                    let found = self.peek().describe();
                    let span = self.span();
                    self.diags.push(
                        blazar_diagnostics::Diagnostic::error(
                            open,
                            format!("this `{}` is never closed", self.open_symbol(close)),
                        )
                        .with_related(span, format!("expected {what}, found {found}")),
                    );
                    return Err(crate::parser::Failed);
                }
                return self.expected(&what);
            }
        }
    }

    fn parse_primary(&mut self) -> PResult<Expr> {
        let span = self.span();
        let kind = match self.peek().clone() {
            Tok::Int(v) => ExprKind::Int(v),
            Tok::Real(v) => ExprKind::Real(v),
            Tok::Imag(v) => ExprKind::Imag(v),
            Tok::Str(s) => ExprKind::Str(s),
            Tok::Ident(name) => {
                if name == "end" && self.end_as_index() {
                    // MATLAB's `x[end]`: one error with the Quasar spelling, and the
                    // expression goes on as if an index were there (no cascade).
                    let x = self.index_bases.last().cloned().flatten();
                    let x = x.as_deref().unwrap_or("x");
                    self.error(
                        span,
                        format!(
                            "`end` is not an index in Quasar: the last element of `{x}` is \
                             `{x}[numel({x})-1]` (`{x}[size({x}, d)-1]` along dimension d)"
                        ),
                    );
                    self.bump();
                    return Ok(Expr {
                        kind: ExprKind::Int(0),
                        span,
                    });
                }
                if Self::is_reserved(&name) {
                    self.error(
                        span,
                        format!("expected an expression, found keyword `{name}`"),
                    );
                    return Err(Failed);
                }
                if name == "__kernel__" || name == "__device__" {
                    return self.parse_lambda();
                }
                if !self.no_lambda && self.peek_at(1) == &Tok::Arrow {
                    return self.parse_lambda();
                }
                if !self.no_lambda && self.peek_at(1) == &Tok::Colon && self.typed_lambda_ahead() {
                    return self.parse_lambda();
                }
                ExprKind::Ident(name)
            }
            Tok::LParen => {
                if !self.no_lambda && self.paren_is_lambda() {
                    return self.parse_lambda();
                }
                self.bump();
                let saved = std::mem::replace(&mut self.no_lambda, false);
                let inner = self.parse_expr();
                self.no_lambda = saved;
                let mut inner = inner?;
                self.expect(&Tok::RParen, "`)`")?;
                inner.span = self.span_from(span);
                return Ok(inner);
            }
            Tok::LBracket => {
                self.bump();
                let elems = self.parse_args_list(&Tok::RBracket)?;
                return Ok(Expr {
                    kind: ExprKind::Matrix(elems),
                    span: self.span_from(span),
                });
            }
            Tok::Backquote => {
                self.bump();
                let elems = self.parse_args_list(&Tok::CellClose)?;
                return Ok(Expr {
                    kind: ExprKind::Cell(elems),
                    span: self.span_from(span),
                });
            }
            Tok::Apostrophe => {
                self.error(
                    span,
                    "unexpected `'`: Quasar has no transpose operator, use `transpose(x)`",
                );
                return Err(Failed);
            }
            Tok::Colon => {
                self.error(
                    span,
                    "`:` alone is only allowed as an index, as in `x[:, 0]`",
                );
                return Err(Failed);
            }
            other => {
                let hint = if other == Tok::DotDot && self.peek_at(1) == &Tok::Dot {
                    " (`...` continues a line in MATLAB; in Quasar end the line with `_`, or \
                     break it inside brackets)"
                } else {
                    ""
                };
                self.error(
                    span,
                    format!("expected an expression, found {}{hint}", other.describe()),
                );
                return Err(Failed);
            }
        };
        self.bump();
        Ok(Expr { kind, span })
    }

    /// Matrix or cell elements (no `:`), lambdas allowed.
    fn parse_args_list(&mut self, close: &Tok) -> PResult<Vec<Expr>> {
        let saved = std::mem::replace(&mut self.no_lambda, false);
        let r = self.nested(|p| p.parse_list(close, false));
        self.no_lambda = saved;
        r
    }
    /// Whether the `end` at the current token sits where an index would (`x[end]`,
    /// `x[end-1]`, `x[1:end]`): followed by what continues an expression or an index
    /// list, never by what ends a block's closing line.
    /// The opening symbol of a list that `close` ends.
    fn open_symbol(&self, close: &Tok) -> &'static str {
        match close {
            Tok::RParen => "(",
            Tok::RBracket => "[",
            _ => "bracket",
        }
    }

    fn end_as_index(&self) -> bool {
        matches!(
            self.peek_at(1),
            Tok::RBracket
                | Tok::RParen
                | Tok::Comma
                | Tok::Colon
                | Tok::Plus
                | Tok::Minus
                | Tok::Star
                | Tok::Slash
        )
    }
}
