//! Static checks on resolved programs: call arities, direct kernel calls, I/O in kernel
//! and device code, and declared types that a value can never have.
//!
//! These run after lowering, over the whole HIR, so `blazar check` reports such mistakes
//! without running the program.

use crate::hir::{Callee, Expr, ExprKind, FnKind, Program, Stmt, StmtKind};
use crate::infer::expr_type;
use crate::types::Ty;
use blazar_diagnostics::{Diagnostic, Span};

/// Argument-count bounds of a builtin (`usize::MAX` for variadic).
pub type BuiltinArity<'a> = &'a dyn Fn(u32) -> (String, usize, usize);

/// Checks every function of `p`.
pub fn check_program(p: &Program, builtin_arity: BuiltinArity) -> Vec<Diagnostic> {
    let mut c = Checker {
        p,
        arity: builtin_arity,
        diags: Vec::new(),
        kind: FnKind::Host,
        loops: Vec::new(),
    };
    for f in &p.functions {
        c.kind = f.kind;
        for par in f.params.iter().chain(&f.outputs) {
            if let Some(d) = &par.default {
                c.expr(d);
            }
        }
        c.block(&f.body);
        if let Some(r) = &f.result {
            c.expr(r);
        }
    }
    crate::check_run::check(p, &mut c.diags);
    let names = |id: u32| Some(builtin_arity(id).0);
    crate::check_paren_index::check(p, &names, &mut c.diags);
    c.diags
}

struct Checker<'a> {
    p: &'a Program,
    arity: BuiltinArity<'a>,
    diags: Vec<Diagnostic>,
    kind: FnKind,
    /// For each enclosing loop, whether an attribute made it parallel.
    loops: Vec<bool>,
}

/// Whether an attribute or pragma makes the next loop parallel.
fn makes_parallel(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Attribute { name, args, .. } => {
            (name == "parallel" && args.trim_start().starts_with("for"))
                || name == "force_parallel"
                || (name == "pragma" && args.contains("force_parallel"))
        }
        _ => false,
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Checker<'_> {
    fn error(&mut self, span: Span, msg: String) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn block(&mut self, b: &[Stmt]) {
        let mut parallel = false;
        for s in b {
            if makes_parallel(s) {
                parallel = true;
                continue;
            }
            let is_loop = matches!(
                s.kind,
                StmtKind::ForRange { .. }
                    | StmtKind::ForEach { .. }
                    | StmtKind::While { .. }
                    | StmtKind::Repeat { .. }
            );
            if is_loop {
                self.loops.push(parallel);
                self.stmt(s);
                self.loops.pop();
            } else {
                self.stmt(s);
            }
            if !matches!(s.kind, StmtKind::Attribute { .. }) {
                parallel = false;
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Assign {
                target, value, ty, ..
            } => {
                for acc in &target.path {
                    if let crate::hir::Access::Index(args) = acc {
                        args.iter().for_each(|a| self.expr(a));
                    }
                }
                self.expr(value);
                if let Some(t) = ty {
                    let have = expr_type(value, &[]);
                    if !convertible(&have, &t.ty) {
                        self.error(value.span, format!("a value of type {have} cannot be assigned to a variable of type {}", t.ty));
                    }
                }
            }
            StmtKind::MultiAssign { value, .. } => self.expr(value),
            StmtKind::If { arms, otherwise } => {
                for (c, b) in arms {
                    self.expr(c);
                    self.block(b);
                }
                self.block(otherwise);
            }
            StmtKind::ForRange {
                start,
                step,
                end,
                body,
                ..
            } => {
                self.expr(start);
                if let Some(s) = step {
                    self.expr(s);
                }
                self.expr(end);
                self.block(body);
            }
            StmtKind::ForEach { iter, body, .. } => {
                self.expr(iter);
                self.block(body);
            }
            StmtKind::While { cond, body } | StmtKind::Repeat { body, cond } => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::Match { scrutinee, arms } => {
                self.expr(scrutinee);
                for (p, b) in arms {
                    if let Some(p) = p {
                        self.expr(p);
                    }
                    self.block(b);
                }
            }
            StmtKind::Print(args) => {
                if self.kind != FnKind::Host {
                    self.error(s.span, "kernel and device functions cannot print".into());
                }
                args.iter().for_each(|a| self.expr(a));
            }
            StmtKind::Break(n) => {
                let target = self.loops.len().checked_sub(1 + *n as usize);
                if target.is_some_and(|t| self.loops[t]) {
                    self.error(
                        s.span,
                        "cannot break out of a parallel loop: its iterations run in no fixed order"
                            .into(),
                    );
                }
            }
            StmtKind::Declare { .. }
            | StmtKind::Continue(_)
            | StmtKind::Return
            | StmtKind::Parallel(_)
            | StmtKind::Serial(_)
            | StmtKind::Rewritten(_)
            | StmtKind::Attribute { .. } => {}
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Call { callee, args } => {
                self.call(callee, args.len(), e.span);
                if let Callee::Value(f) = callee {
                    self.expr(f);
                }
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Range { start, step, end } => {
                self.expr(start);
                if let Some(s) = step {
                    self.expr(s);
                }
                self.expr(end);
            }
            ExprKind::Ternary(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Index { base, args } => {
                self.expr(base);
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::Field { base, .. } | ExprKind::Convert(base, _) => self.expr(base),
            ExprKind::Matrix(items) | ExprKind::Cell(items) => {
                items.iter().for_each(|a| self.expr(a))
            }
            _ => {}
        }
    }

    fn call(&mut self, callee: &Callee, n: usize, span: Span) {
        let single = match callee {
            Callee::Group(g) => {
                let members = &self.p.groups[*g as usize].members;
                (members.len() == 1).then(|| members[0])
            }
            Callee::Nested { func, .. } | Callee::SelfCall(func) => Some(*func),
            Callee::Builtin(b) => {
                let (name, lo, hi) = (self.arity)(*b);
                if n < lo || n > hi {
                    let want = if lo == hi {
                        format!("{lo} argument{}", plural(lo))
                    } else if hi == usize::MAX {
                        format!("at least {lo} argument{}", plural(lo))
                    } else {
                        format!("{lo} to {hi} arguments")
                    };
                    self.error(span, format!("`{name}` takes {want}, got {n}"));
                }
                None
            }
            _ => None,
        };
        let Some(id) = single else { return };
        let f = &self.p.functions[id as usize];
        if f.kind == FnKind::Kernel {
            self.error(
                span,
                format!(
                    "kernel function `{}` cannot be called directly; launch it with parallel_do",
                    f.name
                ),
            );
            return;
        }
        let required = f.params.iter().filter(|p| p.default.is_none()).count();
        if n < required || n > f.params.len() {
            let want = if required == f.params.len() {
                format!("{required} argument{}", plural(required))
            } else {
                format!("{required} to {} arguments", f.params.len())
            };
            self.error(span, format!("`{}` takes {want}, got {n}", f.name));
        }
    }
}

/// Whether a value of static type `have` can be stored in a variable declared `want`
/// (with the conversions that declarations make: int to scalar, scalar to complex).
fn convertible(have: &Ty, want: &Ty) -> bool {
    if have.conforms_to(want) {
        return true;
    }
    matches!(
        (have, want),
        (Ty::Int(_), Ty::Scalar | Ty::CScalar | Ty::Int(_))
            | (Ty::Scalar, Ty::CScalar | Ty::Int(_))
    )
}
