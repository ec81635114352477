//! Lowering of expressions: name lookup (variable, nested function, top-level function,
//! class, constant, intrinsic, builtin), calls, typed constructors and lambdas.

use crate::hir::{Callee, Expr, ExprKind, Intrinsic, UnOp};
use crate::lower::Lowerer;
use crate::types::Ty;
use blazar_diagnostics::{Diagnostic, Span};
use blazar_syntax as ast;

/// Named constants.
fn constant(name: &str) -> Option<ExprKind> {
    Some(match name {
        "pi" => ExprKind::Real(std::f64::consts::PI),
        "true" => ExprKind::Int(1),
        "false" => ExprKind::Int(0),
        "inf" | "Inf" => ExprKind::Real(f64::INFINITY),
        "nan" | "NaN" => ExprKind::Real(f64::NAN),
        "eps" => ExprKind::Real(f32::EPSILON as f64),
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    /// An expression statement: a bare function name (`syncthreads`, `tic`) is a call.
    pub fn lower_expr_stmt(&mut self, e: &'a ast::Expr) -> Expr {
        let h = self.lower_expr(e);
        match h.kind {
            ExprKind::FuncValue(callee) => Expr {
                kind: ExprKind::Call {
                    callee,
                    args: vec![],
                },
                span: h.span,
            },
            ExprKind::Closure { func, captures } => Expr {
                kind: ExprKind::Call {
                    callee: Callee::Nested { func, captures },
                    args: vec![],
                },
                span: h.span,
            },
            kind => Expr { kind, span: h.span },
        }
    }

    pub fn lower_expr(&mut self, e: &'a ast::Expr) -> Expr {
        let kind = self.lower_expr_kind(e);
        Expr { kind, span: e.span }
    }

    fn lower_expr_kind(&mut self, e: &'a ast::Expr) -> ExprKind {
        use ast::ExprKind as A;
        match &e.kind {
            // `int` is 32-bit: a larger integer literal is a scalar, as in C.
            A::Int(v) if i32::try_from(*v).is_err() => ExprKind::Real(*v as f64),
            A::Int(v) => ExprKind::Int(*v),
            A::Real(v) => ExprKind::Real(*v),
            A::Imag(v) => ExprKind::Imag(*v),
            A::Str(s) => ExprKind::Str(s.clone()),
            A::Colon => ExprKind::Colon,
            A::Ident(name) => self.lower_name(name, e.span, false),
            A::Unary(op, x) => {
                let x = self.lower_expr(x);
                match op {
                    ast::UnOp::Plus => x.kind,
                    ast::UnOp::Neg => ExprKind::Unary(UnOp::Neg, Box::new(x)),
                    ast::UnOp::Not => ExprKind::Unary(UnOp::Not, Box::new(x)),
                }
            }
            A::Binary(op, a, b) => ExprKind::Binary(
                *op,
                Box::new(self.lower_expr(a)),
                Box::new(self.lower_expr(b)),
            ),
            A::Range { start, step, end } => ExprKind::Range {
                start: Box::new(self.lower_expr(start)),
                step: step.as_ref().map(|s| Box::new(self.lower_expr(s))),
                end: Box::new(self.lower_expr(end)),
            },
            A::Ternary(c, a, b) => ExprKind::Ternary(
                Box::new(self.lower_expr(c)),
                Box::new(self.lower_expr(a)),
                Box::new(self.lower_expr(b)),
            ),
            A::Call { callee, args } => {
                let callee = self.lower_callee(callee);
                let callee = self.builtin_overload(callee, args.len());
                let (callee, mut args) = self.lower_args(callee, args, e.span);
                self.constant_dims_rule(&callee, &mut args);
                self.exist_rule(&callee, args, e.span)
            }
            A::Index { base, indices } => {
                if let Some(ty) = self.type_application(base, indices) {
                    return ExprKind::TypeValue(ty);
                }
                let base = Box::new(self.lower_expr(base));
                let args = indices.iter().map(|a| self.lower_expr(a)).collect();
                ExprKind::Index { base, args }
            }
            A::Field { base, name } => ExprKind::Field {
                base: Box::new(self.lower_expr(base)),
                name: name.name.clone(),
            },
            A::Matrix(items) => {
                ExprKind::Matrix(items.iter().map(|a| self.lower_expr(a)).collect())
            }
            A::Cell(items) => ExprKind::Cell(items.iter().map(|a| self.lower_expr(a)).collect()),
            A::Lambda(lam) => {
                let (func, captures) = self.lower_lambda(lam, e.span);
                ExprKind::Closure { func, captures }
            }
            A::Type(t) => ExprKind::TypeValue(self.resolve_ty(t)),
            A::Typed(x, t) => {
                let x = self.lower_expr(x);
                ExprKind::Convert(Box::new(x), self.annot(t))
            }
            A::Named(n, x) => {
                self.error(
                    n.span,
                    format!(
                        "a named argument `{} := ...` must name a parameter of the function \
                         or a field of the class it is passed to",
                        n.name
                    ),
                );
                self.lower_expr(x).kind
            }
        }
    }

    /// `vec[int8]` where `vec` is a type name and not a variable: a type.
    fn type_application(&mut self, base: &ast::Expr, indices: &[ast::Expr]) -> Option<Ty> {
        let ast::ExprKind::Ident(name) = &base.kind else {
            return None;
        };
        if self.lookup_var(name).is_some() {
            return None;
        }
        let mut ty = Ty::builtin(name)?;
        if indices.len() != 1 {
            return None;
        }
        let elem = match &indices[0].kind {
            ast::ExprKind::Ident(n) => Ty::builtin(n)?,
            ast::ExprKind::Type(t) => self.resolve_ty(t),
            _ => return None,
        };
        match &mut ty {
            Ty::Array { elem: e, .. } | Ty::FixedVec { elem: e, .. } => **e = elem,
            _ => return None,
        }
        Some(ty)
    }

    /// A name used as a value, or as the function of a call (`call`).
    fn lower_name(&mut self, name: &str, span: Span, call: bool) -> ExprKind {
        if let Some(v) = self.lookup_var(name) {
            return ExprKind::Var(v);
        }
        if let Some(id) = self.scopes.nested_fn(self.cur, name) {
            return self.nested_ref(id, span);
        }
        if let Some(&g) = self.groups.get(name) {
            return ExprKind::FuncValue(Callee::Group(g));
        }
        if let Some(k) = constant(name) {
            return k;
        }
        if name == "nullptr" {
            return ExprKind::Call {
                callee: Callee::Intrinsic(Intrinsic::Nullptr),
                args: vec![],
            };
        }
        if let Some(&c) = self.classes.get(name) {
            return ExprKind::FuncValue(Callee::Class(c));
        }
        if let Some(i) = Intrinsic::from_name(name) {
            return ExprKind::FuncValue(Callee::Intrinsic(i));
        }
        if let Some(b) = (self.builtin)(name) {
            return ExprKind::FuncValue(Callee::Builtin(b));
        }
        if let Some(t) = Ty::builtin(name).or_else(|| self.aliases.get(name).cloned()) {
            return ExprKind::TypeValue(t);
        }
        // A function of an unavailable plugin passes `check` with a warning and fails
        // only where it runs: a known name of the plugin anywhere, an undefined name
        // called while the program imports a plugin (it may be one of its functions).
        let known = self
            .plugins
            .iter()
            .find(|(_, names)| names.iter().any(|n| n == name))
            .map(|(p, _)| p.clone());
        let plugin = match known {
            Some(p) => Some(format!("`{name}` comes from {p}")),
            None if call && !self.plugins.is_empty() => {
                let list: Vec<&str> = self.plugins.iter().map(|(p, _)| p.as_str()).collect();
                Some(format!(
                    "`{name}` is not defined; it may come from {}",
                    list.join(" or ")
                ))
            }
            None => None,
        };
        if let Some(what) = plugin {
            self.diags.push(Diagnostic::warning(
                span,
                format!("{what}, which Blazar does not provide; calling it is an error"),
            ));
            return self.unavailable(format!("{what}, which Blazar does not provide"), span);
        }
        let mut d = Diagnostic::error(span, format!("undefined variable or function `{name}`"));
        for note in self.undefined_notes(name) {
            d = d.with_note(note);
        }
        if !self.plugins.is_empty() {
            let list: Vec<&str> = self.plugins.iter().map(|(p, _)| p.as_str()).collect();
            d = d.with_note(format!(
                "the program imports {}, which Blazar does not provide",
                list.join(", ")
            ));
        }
        self.diags.push(d);
        ExprKind::Int(0)
    }

    /// `error(msg)`: what a use of a function Blazar does not provide evaluates to.
    fn unavailable(&self, msg: String, span: Span) -> ExprKind {
        ExprKind::Call {
            callee: Callee::Intrinsic(Intrinsic::Error),
            args: vec![Expr {
                kind: ExprKind::Str(msg),
                span,
            }],
        }
    }

    /// A reference to a nested function from the current scope.
    fn nested_ref(&mut self, id: u32, span: Span) -> ExprKind {
        if self.scopes.stack[self.cur].func == id {
            return ExprKind::FuncValue(Callee::SelfCall(id));
        }
        if !self.ensure_nested(id, span) {
            return ExprKind::Int(0);
        }
        let captures = self.capture_sources(id);
        ExprKind::Closure { func: id, captures }
    }

    fn lower_callee(&mut self, callee: &'a ast::Expr) -> Callee {
        match &callee.kind {
            ast::ExprKind::Ident(name) => {
                if let Some(v) = self.lookup_var(name) {
                    return Callee::Value(Box::new(Expr {
                        kind: ExprKind::Var(v),
                        span: callee.span,
                    }));
                }
                match self.lower_name(name, callee.span, true) {
                    ExprKind::FuncValue(c) => c,
                    ExprKind::Closure { func, captures } => Callee::Nested { func, captures },
                    ExprKind::TypeValue(t) => Callee::TypeCtor(t),
                    kind @ (ExprKind::Real(_) | ExprKind::Int(_)) => {
                        if !self
                            .diags
                            .last()
                            .is_some_and(|d| d.span == Some(callee.span))
                        {
                            self.error(
                                callee.span,
                                format!("`{name}` is a constant, not a function"),
                            );
                        }
                        Callee::Value(Box::new(Expr {
                            kind,
                            span: callee.span,
                        }))
                    }
                    kind => Callee::Value(Box::new(Expr {
                        kind,
                        span: callee.span,
                    })),
                }
            }
            _ => {
                let e = self.lower_expr(callee);
                match e.kind {
                    ExprKind::TypeValue(t) => Callee::TypeCtor(t),
                    kind => Callee::Value(Box::new(Expr { kind, span: e.span })),
                }
            }
        }
    }
}
