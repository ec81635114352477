//! Type expressions: `??`, `vec[int8]`, `cube{4}`, `mat'unchecked'const`,
//! `[vec | mat]`, `[(scalar, scalar) -> scalar]`, `[__device__ mat -> ()]`, `'unchecked`
//! (a modifier alone), `^node` (read as `node`).

use super::{Failed, PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;

/// What a `|`-separated list inside brackets turned out to be.
#[derive(PartialEq)]
enum Shape {
    /// One plain type: `[int]` is a one-element union.
    Single,
    /// One function type: `[int -> int]`.
    Arrow,
    /// Several alternatives: `[vec | mat]`.
    Union,
}

impl Parser {
    /// A type with its modifiers, as written after `:` (no top-level `->` or `|`).
    pub(crate) fn parse_type(&mut self) -> PResult<TypeExpr> {
        self.nested(|p| p.type_atom())
    }

    fn type_atom(&mut self) -> PResult<TypeExpr> {
        let start = self.span();
        let kind = match self.peek().clone() {
            // `'unchecked` alone: a parameter of unspecified type with that modifier.
            Tok::Apostrophe => TypeKind::Unknown,
            // `^node`: a reference to a mutable class; objects are references already.
            Tok::Caret => {
                self.bump();
                return self.type_atom();
            }
            Tok::QQ => {
                self.bump();
                TypeKind::Unknown
            }
            Tok::Ident(name) if !Self::is_reserved(&name) && !name.starts_with("__") => {
                self.bump();
                let mut params = Vec::new();
                if self.eat(&Tok::LBracket) {
                    loop {
                        params.push(self.type_alts()?.0);
                        if self.eat(&Tok::RBracket) {
                            break;
                        }
                        self.expect(&Tok::Comma, "`,` or `]` in the type parameters")?;
                    }
                }
                let mut rank = None;
                if self.eat(&Tok::LBrace) {
                    match self.peek().clone() {
                        Tok::Int(n) if (0..=64).contains(&n) => {
                            self.bump();
                            rank = Some(n as u32);
                        }
                        _ => return self.expected("a dimension count such as `4` in `cube{4}`"),
                    }
                    self.expect(&Tok::RBrace, "`}`")?;
                }
                TypeKind::Named { name, params, rank }
            }
            Tok::LBracket => {
                self.bump();
                let (ty, shape) = self.type_alts()?;
                self.expect(&Tok::RBracket, "`]` to close the type")?;
                match shape {
                    Shape::Single => TypeKind::Union(vec![ty]),
                    Shape::Arrow | Shape::Union => ty.kind,
                }
            }
            _ => return self.expected("a type"),
        };
        let mut modifiers = Vec::new();
        while self.at(&Tok::Apostrophe) {
            self.bump();
            modifiers.push(self.expect_ident("a type modifier such as `unchecked` after `'`")?);
        }
        Ok(TypeExpr {
            kind,
            modifiers,
            span: self.span_from(start),
        })
    }

    /// `alt | alt | ...` inside brackets.
    fn type_alts(&mut self) -> PResult<(TypeExpr, Shape)> {
        let start = self.span();
        let first = self.type_alt()?;
        if !self.at(&Tok::Pipe) {
            return Ok(first);
        }
        let mut alts = vec![first.0];
        while self.eat(&Tok::Pipe) {
            alts.push(self.type_alt()?.0);
        }
        let ty = TypeExpr {
            kind: TypeKind::Union(alts),
            modifiers: Vec::new(),
            span: self.span_from(start),
        };
        Ok((ty, Shape::Union))
    }

    /// One alternative: a type, or a function type `kind params -> results`.
    fn type_alt(&mut self) -> PResult<(TypeExpr, Shape)> {
        self.nested(|p| p.type_alt_inner())
    }

    fn type_alt_inner(&mut self) -> PResult<(TypeExpr, Shape)> {
        let start = self.span();
        let kind = self.fn_kind();
        let (params, tuple) = if self.eat(&Tok::LParen) {
            (self.type_list(&Tok::RParen)?, true)
        } else {
            (vec![self.parse_type()?], false)
        };
        if self.eat(&Tok::Arrow) {
            let results = if self.eat(&Tok::LParen) {
                self.type_list(&Tok::RParen)?
            } else {
                vec![self.type_alt()?.0]
            };
            let ty = TypeExpr {
                kind: TypeKind::Func {
                    kind,
                    params,
                    results,
                },
                modifiers: Vec::new(),
                span: self.span_from(start),
            };
            return Ok((ty, Shape::Arrow));
        }
        if kind != FnKind::Host {
            return self.expected("`->` in the function type");
        }
        match params.len() {
            1 => {
                let ty = params.into_iter().next().ok_or(Failed)?;
                Ok((ty, Shape::Single))
            }
            _ if tuple => self.expected("`->` after the parameter types"),
            _ => Err(Failed),
        }
    }

    /// Types separated by commas up to `close` (the opener is consumed).
    fn type_list(&mut self, close: &Tok) -> PResult<Vec<TypeExpr>> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Ok(items);
            }
            items.push(self.type_alts()?.0);
            if !self.eat(&Tok::Comma) && !self.at(close) {
                return self.expected(&format!("`,` or `{}` in the type list", close.symbol()));
            }
        }
    }
}
