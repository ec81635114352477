//! Walkers over HIR statements and expressions: visiting every expression, and
//! renaming every variable (used by the loop parallelizer to move a loop body into a
//! kernel of its own).

use crate::hir::{Access, Callee, Expr, ExprKind, Place, Stmt, StmtKind, Var};

/// The direct sub-expressions of `e`, in evaluation order.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Unary(_, a) => vec![a],
        ExprKind::Binary(_, a, b) => vec![a, b],
        ExprKind::Range { start, step, end } => {
            let mut v: Vec<&Expr> = vec![start];
            v.extend(step.as_deref());
            v.push(end);
            v
        }
        ExprKind::Ternary(a, b, c) => vec![a, b, c],
        ExprKind::Call { callee, args } => {
            let mut v: Vec<&Expr> = match callee {
                Callee::Value(f) => vec![f],
                _ => vec![],
            };
            v.extend(args.iter());
            v
        }
        ExprKind::Index { base, args } => {
            let mut v: Vec<&Expr> = vec![base];
            v.extend(args.iter());
            v
        }
        ExprKind::Field { base, .. } | ExprKind::Convert(base, _) => vec![base],
        ExprKind::Matrix(items) | ExprKind::Cell(items) => items.iter().collect(),
        ExprKind::FuncValue(Callee::Value(f)) => vec![f],
        _ => vec![],
    }
}

/// Calls `f` on `e` and on every expression inside it, parents first.
pub fn each_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    for c in children(e) {
        each_expr(c, f);
    }
}

/// The expressions a statement evaluates itself (not those of nested blocks), in order:
/// for an assignment the value first, then the index expressions of the target.
pub fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    fn place<'a>(p: &'a Place, out: &mut Vec<&'a Expr>) {
        for a in &p.path {
            if let Access::Index(args) = a {
                out.extend(args.iter());
            }
        }
    }
    let mut out: Vec<&Expr> = Vec::new();
    match &s.kind {
        StmtKind::Expr(e) => out.push(e),
        StmtKind::Assign { target, value, .. } => {
            out.push(value);
            place(target, &mut out);
        }
        StmtKind::MultiAssign { targets, value } => {
            out.push(value);
            for t in targets {
                place(t, &mut out);
            }
        }
        StmtKind::If { arms, .. } => out.extend(arms.iter().map(|(c, _)| c)),
        StmtKind::ForRange {
            start, step, end, ..
        } => {
            out.push(start);
            out.extend(step.as_ref());
            out.push(end);
        }
        StmtKind::ForEach { iter, .. } => out.push(iter),
        StmtKind::While { cond, .. } | StmtKind::Repeat { cond, .. } => out.push(cond),
        StmtKind::Match { scrutinee, arms } => {
            out.push(scrutinee);
            out.extend(arms.iter().filter_map(|(p, _)| p.as_ref()));
        }
        StmtKind::Print(args) => out.extend(args.iter()),
        StmtKind::Declare { .. }
        | StmtKind::Break(_)
        | StmtKind::Continue(_)
        | StmtKind::Return
        | StmtKind::Parallel(_)
        | StmtKind::Serial(_)
        | StmtKind::Rewritten(_)
        | StmtKind::Attribute { .. } => {}
    }
    out
}

/// The blocks nested directly in a statement.
pub fn blocks(s: &Stmt) -> Vec<&[Stmt]> {
    match &s.kind {
        StmtKind::If { arms, otherwise } => {
            let mut v: Vec<&[Stmt]> = arms.iter().map(|(_, b)| b.as_slice()).collect();
            v.push(otherwise);
            v
        }
        StmtKind::ForRange { body, .. }
        | StmtKind::ForEach { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Repeat { body, .. } => vec![body],
        StmtKind::Match { arms, .. } => arms.iter().map(|(_, b)| b.as_slice()).collect(),
        StmtKind::Parallel(p) => vec![std::slice::from_ref(&*p.serial)],
        StmtKind::Serial(p) => vec![std::slice::from_ref(&*p.serial)],
        StmtKind::Rewritten(r) => vec![
            std::slice::from_ref(&r.replaced),
            std::slice::from_ref(&r.original),
        ],
        _ => vec![],
    }
}

/// The blocks nested directly in a statement, to change them.
pub fn blocks_mut(s: &mut Stmt) -> Vec<&mut [Stmt]> {
    match &mut s.kind {
        StmtKind::If { arms, otherwise } => {
            let mut v: Vec<&mut [Stmt]> = arms.iter_mut().map(|(_, b)| b.as_mut_slice()).collect();
            v.push(otherwise);
            v
        }
        StmtKind::ForRange { body, .. }
        | StmtKind::ForEach { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Repeat { body, .. } => vec![body],
        StmtKind::Match { arms, .. } => arms.iter_mut().map(|(_, b)| b.as_mut_slice()).collect(),
        StmtKind::Parallel(p) => vec![std::slice::from_mut(&mut *p.serial)],
        StmtKind::Serial(p) => vec![std::slice::from_mut(&mut *p.serial)],
        StmtKind::Rewritten(r) => {
            let r = &mut **r;
            vec![
                std::slice::from_mut(&mut r.replaced),
                std::slice::from_mut(&mut r.original),
            ]
        }
        _ => vec![],
    }
}

/// Calls `f` on every statement of `stmts` and of their nested blocks, each statement
/// before the blocks inside it.
pub fn each_stmt_mut(stmts: &mut [Stmt], f: &mut dyn FnMut(&mut Stmt)) {
    for s in stmts {
        f(s);
        for b in blocks_mut(s) {
            each_stmt_mut(b, f);
        }
    }
}

/// Calls `f` on every expression of `stmts` and of their nested blocks.
pub fn each_expr_in<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Expr)) {
    for s in stmts {
        for e in own_exprs(s) {
            each_expr(e, f);
        }
        for b in blocks(s) {
            each_expr_in(b, f);
        }
    }
}

