//! Applying `reduction` rules (seed 002): a HIR → HIR pass, run before the loop
//! parallelizer, that replaces every statement or expression matching a rule's pattern
//! by the rule's replacement, with the matched parts put in for its parameters.
//!
//! A rule whose parameters are all untyped and that has no `where` condition applies
//! outright. Host code is dynamically typed, so a rule with typed parameters or a
//! condition becomes a [`hir::Rewritten`] statement that checks the types and the
//! condition when it runs, and runs the original when they do not hold; such a rule
//! applies only where what its typed parameters match is a pure expression (checking
//! evaluates it once more).

use crate::loop_body::same_expr;
use blazar_hir::{
    self as hir, Access, Callee, Expr, ExprKind, FnKind, Place, Program, RewriteRule, Stmt,
    StmtKind, Ty, Var,
};

/// Rewrites that may apply to one statement, one after another.
const MAX_ROUNDS: usize = 8;

/// Applies every rule of `prog` to its host functions; returns how many statements
/// were rewritten.
pub fn apply_rules(prog: &mut Program) -> usize {
    if prog.rules.is_empty() {
        return 0;
    }
    let rules = prog.rules.clone();
    let mut count = 0;
    for f in prog.functions.iter_mut() {
        if f.kind == FnKind::Host && f.name != "reduction" {
            block(&mut f.body, &rules, &mut count);
        }
    }
    count
}

fn block(stmts: &mut [Stmt], rules: &[RewriteRule], count: &mut usize) {
    for s in stmts.iter_mut() {
        // Inner statements first: a rewrite of `s` keeps them inside.
        for b in hir::visit::blocks_mut(s) {
            block(b, rules, count);
        }
        for _ in 0..MAX_ROUNDS {
            let Some(new) = rules.iter().find_map(|r| rewrite(s, r)) else {
                break;
            };
            *s = new;
            *count += 1;
            if matches!(s.kind, StmtKind::Rewritten(_)) {
                break;
            }
        }
    }
}

/// `s` rewritten by rule `r`, if its pattern matches `s` or an expression in it.
fn rewrite(s: &Stmt, r: &RewriteRule) -> Option<Stmt> {
    let n = r.params.len();
    let mut binds = vec![None; n];
    let replaced = match (&r.pattern.kind, &r.replacement.kind) {
        (StmtKind::Expr(pat), StmtKind::Expr(rep)) => {
            let mut out = s.clone();
            if !replace_in_stmt(&mut out, pat, rep, n, &mut binds) {
                return None;
            }
            out
        }
        (StmtKind::Expr(_), _) => return None,
        (pat, _) => {
            if !match_stmt(pat, &s.kind, n, &mut binds) {
                return None;
            }
            let mut out = r.replacement.clone();
            out.span = s.span;
            substitute_stmt(&mut out, &binds)?;
            out
        }
    };
    let typed: Vec<(usize, Ty)> = r
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.ty.as_ref().map(|a| (i, a.ty.clone())))
        .filter(|(_, t)| *t != Ty::Unknown)
        .collect();
    if typed.is_empty() && r.cond.is_none() {
        return Some(replaced);
    }
    // Checks run when the statement runs: only on pure values.
    let mut checks = Vec::new();
    for (i, t) in typed {
        let e = binds[i].clone()?;
        if !pure(&e) {
            return None;
        }
        checks.push((e, t));
    }
    let cond = match &r.cond {
        Some(c) => {
            if binds.iter().flatten().any(|b| !pure(b)) {
                return None;
            }
            let mut c = c.clone();
            substitute(&mut c, &binds);
            Some(c)
        }
        None => None,
    };
    Some(Stmt {
        span: s.span,
        kind: StmtKind::Rewritten(Box::new(hir::Rewritten {
            checks,
            cond,
            replaced,
            original: s.clone(),
        })),
    })
}

/// Variables, literals and operators on them.
fn pure(e: &Expr) -> bool {
    let mut ok = true;
    hir::visit::each_expr(e, &mut |x| {
        ok &= matches!(
            x.kind,
            ExprKind::Var(_)
                | ExprKind::Int(_)
                | ExprKind::Real(_)
                | ExprKind::Imag(_)
                | ExprKind::Unary(..)
                | ExprKind::Binary(..)
        )
    });
    ok
}

fn param(e: &Expr, n: usize) -> Option<usize> {
    match e.kind {
        ExprKind::Var(Var::Local(i)) if (i as usize) < n => Some(i as usize),
        _ => None,
    }
}

fn bind(i: usize, e: &Expr, binds: &mut [Option<Expr>]) -> bool {
    match &binds[i] {
        Some(b) => same_expr(b, e),
        None => {
            binds[i] = Some(e.clone());
            true
        }
    }
}

fn match_expr(p: &Expr, e: &Expr, n: usize, binds: &mut [Option<Expr>]) -> bool {
    if let Some(i) = param(p, n) {
        return bind(i, e, binds);
    }
    use ExprKind as K;
    let all = |ps: &[Expr], es: &[Expr], binds: &mut [Option<Expr>]| {
        ps.len() == es.len() && ps.iter().zip(es).all(|(p, e)| match_expr(p, e, n, binds))
    };
    match (&p.kind, &e.kind) {
        (K::Int(a), K::Int(b)) => a == b,
        (K::Real(a), K::Real(b)) => a == b,
        (K::Int(a), K::Real(b)) | (K::Real(b), K::Int(a)) => *a as f64 == *b,
        (K::Str(a), K::Str(b)) => a == b,
        (K::Unary(o, a), K::Unary(q, b)) => o == q && match_expr(a, b, n, binds),
        (K::Binary(o, a1, a2), K::Binary(q, b1, b2)) => {
            o == q && match_expr(a1, b1, n, binds) && match_expr(a2, b2, n, binds)
        }
        (
            K::Call {
                callee: Callee::Builtin(f),
                args: a,
            },
            K::Call {
                callee: Callee::Builtin(g),
                args: b,
            },
        ) => f == g && all(a, b, binds),
        (
            K::Call {
                callee: Callee::Group(f),
                args: a,
            },
            K::Call {
                callee: Callee::Group(g),
                args: b,
            },
        ) => f == g && all(a, b, binds),
        (K::Index { base: a, args: x }, K::Index { base: b, args: y }) => {
            match_expr(a, b, n, binds) && all(x, y, binds)
        }
        _ => false,
    }
}

