//! Call arguments: named arguments (`point(x := 3, y := 4)`, `f(b := 1, a := 10)`) are
//! put in the callee's parameter or field order before the call is resolved further.

use crate::hir::{Callee, Expr, ExprKind};
use crate::lower::Lowerer;
use blazar_diagnostics::Span;
use blazar_syntax as ast;

impl<'a> Lowerer<'a> {
    /// The arguments of a call to `callee`, named ones moved to their positions; a
    /// call with named arguments to an overload group goes to the overloads whose
    /// parameter names fit (`named_overload.rs`).
    pub(crate) fn lower_args(
        &mut self,
        callee: Callee,
        args: &'a [ast::Expr],
        span: Span,
    ) -> (Callee, Vec<Expr>) {
        if !args
            .iter()
            .any(|a| matches!(a.kind, ast::ExprKind::Named(..)))
        {
            return (callee, args.iter().map(|a| self.lower_expr(a)).collect());
        }
        if let Callee::Group(g) = callee {
            if let Some(c) = self.class_fallback(g, args) {
                let callee = Callee::Class(c);
                let placed = self.place_args(&callee, args, span);
                return (callee, placed);
            }
            if self.prog.groups[g as usize].members.len() > 1 {
                return self.named_overload(g, args, span);
            }
        }
        let placed = self.place_args(&callee, args, span);
        (callee, placed)
    }

