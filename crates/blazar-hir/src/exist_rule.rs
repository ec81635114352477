//! `exist("name")` with the name written as a string literal: the parts of MATLAB's
//! answer only the compiler knows. A name that is a variable in scope becomes
//! `isdefined(var) ? 1 : exist("name")` (1 when the variable holds a value when the
//! call runs); a function of the program answers 2 and a language function (`type`,
//! `error`, `parallel_do`, ...) 5. Everything else (builtins, files, folders, names
//! computed when the program runs) is the run-time builtin's (blazar-runtime's
//! `builtins::exist`).

use crate::hir::{Callee, Expr, ExprKind, Intrinsic};
use crate::lower::Lowerer;
use blazar_diagnostics::Span;

impl Lowerer<'_> {
    /// Rewrites a lowered call `exist("name")` / `exist("name", kind)` when the name is
    /// one of the program's.
    pub(crate) fn exist_rule(&mut self, callee: &Callee, args: Vec<Expr>, span: Span) -> ExprKind {
        let keep = |args: Vec<Expr>| ExprKind::Call {
            callee: callee.clone(),
            args,
        };
        let is_exist = matches!(callee, Callee::Builtin(b) if (self.builtin)("exist") == Some(*b));
        if !is_exist || args.is_empty() || args.len() > 2 {
            return keep(args);
        }
        let ExprKind::Str(name) = &args[0].kind else {
            return keep(args);
        };
        let kind = match args.get(1).map(|a| &a.kind) {
            None => None,
            Some(ExprKind::Str(k)) => Some(k.clone()),
            Some(_) => return keep(args),
        };
        let name = name.clone();
        let int = |v: i64| ExprKind::Int(v);
        if let Some(var) = self.lookup_var(&name) {
            if !matches!(kind.as_deref(), None | Some("var")) {
                return keep(args);
            }
            let defined = Expr {
                kind: ExprKind::Call {
                    callee: Callee::Intrinsic(Intrinsic::IsDefined),
                    args: vec![Expr {
                        kind: ExprKind::Var(var),
                        span,
                    }],
                },
                span,
            };
            let one = Expr { kind: int(1), span };
            let rest = Expr {
                kind: keep(args),
                span,
            };
            return ExprKind::Ternary(Box::new(defined), Box::new(one), Box::new(rest));
        }
        if self.groups.contains_key(&name) && matches!(kind.as_deref(), None | Some("file")) {
            return int(2);
        }
        if Intrinsic::from_name(&name).is_some()
            && matches!(kind.as_deref(), None | Some("builtin"))
        {
            return int(5);
        }
        keep(args)
    }
}
