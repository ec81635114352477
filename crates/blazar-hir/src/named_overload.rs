//! Named arguments to an overloaded function: `f(x := 1, y := 2)` where several
//! definitions of `f` exist.
//!
//! An overload *fits* a call when every named argument names one of its parameters,
//! no parameter is given twice (positional arguments fill the parameters after the
//! previous argument, as in a call to one function), every skipped parameter before
//! the last given one has a value for the gap (a literal default, or the zero of its
//! declared type) and every parameter after it has a default. The call goes to the
//! overloads that fit; when several fit, their arguments must land in the same order
//! (the same parameter positions and gap values), and the choice among them is made by
//! the argument types at run time, as for positional calls. A name no overload has, no
//! overload fitting, and fitting overloads that order the arguments differently are
//! located errors.

use crate::hir::{Callee, Expr, ExprKind, FnGroup, FnId};
use crate::lower::Lowerer;
use blazar_diagnostics::{Diagnostic, Span};
use blazar_syntax as ast;

/// What fills one parameter position of a call.
#[derive(Clone, Debug)]
enum Fill {
    /// The call's argument with this index (in source order).
    Arg(usize),
    /// A skipped parameter's value.
    Gap(ExprKind),
}

impl Fill {
    fn same(&self, other: &Fill) -> bool {
        match (self, other) {
            (Fill::Arg(a), Fill::Arg(b)) => a == b,
            (Fill::Gap(a), Fill::Gap(b)) => format!("{a:?}") == format!("{b:?}"),
            _ => false,
        }
    }
}

/// Where `args` go among an overload's parameters `slots` (name, gap value, whether
/// it has a default), if the overload fits the call.
fn fit(slots: &[(String, Option<ExprKind>, bool)], args: &[ast::Expr]) -> Option<Vec<Fill>> {
    let mut placed: Vec<Option<usize>> = vec![None; slots.len()];
    let mut next = 0;
    for (j, a) in args.iter().enumerate() {
        let i = match &a.kind {
            ast::ExprKind::Named(n, _) => slots.iter().position(|s| s.0 == n.name)?,
            _ => next,
        };
        if i >= slots.len() || placed[i].is_some() {
            return None;
        }
        placed[i] = Some(j);
        next = i + 1;
    }
    let given = placed
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |i| i + 1);
    if slots[given..].iter().any(|s| !s.2) {
        return None;
    }
    (0..given)
        .map(|i| match placed[i] {
            Some(j) => Some(Fill::Arg(j)),
            None => slots[i].1.clone().map(Fill::Gap),
        })
        .collect()
}

impl<'a> Lowerer<'a> {
    /// For a call with named arguments to group `g` whose name is also a class's: the
    /// class, when no function of the group fits the call and every named argument
    /// names a field of the class. Published code defines functions that build a
    /// class by its fields (`function y = point(px, py)` calling `point(x := px, y :=
    /// py)`), and that call means the class's own constructor.
    pub(crate) fn class_fallback(&mut self, g: u32, args: &[ast::Expr]) -> Option<u32> {
        let group = self.prog.groups[g as usize].clone();
        let c = *self.classes.get(group.name.as_str())?;
        for &m in &group.members {
            let (Some(ast_fn), Some(params)) = (self.fn_asts.get(&m).copied(), self.fn_params(m))
            else {
                continue;
            };
            let slots: Vec<_> = params
                .into_iter()
                .zip(&ast_fn.params)
                .map(|((n, gap), p)| (n, gap, p.default.is_some()))
                .collect();
            if fit(&slots, args).is_some() {
                return None;
            }
        }
        let fields = &self.prog.classes[c as usize].fields;
        args.iter()
            .all(|a| match &a.kind {
                ast::ExprKind::Named(n, _) => fields.iter().any(|(f, _)| *f == n.name),
                _ => true,
            })
            .then_some(c)
    }

    /// A call with named arguments to overload group `g` (of several members).
    pub(crate) fn named_overload(
        &mut self,
        g: u32,
        args: &'a [ast::Expr],
        span: Span,
    ) -> (Callee, Vec<Expr>) {
        let group = self.prog.groups[g as usize].clone();
        let mut all_names: Vec<String> = Vec::new();
        let mut fits: Vec<(FnId, Vec<Fill>, Span)> = Vec::new();
        for &m in &group.members {
            let Some(ast_fn) = self.fn_asts.get(&m).copied() else {
                continue;
            };
            let Some(params) = self.fn_params(m) else {
                continue;
            };
            let slots: Vec<_> = params
                .into_iter()
                .zip(&ast_fn.params)
                .map(|((n, gap), p)| (n, gap, p.default.is_some()))
                .collect();
            all_names.extend(slots.iter().map(|s| s.0.clone()));
            if let Some(f) = fit(&slots, args) {
                fits.push((m, f, ast_fn.name.span));
            }
        }
        let values: Vec<Expr> = args
            .iter()
            .map(|a| match &a.kind {
                ast::ExprKind::Named(_, v) => self.lower_expr(v),
                _ => self.lower_expr(a),
            })
            .collect();
        let name = &group.name;
        let unknown: Vec<&ast::Ident> = args
            .iter()
            .filter_map(|a| match &a.kind {
                ast::ExprKind::Named(n, _) if !all_names.contains(&n.name) => Some(n),
                _ => None,
            })
            .collect();
        if !unknown.is_empty() {
            for n in unknown {
                self.error(
                    n.span,
                    format!("no overload of `{name}` has a parameter named `{}`", n.name),
                );
            }
            return (Callee::Group(g), values);
        }
        let Some((_, first, _)) = fits.first() else {
            self.error(
                span,
                format!(
                    "no overload of `{name}` fits these arguments (each named argument must \
                     name a parameter, none given twice, and every parameter left out needs \
                     a default)"
                ),
            );
            return (Callee::Group(g), values);
        };
        let ordered_alike = fits
            .iter()
            .all(|(_, f, _)| f.len() == first.len() && f.iter().zip(first).all(|(a, b)| a.same(b)));
        if !ordered_alike {
            let mut d = Diagnostic::error(
                span,
                format!(
                    "the named arguments fit several overloads of `{name}` that take them \
                     in different orders; pass the arguments by position to choose one"
                ),
            );
            for (_, _, at) in &fits {
                d = d.with_related(*at, format!("this `{name}` fits"));
            }
            self.diags.push(d);
            return (Callee::Group(g), values);
        }
        let order = first.clone();
        let members: Vec<FnId> = fits.iter().map(|(m, _, _)| *m).collect();
        let callee = Callee::Group(self.subgroup(name, members));
        let mut values: Vec<Option<Expr>> = values.into_iter().map(Some).collect();
        let out = order
            .into_iter()
            .map(|f| match f {
                Fill::Arg(j) => values[j].take().unwrap_or(Expr {
                    kind: ExprKind::Int(0),
                    span,
                }),
                Fill::Gap(kind) => Expr { kind, span },
            })
            .collect();
        (callee, out)
    }

    /// The group of `members` of the overloads named `name` (made once per set).
    fn subgroup(&mut self, name: &str, members: Vec<FnId>) -> u32 {
        if let Some(i) = self
            .prog
            .groups
            .iter()
            .position(|g| g.name == name && g.members == members)
        {
            return i as u32;
        }
        self.prog.groups.push(FnGroup {
            name: name.to_string(),
            members,
        });
        (self.prog.groups.len() - 1) as u32
    }
}