    /// Named arguments put in `callee`'s parameter or field order.
    fn place_args(&mut self, callee: &Callee, args: &'a [ast::Expr], span: Span) -> Vec<Expr> {
        let Some(slots) = self.slot_names(callee) else {
            // Reported by `lower_expr` at each named argument.
            return args.iter().map(|a| self.lower_expr(a)).collect();
        };
        let mut placed: Vec<Option<Expr>> = (0..slots.len()).map(|_| None).collect();
        let mut next = 0;
        for a in args {
            let (i, value) = match &a.kind {
                ast::ExprKind::Named(n, v) => match slots.iter().position(|(s, _)| *s == n.name) {
                    Some(i) => (i, &**v),
                    None => {
                        let mut d = blazar_diagnostics::Diagnostic::error(
                            n.span,
                            format!(
                                "`{}` has no parameter or field named `{}`",
                                self.callee_name(callee),
                                n.name
                            ),
                        );
                        let names = slots.iter().map(|(s, _)| s.as_str());
                        if let Some(hint) =
                            blazar_diagnostics::suggest::did_you_mean(&n.name, names)
                        {
                            d = d.with_note(hint);
                        }
                        self.diags.push(d);
                        continue;
                    }
                },
                _ => (next, a),
            };
            next = i + 1;
            if i >= placed.len() {
                self.error(
                    a.span,
                    format!("too many arguments for `{}`", self.callee_name(callee)),
                );
                continue;
            }
            if placed[i].is_some() {
                self.error(a.span, format!("`{}` is given twice", slots[i].0));
                continue;
            }
            placed[i] = Some(self.lower_expr(value));
        }
        // Trailing parameters left out take their defaults; a gap before a given one
        // takes the type's default value where it has one.
        let given = placed
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i + 1);
        let mut out = Vec::with_capacity(given);
        for (i, p) in placed.into_iter().take(given).enumerate() {
            match p {
                Some(e) => out.push(e),
                None => {
                    let (name, default) = &slots[i];
                    match default {
                        Some(kind) => out.push(Expr {
                            kind: kind.clone(),
                            span,
                        }),
                        None => {
                            self.error(span, format!("argument `{name}` is missing"));
                            out.push(Expr {
                                kind: ExprKind::Int(0),
                                span,
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// A user function named like a builtin overloads it by arity: a call that no user
    /// definition of that name accepts (by its number of parameters) goes to the
    /// builtin.
    pub(crate) fn builtin_overload(&self, callee: Callee, n: usize) -> Callee {
        let Callee::Group(g) = callee else {
            return callee;
        };
        let group = &self.prog.groups[g as usize];
        let Some(b) = (self.builtin)(&group.name) else {
            return callee;
        };
        let accepts = |id: &crate::hir::FnId| {
            self.fn_asts.get(id).is_none_or(|f| {
                let required = f.params.iter().filter(|p| p.default.is_none()).count();
                (required..=f.params.len()).contains(&n)
            })
        };
        if group.members.iter().any(accepts) {
            callee
        } else {
            Callee::Builtin(b)
        }
    }

    fn callee_name(&self, callee: &Callee) -> String {
        match callee {
            Callee::Class(c) => self.prog.classes[*c as usize].name.clone(),
            Callee::Group(g) => self.prog.groups[*g as usize].name.clone(),
            _ => "the function".into(),
        }
    }

    /// Parameter (or field) names of `callee` in order, each with the value a gap
    /// takes, or `None` when the callee's parameters are not known statically.
    fn slot_names(&mut self, callee: &Callee) -> Option<Vec<(String, Option<ExprKind>)>> {
        match callee {
            Callee::Class(c) => Some(
                self.prog.classes[*c as usize]
                    .fields
                    .iter()
                    .map(|(n, t)| (n.clone(), gap_value(t)))
                    .collect(),
            ),
            Callee::Group(g) => {
                let members = &self.prog.groups[*g as usize].members;
                let [id] = members[..] else { return None };
                self.fn_params(id)
            }
            Callee::Nested { func, .. } | Callee::SelfCall(func) => self.fn_params(*func),
            _ => None,
        }
    }

    pub(crate) fn fn_params(
        &mut self,
        id: crate::hir::FnId,
    ) -> Option<Vec<(String, Option<ExprKind>)>> {
        let f = *self.fn_asts.get(&id)?;
        Some(
            f.params
                .iter()
                .map(|p| {
                    let gap = match (&p.default, &p.ty) {
                        (Some(d), _) => literal(d),
                        (None, Some(t)) => {
                            let t = self.resolve_ty(t);
                            gap_value(&t)
                        }
                        _ => None,
                    };
                    (p.name.name.clone(), gap)
                })
                .collect(),
        )
    }
}

/// The value a field or parameter of type `t` takes when a named call skips it.
fn gap_value(t: &crate::types::Ty) -> Option<ExprKind> {
    use crate::types::Ty;
    match t {
        Ty::Scalar => Some(ExprKind::Real(0.0)),
        Ty::Int(_) => Some(ExprKind::Int(0)),
        Ty::Str => Some(ExprKind::Str(String::new())),
        _ => None,
    }
}

/// A default value that means the same in the caller's scope: a literal.
fn literal(d: &ast::Expr) -> Option<ExprKind> {
    Some(match &d.kind {
        ast::ExprKind::Int(v) if i32::try_from(*v).is_ok() => ExprKind::Int(*v),
        ast::ExprKind::Real(v) => ExprKind::Real(*v),
        ast::ExprKind::Str(s) => ExprKind::Str(s.clone()),
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    /// The value of an assignment to `p.f`: a typed one (`p.f : T = e`) states the
    /// field's type, and later plain assignments to `p.f` in the same scope convert to
    /// it.
    pub(crate) fn typed_field(
        &mut self,
        target: &crate::hir::Place,
        set: bool,
        value: Expr,
    ) -> Expr {
        let [crate::hir::Access::Field(name)] = target.path.as_slice() else {
            return value;
        };
        if !set {
            return value;
        }
        let key = (self.cur, target.var, name.clone());
        if let ExprKind::Convert(_, a) = &value.kind {
            self.declared_fields.insert(key, a.clone());
            return value;
        }
        match self.declared_fields.get(&key) {
            Some(a) => Expr {
                span: value.span,
                kind: ExprKind::Convert(Box::new(value), a.clone()),
            },
            None => value,
        }
    }
}
