//! Definitions: functions, parameters, `type`, `reduction` and `macro` statements.

use super::{Failed, PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;

type Header = (Vec<Param>, FnKind, Ident, Vec<Param>, bool);

impl Parser {
    /// `function outputs = kind name(params) concealed ... end`.
    pub(crate) fn parse_function(&mut self) -> PResult<Function> {
        let start = self.bump().span;
        let header = self.function_header();
        let (outputs, kind, name, params, concealed) = match header {
            Ok(h) => {
                if self.end_of_stmt().is_err() {
                    self.recover();
                }
                h
            }
            Err(Failed) => {
                self.recover();
                let name = Ident {
                    name: "$error".into(),
                    span: start,
                };
                (Vec::new(), FnKind::Host, name, Vec::new(), false)
            }
        };
        let (body, closer) = self.parse_body("function", start, &["endfunction"])?;
        self.finish_closer(&closer);
        Ok(Function {
            name,
            kind,
            params,
            outputs,
            body,
            concealed,
            span: self.span_from(start),
        })
    }

    fn function_header(&mut self) -> PResult<Header> {
        let mut outputs = Vec::new();
        if self.eat(&Tok::LBracket) {
            outputs = self.parse_params(&Tok::RBracket)?;
            self.expect(&Tok::Eq, "`=` after the function outputs")?;
        } else if matches!(self.peek(), Tok::Ident(n) if !n.starts_with("__"))
            && matches!(self.peek_at(1), Tok::Colon | Tok::Eq)
        {
            outputs.push(self.parse_param(false)?);
            self.expect(&Tok::Eq, "`=` after the function output")?;
        }
        let kind = self.fn_kind();
        let name = self.expect_ident("the function name")?;
        let params = if self.eat(&Tok::LParen) {
            self.parse_params(&Tok::RParen)?
        } else {
            Vec::new()
        };
        let concealed = self.eat_kw("concealed");
        Ok((outputs, kind, name, params, concealed))
    }

    /// An optional `__kernel__` or `__device__`.
    pub(crate) fn fn_kind(&mut self) -> FnKind {
        if self.eat_kw("__kernel__") {
            FnKind::Kernel
        } else if self.eat_kw("__device__") {
            FnKind::Device
        } else {
            FnKind::Host
        }
    }

    /// Parameters up to and including `close` (the opener is already consumed).
    pub(crate) fn parse_params(&mut self, close: &Tok) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(params);
            }
            params.push(self.parse_param(true)?);
            if !self.eat(&Tok::Comma) && !self.at(close) {
                return self.expected(&format!(
                    "`,` or `{}` in the parameter list",
                    close.symbol()
                ));
            }
        }
    }

    /// `x`, `x : T`, and with `defaults`, `x : T = e`.
    pub(crate) fn parse_param(&mut self, defaults: bool) -> PResult<Param> {
        let name = self.expect_ident("a parameter name")?;
        let ty = if self.eat(&Tok::Colon) {
            Some(self.parse_type()?)
        } else {
            None
        };
        let default = if defaults && self.eat(&Tok::Eq) {
            Some(self.parse_expr()?)
        } else {
            None
        };
        Ok(Param { name, ty, default })
    }

    /// `type name : class`, `type name : mutable class` with fields, or `type name : T`.
    pub(crate) fn parse_typedef(&mut self) -> PResult<StmtKind> {
        let start = self.bump().span;
        let name = self.expect_ident("a type name")?;
        self.expect(&Tok::Colon, "`:`")?;
        let mutable = self.at_kw("mutable") && self.at_kw_at(1, "class");
        if !(mutable || self.at_kw("class")) {
            let ty = self.parse_type()?;
            return Ok(StmtKind::TypeDef {
                name,
                def: TypeDef::Alias(ty),
            });
        }
        if mutable {
            self.bump();
        }
        self.bump();
        if self.end_of_stmt().is_err() {
            self.recover();
        }
        let mut fields = Vec::new();
        loop {
            self.skip_separators();
            if self.at_kw("end") || self.at_kw("endtype") {
                self.finish_closer("end");
                break;
            }
            if self.at(&Tok::Eof) || self.at_closer() {
                let line = self.line_of(start);
                let found = self.peek().describe();
                let span = self.span();
                self.error(
                    span,
                    format!("expected `end` to close `type` started at line {line}, found {found}"),
                );
                break;
            }
            match self
                .parse_param(true)
                .and_then(|f| self.end_of_stmt().map(|_| f))
            {
                Ok(f) => fields.push(f),
                Err(Failed) => {
                    self.recover();
                }
            }
        }
        Ok(StmtKind::TypeDef {
            name,
            def: TypeDef::Class { mutable, fields },
        })
    }

    /// `reduction (params) -> pattern = replacement [where cond]`.
    pub(crate) fn parse_reduction(&mut self) -> PResult<StmtKind> {
        self.bump();
        self.expect(&Tok::LParen, "`(`")?;
        let params = self.parse_params(&Tok::RParen)?;
        self.expect(&Tok::Arrow, "`->` after the reduction parameters")?;
        let pattern = self.reduction_side()?;
        self.expect(&Tok::Eq, "`=` between the pattern and its replacement")?;
        let replacement = self.reduction_side()?;
        let cond = if self.at_kw("where") {
            self.bump();
            Some(self.parse_expr()?)
        } else {
            None
        };
        Ok(StmtKind::Reduction {
            params,
            pattern: Box::new(pattern),
            replacement: Box::new(replacement),
            cond,
        })
    }

    /// One side of a reduction: an expression, or a parenthesised assignment.
    fn reduction_side(&mut self) -> PResult<Stmt> {
        let start = self.span();
        if self.at(&Tok::LParen) && self.paren_holds(|t| matches!(t, Tok::Eq | Tok::OpAssign(_))) {
            self.bump();
            let kind = self.nested(|p| p.simple_stmt())?;
            let span = self.span_from(start);
            self.expect(&Tok::RParen, "`)`")?;
            return Ok(Stmt { kind, span });
        }
        let e = self.parse_expr()?;
        Ok(Stmt {
            span: e.span,
            kind: StmtKind::Expr(e),
        })
    }

    /// `macro [] = name(params) ... endmacro`.
    pub(crate) fn parse_macro(&mut self, start: blazar_diagnostics::Span) -> PResult<StmtKind> {
        self.bump();
        let header = (|| {
            self.expect(&Tok::LBracket, "`[`")?;
            let outs = self.parse_params(&Tok::RBracket)?;
            if let Some(o) = outs.first() {
                self.error(
                    o.name.span,
                    "a macro has no outputs: write `macro [] = name()`",
                );
            }
            self.expect(&Tok::Eq, "`=`")?;
            let name = self.expect_ident("the macro name")?;
            let params = if self.eat(&Tok::LParen) {
                self.parse_params(&Tok::RParen)?
            } else {
                Vec::new()
            };
            self.end_of_stmt()?;
            Ok((name, params))
        })();
        let (name, params) = header.unwrap_or_else(|Failed| {
            self.recover();
            (
                Ident {
                    name: "$error".into(),
                    span: start,
                },
                Vec::new(),
            )
        });
        let (body, closer) = self.parse_body("macro", start, &["endmacro"])?;
        self.finish_closer(&closer);
        Ok(StmtKind::Macro { name, params, body })
    }
}