fn match_place(p: &Place, t: &Place, n: usize, binds: &mut [Option<Expr>]) -> bool {
    let var_ok = match p.var {
        Var::Local(i) if (i as usize) < n => {
            let as_expr = Expr {
                kind: ExprKind::Var(t.var),
                span: t.span,
            };
            bind(i as usize, &as_expr, binds)
        }
        _ => false,
    };
    var_ok
        && p.path.len() == t.path.len()
        && p.path.iter().zip(&t.path).all(|(a, b)| match (a, b) {
            (Access::Index(x), Access::Index(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, e)| match_expr(p, e, n, binds))
            }
            (Access::Field(x), Access::Field(y)) => x == y,
            _ => false,
        })
}

fn match_stmt(p: &StmtKind, s: &StmtKind, n: usize, binds: &mut [Option<Expr>]) -> bool {
    match (p, s) {
        (
            StmtKind::Assign {
                target: pt,
                op: po,
                value: pv,
                ty: None,
            },
            StmtKind::Assign {
                target,
                op,
                value,
                ty: None,
            },
        ) => po == op && match_place(pt, target, n, binds) && match_expr(pv, value, n, binds),
        _ => false,
    }
}

/// Replaces the parameters of `e` by what they matched.
fn substitute(e: &mut Expr, binds: &[Option<Expr>]) {
    if let ExprKind::Var(Var::Local(i)) = e.kind {
        if let Some(Some(b)) = binds.get(i as usize) {
            *e = b.clone();
            return;
        }
    }
    let mut f = |v: Var| v;
    match &mut e.kind {
        ExprKind::Unary(_, a) => substitute(a, binds),
        ExprKind::Binary(_, a, b) => {
            substitute(a, binds);
            substitute(b, binds);
        }
        ExprKind::Ternary(a, b, c) => {
            substitute(a, binds);
            substitute(b, binds);
            substitute(c, binds);
        }
        ExprKind::Call { args, .. } | ExprKind::Matrix(args) | ExprKind::Cell(args) => {
            args.iter_mut().for_each(|a| substitute(a, binds))
        }
        ExprKind::Index { base, args } => {
            substitute(base, binds);
            args.iter_mut().for_each(|a| substitute(a, binds));
        }
        ExprKind::Field { base, .. } => substitute(base, binds),
        ExprKind::Range { start, step, end } => {
            substitute(start, binds);
            if let Some(s) = step {
                substitute(s, binds);
            }
            substitute(end, binds);
        }
        _ => hir::visit::rename_expr(e, &mut f),
    }
}

/// The replacement statement with its parameters put in; `None` when a parameter in
/// an assigned place matched something other than a variable.
fn substitute_stmt(s: &mut Stmt, binds: &[Option<Expr>]) -> Option<()> {
    let place = |p: &mut Place| -> Option<()> {
        if let Var::Local(i) = p.var {
            if let Some(Some(b)) = binds.get(i as usize) {
                let ExprKind::Var(v) = b.kind else {
                    return None;
                };
                p.var = v;
            }
        }
        for a in &mut p.path {
            if let Access::Index(args) = a {
                args.iter_mut().for_each(|e| substitute(e, binds));
            }
        }
        Some(())
    };
    match &mut s.kind {
        StmtKind::Expr(e) => substitute(e, binds),
        StmtKind::Assign { target, value, .. } => {
            substitute(value, binds);
            place(target)?;
        }
        _ => return None,
    }
    Some(())
}

/// Replaces the first expression of `s` that matches `pat` (outermost first) by `rep`.
fn replace_in_stmt(
    s: &mut Stmt,
    pat: &Expr,
    rep: &Expr,
    n: usize,
    binds: &mut Vec<Option<Expr>>,
) -> bool {
    let mut exprs: Vec<&mut Expr> = match &mut s.kind {
        StmtKind::Expr(e) => vec![e],
        StmtKind::Assign { value, .. } => vec![value],
        StmtKind::Print(args) => args.iter_mut().collect(),
        _ => vec![],
    };
    exprs
        .iter_mut()
        .any(|e| replace_in_expr(e, pat, rep, n, binds))
}

fn replace_in_expr(
    e: &mut Expr,
    pat: &Expr,
    rep: &Expr,
    n: usize,
    binds: &mut Vec<Option<Expr>>,
) -> bool {
    binds.iter_mut().for_each(|b| *b = None);
    if match_expr(pat, e, n, binds) {
        let mut new = rep.clone();
        new.span = e.span;
        substitute(&mut new, binds);
        *e = new;
        return true;
    }
    let kids: Vec<&mut Expr> = match &mut e.kind {
        ExprKind::Unary(_, a) => vec![a],
        ExprKind::Binary(_, a, b) => vec![a, b],
        ExprKind::Ternary(a, b, c) => vec![a, b, c],
        ExprKind::Call { args, .. } | ExprKind::Matrix(args) => args.iter_mut().collect(),
        ExprKind::Index { args, .. } => args.iter_mut().collect(),
        _ => vec![],
    };
    for k in kids {
        if replace_in_expr(k, pat, rep, n, binds) {
            return true;
        }
    }
    false
}