/// Renames every variable of a statement list through `f`.
pub fn rename_stmts(stmts: &mut [Stmt], f: &mut dyn FnMut(Var) -> Var) {
    for s in stmts {
        rename_stmt(s, f);
    }
}

fn rename_place(p: &mut Place, f: &mut dyn FnMut(Var) -> Var) {
    p.var = f(p.var);
    for a in &mut p.path {
        if let Access::Index(args) = a {
            for e in args {
                rename_expr(e, f);
            }
        }
    }
}

pub fn rename_stmt(s: &mut Stmt, f: &mut dyn FnMut(Var) -> Var) {
    match &mut s.kind {
        StmtKind::Expr(e) => rename_expr(e, f),
        StmtKind::Assign { target, value, .. } => {
            rename_expr(value, f);
            rename_place(target, f);
        }
        StmtKind::MultiAssign { targets, value } => {
            rename_expr(value, f);
            for t in targets {
                rename_place(t, f);
            }
        }
        StmtKind::Declare { var, .. } => *var = f(*var),
        StmtKind::If { arms, otherwise } => {
            for (c, b) in arms {
                rename_expr(c, f);
                rename_stmts(b, f);
            }
            rename_stmts(otherwise, f);
        }
        StmtKind::ForRange {
            var,
            start,
            step,
            end,
            body,
        } => {
            *var = f(*var);
            rename_expr(start, f);
            if let Some(st) = step {
                rename_expr(st, f);
            }
            rename_expr(end, f);
            rename_stmts(body, f);
        }
        StmtKind::ForEach { var, iter, body } => {
            *var = f(*var);
            rename_expr(iter, f);
            rename_stmts(body, f);
        }
        StmtKind::While { cond, body } | StmtKind::Repeat { body, cond } => {
            rename_expr(cond, f);
            rename_stmts(body, f);
        }
        StmtKind::Match { scrutinee, arms } => {
            rename_expr(scrutinee, f);
            for (p, b) in arms {
                if let Some(p) = p {
                    rename_expr(p, f);
                }
                rename_stmts(b, f);
            }
        }
        StmtKind::Print(args) => {
            for e in args {
                rename_expr(e, f);
            }
        }
        StmtKind::Rewritten(r) => {
            for (e, _) in &mut r.checks {
                rename_expr(e, f);
            }
            if let Some(c) = &mut r.cond {
                rename_expr(c, f);
            }
            rename_stmt(&mut r.replaced, f);
            rename_stmt(&mut r.original, f);
        }
        StmtKind::Parallel(_)
        | StmtKind::Serial(_)
        | StmtKind::Break(_)
        | StmtKind::Continue(_)
        | StmtKind::Return
        | StmtKind::Attribute { .. } => {}
    }
}

fn rename_callee(c: &mut Callee, f: &mut dyn FnMut(Var) -> Var) {
    match c {
        Callee::Nested { captures, .. } => {
            for v in captures {
                *v = f(*v);
            }
        }
        Callee::Value(e) => rename_expr(e, f),
        _ => {}
    }
}

pub fn rename_expr(e: &mut Expr, f: &mut dyn FnMut(Var) -> Var) {
    match &mut e.kind {
        ExprKind::Var(v) => *v = f(*v),
        ExprKind::Closure { captures, .. } => {
            for v in captures {
                *v = f(*v);
            }
        }
        ExprKind::FuncValue(c) => rename_callee(c, f),
        ExprKind::Unary(_, a) => rename_expr(a, f),
        ExprKind::Binary(_, a, b) => {
            rename_expr(a, f);
            rename_expr(b, f);
        }
        ExprKind::Range { start, step, end } => {
            rename_expr(start, f);
            if let Some(s) = step {
                rename_expr(s, f);
            }
            rename_expr(end, f);
        }
        ExprKind::Ternary(a, b, c) => {
            rename_expr(a, f);
            rename_expr(b, f);
            rename_expr(c, f);
        }
        ExprKind::Call { callee, args } => {
            rename_callee(callee, f);
            for a in args {
                rename_expr(a, f);
            }
        }
        ExprKind::Index { base, args } => {
            rename_expr(base, f);
            for a in args {
                rename_expr(a, f);
            }
        }
        ExprKind::Field { base, .. } | ExprKind::Convert(base, _) => rename_expr(base, f),
        ExprKind::Matrix(items) | ExprKind::Cell(items) => {
            for a in items {
                rename_expr(a, f);
            }
        }
        _ => {}
    }
}
