//! MATLAB's `A(1, 2)` on a variable that is certainly an array: an error before the
//! program runs, with the Quasar spelling `A[0, 1]` (brackets, 0-based).
//!
//! A variable is certainly an array when it is assigned at least once in its function
//! (a script's variables: anywhere) and every value it is given has an array type
//! (`eye(3)`, `[1, 2]`, a declared `mat`, ...): a parameter without a declared type, a
//! `for` over values or a several-output assignment make it unknown, and nothing is
//! reported for it (the run reports it, if it happens).

use crate::hir::{Callee, Expr, ExprKind, Param, Program, Stmt, StmtKind, Var};
use crate::infer::{expr_type_with, BuiltinName};
use crate::types::Ty;
use crate::visit;
use blazar_diagnostics::Diagnostic;
use std::collections::HashMap;

/// The types a variable is given; `None` once something makes it unknown.
type Seen = HashMap<Var, Option<Vec<Ty>>>;

pub(crate) fn check(p: &Program, names: BuiltinName, out: &mut Vec<Diagnostic>) {
    // The script's variables are globals, which any function may assign.
    let mut globals = Seen::new();
    let mut locals: Vec<Seen> = Vec::new();
    for f in &p.functions {
        let mut seen = Seen::new();
        for par in f.params.iter().chain(&f.outputs) {
            let ty = par.ty.as_ref().map(|a| a.ty.clone());
            note(&mut seen, Var::Local(par.slot), ty);
        }
        for &slot in &f.capture_slots {
            note(&mut seen, Var::Local(slot), None);
        }
        assignments(&f.body, &f.params, names, &mut seen, &mut globals);
        locals.push(seen);
    }
    for (f, seen) in p.functions.iter().zip(&locals) {
        let is_array = |v: &Var| {
            let seen = match v {
                Var::Global(_) => &globals,
                Var::Local(_) => seen,
            };
            matches!(seen.get(v), Some(Some(tys))
                if !tys.is_empty() && tys.iter().all(|t| matches!(t, Ty::Array { .. })))
        };
        let mut found = Vec::new();
        visit::each_expr_in(&f.body, &mut |e: &Expr| {
            if let ExprKind::Call {
                callee: Callee::Value(base),
                args,
            } = &e.kind
            {
                if let ExprKind::Var(v) = &base.kind {
                    if is_array(v) {
                        found.push((e, *v, args));
                    }
                }
            }
        });
        for (e, v, args) in found {
            let name = match v {
                Var::Global(g) => p.global_names.get(g as usize),
                Var::Local(s) => f.local_names.get(s as usize),
            }
            .map_or("the array", String::as_str);
            out.push(Diagnostic::error(e.span, message(name, args)));
        }
    }
}

fn note(seen: &mut Seen, v: Var, ty: Option<Ty>) {
    let entry = seen.entry(v).or_insert_with(|| Some(Vec::new()));
    match (entry.as_mut(), ty) {
        (Some(tys), Some(t)) => tys.push(t),
        _ => *entry = None,
    }
}

fn assignments(
    b: &[Stmt],
    params: &[Param],
    names: BuiltinName,
    seen: &mut Seen,
    globals: &mut Seen,
) {
    for s in b {
        let mut give = |v: Var, ty: Option<Ty>| match v {
            Var::Global(_) => note(globals, v, ty),
            Var::Local(_) => note(seen, v, ty),
        };
        match &s.kind {
            StmtKind::Assign {
                target,
                op,
                value,
                ty,
            } if target.path.is_empty() => {
                let t = match (ty, op) {
                    (Some(a), _) => a.ty.clone(),
                    (None, None) => expr_type_with(value, params, names),
                    // `A += 1` keeps an array an array, and a scalar a scalar.
                    (None, Some(_)) => continue,
                };
                give(target.var, Some(t));
            }
            StmtKind::Declare { var, ty } => give(*var, Some(ty.ty.clone())),
            StmtKind::MultiAssign { targets, .. } => {
                for t in targets.iter().filter(|t| t.path.is_empty()) {
                    give(t.var, None);
                }
            }
            StmtKind::ForRange { var, .. } | StmtKind::ForEach { var, .. } => give(*var, None),
            _ => {}
        }
        for inner in visit::blocks(s) {
            assignments(inner, params, names, seen, globals);
        }
    }
}

