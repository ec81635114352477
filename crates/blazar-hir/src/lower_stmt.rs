//! Lowering of statements: assignments, control flow, loops and their labels.

use crate::hir::{self, Access, Place, StmtKind, Var};
use crate::lower::Lowerer;
use blazar_syntax as ast;

impl<'a> Lowerer<'a> {
    pub fn lower_block(&mut self, b: &'a [ast::Stmt]) -> Vec<hir::Stmt> {
        b.iter().filter_map(|s| self.lower_stmt(s)).collect()
    }

    fn loop_body(&mut self, label: &Option<ast::Ident>, body: &'a [ast::Stmt]) -> Vec<hir::Stmt> {
        self.scopes.stack[self.cur]
            .loops
            .push(label.as_ref().map(|l| l.name.clone()));
        let b = self.lower_block(body);
        self.scopes.stack[self.cur].loops.pop();
        b
    }

    fn loop_depth(
        &mut self,
        label: &Option<ast::Ident>,
        span: blazar_diagnostics::Span,
        what: &str,
    ) -> Option<u32> {
        let loops = &self.scopes.stack[self.cur].loops;
        if loops.is_empty() {
            self.error(span, format!("`{what}` outside of a loop"));
            return None;
        }
        match label {
            None => Some(0),
            Some(l) => match loops
                .iter()
                .rev()
                .position(|x| x.as_deref() == Some(l.name.as_str()))
            {
                Some(d) => Some(d as u32),
                None => {
                    self.error(
                        l.span,
                        format!("no enclosing loop is labelled `{}`", l.name),
                    );
                    None
                }
            },
        }
    }

