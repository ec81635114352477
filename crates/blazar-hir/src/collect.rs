//! Pre-passes over a function body: the names it assigns and the functions it nests.
//!
//! Quasar scopes variables by function, so a name assigned anywhere in a body is a
//! local of that function, even where it is read before its assignment.

use blazar_syntax::{Expr, ExprKind, Function, Stmt, StmtKind};
use std::collections::HashSet;

/// Names in order of first appearance, each once (a set beside the list keeps
/// collection linear in the number of names).
#[derive(Default)]
struct Names {
    order: Vec<String>,
    seen: HashSet<String>,
}

impl Names {
    fn push(&mut self, name: &str) {
        if !self.seen.contains(name) {
            self.seen.insert(name.to_string());
            self.order.push(name.to_string());
        }
    }
}

/// The names a body assigns (not looking into nested functions or lambdas), in order
/// of first appearance: `plain` as a whole (`x = v`, declarations, loop variables),
/// `indexed` only through an index or field (`y[i] = v`).
#[derive(Default)]
struct Assigned {
    plain: Names,
    indexed: Names,
}

impl Assigned {
    fn walk(&mut self, body: &[Stmt]) {
        for s in body {
            match &s.kind {
                StmtKind::Assign { targets, .. } => {
                    for t in targets {
                        match (&t.kind, root_name(t)) {
                            (ExprKind::Ident(n), _) => self.plain.push(n),
                            (_, Some(n)) => self.indexed.push(n),
                            _ => {}
                        }
                    }
                }
                StmtKind::Decl { name, .. } => self.plain.push(&name.name),
                StmtKind::If { arms, otherwise } => {
                    for (_, b) in arms {
                        self.walk(b);
                    }
                    if let Some(b) = otherwise {
                        self.walk(b);
                    }
                }
                StmtKind::For { var, body, .. } => {
                    self.plain.push(&var.name);
                    self.walk(body);
                }
                StmtKind::While { body, .. } | StmtKind::Repeat { body, .. } => self.walk(body),
                StmtKind::Match { arms, .. } => {
                    for a in arms {
                        self.walk(&a.body);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Names assigned in `body` in any way, in order of first appearance.
pub fn assigned_names(body: &[Stmt], out: &mut Vec<String>) {
    let mut a = Assigned::default();
    a.walk(body);
    let mut seen: HashSet<&str> = out.iter().map(String::as_str).collect();
    let mut new = Vec::new();
    for n in a.plain.order.iter().chain(&a.indexed.order) {
        if seen.insert(n) {
            new.push(n.clone());
        }
    }
    out.extend(new);
}

/// The names that `body` only ever assigns through an index or a field (`y[i] = v`),
/// never as a whole: in a nested function or lambda these update the enclosing
/// variable when there is one, rather than making a new local.
pub fn indexed_only_names(body: &[Stmt]) -> HashSet<String> {
    let mut a = Assigned::default();
    a.walk(body);
    let Assigned { plain, indexed } = a;
    indexed
        .seen
        .into_iter()
        .filter(|n| !plain.seen.contains(n))
        .collect()
}

/// The variable at the root of an assignment target (`x` in `x[i].f = v`).
pub fn root_name(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index { base, .. } | ExprKind::Field { base, .. } => root_name(base),
        _ => None,
    }
}

/// Function definitions directly inside `body` (inside its blocks, not inside other
/// functions).
pub fn nested_functions(body: &[Stmt]) -> Vec<&Function> {
    let mut out = Vec::new();
    fn walk<'a>(body: &'a [Stmt], out: &mut Vec<&'a Function>) {
        for s in body {
            match &s.kind {
                StmtKind::Function(f) => out.push(f),
                StmtKind::If { arms, otherwise } => {
                    for (_, b) in arms {
                        walk(b, out);
                    }
                    if let Some(b) = otherwise {
                        walk(b, out);
                    }
                }
                StmtKind::For { body, .. }
                | StmtKind::While { body, .. }
                | StmtKind::Repeat { body, .. } => walk(body, out),
                StmtKind::Match { arms, .. } => {
                    for a in arms {
                        walk(&a.body, out);
                    }
                }
                _ => {}
            }
        }
    }
    walk(body, &mut out);
    out
}