/// The error: the call as MATLAB wrote it and as Quasar writes it.
fn message(name: &str, args: &[Expr]) -> String {
    let shifted: Option<Vec<String>> = args
        .iter()
        .map(|a| match a.kind {
            ExprKind::Int(k) if k >= 1 => Some(((k - 1).to_string(), k.to_string())),
            ExprKind::Colon => Some((":".into(), ":".into())),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .map(|pairs| {
            let (q, m): (Vec<String>, Vec<String>) = pairs.into_iter().unzip();
            vec![q.join(", "), m.join(", ")]
        });
    match shifted {
        Some(qm) if !args.is_empty() => format!(
            "`{name}` is an array, not a function: Quasar indexes with brackets, and indices start at 0: write `{name}[{}]` for MATLAB's `{name}({})`",
            qm[0], qm[1]
        ),
        _ => format!(
            "`{name}` is an array, not a function: Quasar indexes with brackets, `{name}[i, j]`, not MATLAB's parentheses `{name}(i, j)`, and indices start at 0"
        ),
    }
}

#[cfg(test)]
mod tests {
    use blazar_diagnostics::FileId;

    const BUILTINS: &[&str] = &["eye", "zeros", "sqrt", "numel"];

    /// The messages `check_program` gives for `src`.
    fn errors(src: &str) -> Vec<String> {
        let (ast, d) = blazar_syntax::parse(src, FileId(0));
        assert!(d.is_empty(), "{d:?}");
        let lookup = |n: &str| BUILTINS.iter().position(|b| *b == n).map(|i| i as u32);
        let (p, d) = crate::lower_program(&ast, &lookup);
        assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
        let arity = |id: u32| (BUILTINS[id as usize].to_string(), 0, usize::MAX);
        crate::check_program(&p, &arity)
            .into_iter()
            .map(|d| d.message)
            .collect()
    }

    #[test]
    fn certain_arrays_are_reported_with_the_bracket_spelling() {
        let e = errors("A = eye(3)\nprint A(1, 2)\n");
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(
            e[0].contains("write `A[0, 1]` for MATLAB's `A(1, 2)`"),
            "{e:?}"
        );
        // A literal, a declared type, a colon, and indices that are not literals.
        let e = errors("v = [1, 2, 3]\nprint v(2)\n");
        assert!(e[0].contains("`v[1]` for MATLAB's `v(2)`"), "{e:?}");
        let e = errors("function y = f(m : mat, i : int)\n    y = m(:, 1) + m(i, 1)\nend\n");
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].contains("`m[:, 0]` for MATLAB's `m(:, 1)`"), "{e:?}");
        assert!(
            e[1].contains("`m[i, j]`, not MATLAB's parentheses"),
            "{e:?}"
        );
        // Through a builtin of an array.
        let e = errors("y = sqrt(zeros(2, 2))\nprint y(1, 1)\n");
        assert!(e[0].contains("`y` is an array"), "{e:?}");
    }

    #[test]
    fn names_that_may_be_functions_are_left_to_the_run() {
        // An untyped parameter, a value that is a function in one branch, a loop
        // variable, a variable never assigned here: nothing is reported.
        assert!(errors("function y = f(A)\n    y = A(1, 1)\nend\n").is_empty());
        let src =
            "c = 1\nif c > 0\n    g = eye(2)\nelse\n    g = (i, j) -> i + j\nend\nprint g(1, 1)\n";
        assert!(errors(src).is_empty());
        let src = "for k = 0..2\n    print k\nend\nh = (t) -> t\nprint h(1)\n";
        assert!(errors(src).is_empty());
        let src = "n = numel([1, 2])\nprint n\n";
        assert!(errors(src).is_empty());
    }
}