    /// Resolves an assignment target to a place.
    pub fn lower_place(&mut self, e: &'a ast::Expr) -> Option<Place> {
        let mut path = Vec::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                ast::ExprKind::Ident(name) => {
                    let var = match self.lookup_var(name) {
                        Some(v) => v,
                        None => {
                            self.error(cur.span, format!("cannot assign to `{name}`"));
                            return None;
                        }
                    };
                    path.reverse();
                    return Some(Place {
                        var,
                        path,
                        span: e.span,
                    });
                }
                ast::ExprKind::Index { base, indices } => {
                    let args = indices.iter().map(|i| self.lower_expr(i)).collect();
                    path.push(Access::Index(args));
                    cur = base;
                }
                ast::ExprKind::Field { base, name } => {
                    path.push(Access::Field(name.name.clone()));
                    cur = base;
                }
                _ => {
                    self.error(cur.span, "this expression cannot be assigned to");
                    return None;
                }
            }
        }
    }

    pub(crate) fn lower_stmt(&mut self, s: &'a ast::Stmt) -> Option<hir::Stmt> {
        let kind = match &s.kind {
            ast::StmtKind::Expr(e) => StmtKind::Expr(self.lower_expr_stmt(e)),
            ast::StmtKind::Assign {
                targets,
                multi,
                op,
                value,
            } => {
                let value_h = self.lower_expr(value);
                if *multi {
                    if !matches!(op, ast::AssignOp::Set) {
                        self.error(s.span, "an in-place operator cannot assign several targets");
                    }
                    let targets = targets.iter().filter_map(|t| self.lower_place(t)).collect();
                    StmtKind::MultiAssign {
                        targets,
                        value: value_h,
                    }
                } else {
                    let target = self.lower_place(targets.first()?)?;
                    let op = match op {
                        ast::AssignOp::Set => None,
                        ast::AssignOp::Update(o) => Some(*o),
                    };
                    // A declared variable keeps its type and access modifiers.
                    // `x op= e` too: the result converts to the declared type.
                    let ty = match target.path.is_empty() {
                        true => self.declared.get(&(self.cur, target.var)).cloned(),
                        false => None,
                    };
                    let value_h = self.typed_field(&target, op.is_none(), value_h);
                    StmtKind::Assign {
                        target,
                        op,
                        value: value_h,
                        ty,
                    }
                }
            }
            ast::StmtKind::Decl { name, ty, value } => {
                let annot = self.annot(ty);
                let var = self.lookup_var(&name.name)?;
                self.declared.insert((self.cur, var), annot.clone());
                match value {
                    Some(v) => {
                        let value = self.lower_expr(v);
                        let target = Place {
                            var,
                            path: vec![],
                            span: name.span,
                        };
                        StmtKind::Assign {
                            target,
                            op: None,
                            value,
                            ty: Some(annot),
                        }
                    }
                    None => StmtKind::Declare { var, ty: annot },
                }
            }
            // Nested functions were registered when their parent's scope was opened.
            ast::StmtKind::Function(_) => return None,
            ast::StmtKind::If { arms, otherwise } => {
                let arms = arms
                    .iter()
                    .map(|(c, b)| (self.lower_expr(c), self.lower_block(b)))
                    .collect();
                let otherwise = otherwise
                    .as_ref()
                    .map(|b| self.lower_block(b))
                    .unwrap_or_default();
                StmtKind::If { arms, otherwise }
            }
            ast::StmtKind::For {
                label,
                var,
                iter,
                body,
            } => {
                let v = self.lookup_var(&var.name).unwrap_or(Var::Local(0));
                match &iter.kind {
                    ast::ExprKind::Range { start, step, end } => {
                        let start = self.lower_expr(start);
                        let step = step.as_ref().map(|s| self.lower_expr(s));
                        let end = self.lower_expr(end);
                        let body = self.loop_body(label, body);
                        StmtKind::ForRange {
                            var: v,
                            start,
                            step,
                            end,
                            body,
                        }
                    }
                    _ => {
                        let iter = self.lower_expr(iter);
                        let body = self.loop_body(label, body);
                        StmtKind::ForEach { var: v, iter, body }
                    }
                }
            }
            ast::StmtKind::While { label, cond, body } => {
                let cond = self.lower_expr(cond);
                let body = self.loop_body(label, body);
                StmtKind::While { cond, body }
            }
            ast::StmtKind::Repeat { label, body, cond } => {
                let body = self.loop_body(label, body);
                let cond = self.lower_expr(cond);
                StmtKind::Repeat { body, cond }
            }
            ast::StmtKind::Break(l) => StmtKind::Break(self.loop_depth(l, s.span, "break")?),
            ast::StmtKind::Continue(l) => {
                StmtKind::Continue(self.loop_depth(l, s.span, "continue")?)
            }
            ast::StmtKind::Return => StmtKind::Return,
            ast::StmtKind::Match { scrutinee, arms } => {
                let scrutinee = self.lower_expr(scrutinee);
                let arms = arms
                    .iter()
                    .map(|a| {
                        (
                            a.pattern.as_ref().map(|p| self.lower_expr(p)),
                            self.lower_block(&a.body),
                        )
                    })
                    .collect();
                StmtKind::Match { scrutinee, arms }
            }
            ast::StmtKind::Print(args) => {
                StmtKind::Print(args.iter().map(|a| self.lower_expr(a)).collect())
            }
            // Imports are spliced in by the loader; types were handled up front.
            ast::StmtKind::Import(_) | ast::StmtKind::TypeDef { .. } => return None,
            // Rewrite rules and macros are optimisations: the program means the same
            // without them, so they are checked for syntax only for now.
            ast::StmtKind::Reduction {
                params,
                pattern,
                replacement,
                cond,
            } => {
                self.lower_rule(params, pattern, replacement, cond.as_ref(), s.span);
                return None;
            }
            ast::StmtKind::Macro { name, body, .. } => {
                let mut attrs = Vec::new();
                macro_attrs(body, None, &mut attrs);
                self.prog.macros.push(hir::MacroDef {
                    name: name.name.clone(),
                    attrs,
                });
                return None;
            }
            ast::StmtKind::Attribute(a) => StmtKind::Attribute {
                style: a.style,
                name: a.name.name.clone(),
                args: a.args.clone(),
            },
        };
        Some(hir::Stmt { kind, span: s.span })
    }
}

/// The attributes of a macro body, with the `$target("...")` guarding each (seed 003:
/// `if $target("gpu") ... endif` selects the target when the kernel is made).
fn macro_attrs(body: &[ast::Stmt], target: Option<&str>, out: &mut Vec<hir::MacroAttr>) {
    for s in body {
        match &s.kind {
            ast::StmtKind::Attribute(a) => out.push(hir::MacroAttr {
                name: a.name.name.clone(),
                args: a.args.clone(),
                target: target.map(str::to_string),
            }),
            ast::StmtKind::If { arms, .. } => {
                for (cond, block) in arms {
                    if let ast::ExprKind::Call { callee, args } = &cond.kind {
                        if let (ast::ExprKind::Ident(f), [arg]) = (&callee.kind, args.as_slice()) {
                            if let (true, ast::ExprKind::Str(t)) = (f == "$target", &arg.kind) {
                                macro_attrs(block, Some(t), out);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
