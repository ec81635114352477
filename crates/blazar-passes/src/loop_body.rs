//! What a host loop body contains, for the loop parallelizer: whether kernel code can
//! express it at all, and where each variable is read and written.

use crate::kernel_form::{self, Form, Refusal};
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, Access, BinOp, Callee, Expr, ExprKind, FnKind, Stmt, StmtKind, Var};
use std::collections::HashMap;

/// Checks that every statement and expression of `body` has a kernel form. `depth` is
/// the number of loops of the body around the statements (for `break`/`continue`).
pub fn eligible(
    body: &[Stmt],
    depth: u32,
    builtin_name: &dyn Fn(u32) -> &'static str,
    prog: &hir::Program,
) -> Result<(), Refusal> {
    kernel_form::walk(body, depth, &Parallel { builtin_name, prog })
}

/// The loop parallelizer's rules: no call for its effect, no jump out of the body, and
/// calls of builtins with a kernel form or of `__device__` functions only.
struct Parallel<'a> {
    builtin_name: &'a dyn Fn(u32) -> &'static str,
    prog: &'a hir::Program,
}

impl Form for Parallel<'_> {
    fn stmt(&self, s: &Stmt, depth: u32) -> Result<(), Refusal> {
        let no = |m: &str| Err((s.span, m.to_string()));
        match &s.kind {
            StmtKind::Expr(_) => no("an expression statement (a call for its effect)"),
            StmtKind::MultiAssign { .. } => no("a multiple assignment"),
            StmtKind::Break(n) | StmtKind::Continue(n) if *n >= depth => {
                no("`break` or `continue` leaves the loop")
            }
            StmtKind::Return => no("`return` leaves the function from inside the loop"),
            StmtKind::Parallel(_) => no("a loop already parallel"),
            _ => Ok(()),
        }
    }

    fn expr(&self, e: &Expr) -> Result<(), Refusal> {
        let no = |m: String| Err((e.span, m));
        let ExprKind::Call { callee, args } = &e.kind else {
            return Ok(());
        };
        let prog = self.prog;
        match callee {
            Callee::Builtin(id) => {
                let name = (self.builtin_name)(*id);
                if crate::builtins::classify(name, args.len()).is_none() {
                    return no(format!("it calls `{name}`, which runs only on the host"));
                }
            }
            Callee::Group(g) => {
                let group = &prog.groups[*g as usize];
                let device = group
                    .members
                    .iter()
                    .all(|f| prog.functions[*f as usize].kind == FnKind::Device);
                if !device {
                    return no(format!(
                        "it calls the host function `{}` (a `__device__` function could run in a kernel)",
                        group.name
                    ));
                }
                // Writes through a device function's array arguments are not seen by the
                // dependence analysis.
                let writes = group.members.iter().any(|f| {
                    let f = &prog.functions[*f as usize];
                    writes_params(&f.body, &f.params)
                });
                if writes {
                    return no(format!(
                        "it calls `{}`, which writes into its array arguments",
                        group.name
                    ));
                }
                // Kernel code has one access mode per array: a mode written on a device
                // function's parameter would not apply there as it does on the host.
                let modes = group.members.iter().any(|f| {
                    prog.functions[*f as usize]
                        .params
                        .iter()
                        .any(|p| p.ty.as_ref().is_some_and(|a| a.mode.is_some()))
                });
                if modes {
                    return no(format!(
                        "it calls `{}`, whose parameters declare access modes",
                        group.name
                    ));
                }
            }
            _ => return no("it calls a function value or an intrinsic".into()),
        }
        Ok(())
    }
}

/// Whether `body` assigns an element of one of `params` (anywhere in it).
fn writes_params(body: &[Stmt], params: &[hir::Param]) -> bool {
    body.iter().any(|s| {
        let own = matches!(&s.kind, StmtKind::Assign { target, .. }
            if !target.path.is_empty()
                && params.iter().any(|p| target.var == Var::Local(p.slot)));
        own || hir::visit::blocks(s)
            .iter()
            .any(|b| writes_params(b, params))
    })
}

/// One element write `A[index] op= value`.
pub struct ElemWrite<'a> {
    pub index: &'a [Expr],
    pub op: Option<BinOp>,
    pub span: Span,
}

/// Where the variables of a body are read and written.
#[derive(Default)]
pub struct Uses<'a> {
    /// Every variable mentioned, in order of first mention.
    pub order: Vec<Var>,
    /// Assignments of the whole variable (including inner loop variables), by span.
    pub whole_writes: HashMap<Var, Vec<Span>>,
    /// The assignment statements of the whole variable (inner loop headers excluded).
    pub whole_stmts: HashMap<Var, Vec<&'a Stmt>>,
    pub elem_writes: HashMap<Var, Vec<ElemWrite<'a>>>,
    /// Index lists of element reads `A[...]`.
    pub elem_reads: HashMap<Var, Vec<&'a [Expr]>>,
    /// Reads of the whole value (not as the array of an index, nor for its size).
    pub plain_reads: HashMap<Var, usize>,
}

impl<'a> Uses<'a> {
    pub fn collect(body: &'a [Stmt], builtin_name: &dyn Fn(u32) -> &'static str) -> Uses<'a> {
        let mut u = Uses::default();
        u.stmts(body, builtin_name);
        u
    }

    fn mention(&mut self, v: Var) {
        if !self.order.contains(&v) {
            self.order.push(v);
        }
    }

    fn stmts(&mut self, body: &'a [Stmt], bn: &dyn Fn(u32) -> &'static str) {
        for s in body {
            for e in hir::visit::own_exprs(s) {
                self.expr(e, bn);
            }
            match &s.kind {
                StmtKind::Assign { target, op, .. } => {
                    self.mention(target.var);
                    match target.path.first() {
                        None => {
                            self.whole_writes
                                .entry(target.var)
                                .or_default()
                                .push(s.span);
                            self.whole_stmts.entry(target.var).or_default().push(s);
                        }
                        Some(Access::Index(index)) => self
                            .elem_writes
                            .entry(target.var)
                            .or_default()
                            .push(ElemWrite {
                                index,
                                op: *op,
                                span: s.span,
                            }),
                        Some(Access::Field(_)) => {}
                    }
                }
                StmtKind::ForRange { var, .. } => {
                    self.mention(*var);
                    self.whole_writes.entry(*var).or_default().push(s.span);
                    // A loop header is not an accumulation.
                    self.whole_stmts.entry(*var).or_default().push(s);
                }
                _ => {}
            }
            for b in hir::visit::blocks(s) {
                self.stmts(b, bn);
            }
        }
    }

    fn expr(&mut self, e: &'a Expr, bn: &dyn Fn(u32) -> &'static str) {
        match &e.kind {
            ExprKind::Var(v) => {
                self.mention(*v);
                *self.plain_reads.entry(*v).or_default() += 1;
            }
            ExprKind::Index { base, args } => {
                if let ExprKind::Var(v) = base.kind {
                    self.mention(v);
                    self.elem_reads.entry(v).or_default().push(args);
                } else {
                    self.expr(base, bn);
                }
                for a in args {
                    self.expr(a, bn);
                }
            }
            ExprKind::Call {
                callee: Callee::Builtin(id),
                args,
            } if matches!(bn(*id), "size" | "numel")
                && args
                    .first()
                    .is_some_and(|a| matches!(a.kind, ExprKind::Var(_))) =>
            {
                // The shape of an array: not a read of its elements.
                if let ExprKind::Var(v) = args[0].kind {
                    self.mention(v);
                }
                for a in &args[1..] {
                    self.expr(a, bn);
                }
            }
            _ => {
                for c in hir::visit::children(e) {
                    self.expr(c, bn);
                }
            }
        }
    }
}

/// Whether `e` mentions one of `vars`.
pub fn names_any(e: &Expr, vars: &[Var]) -> bool {
    let mut hit = false;
    hir::visit::each_expr(e, &mut |x| {
        if let ExprKind::Var(v) = x.kind {
            hit |= vars.contains(&v);
        }
    });
    hit
}

/// Structural equality of two expressions (spans ignored); conservative: `false` for
/// kinds index expressions do not use.
pub fn same_expr(a: &Expr, b: &Expr) -> bool {
    use ExprKind as K;
    match (&a.kind, &b.kind) {
        (K::Int(x), K::Int(y)) => x == y,
        (K::Real(x), K::Real(y)) => x == y,
        (K::Var(x), K::Var(y)) => x == y,
        (K::Unary(o, x), K::Unary(p, y)) => o == p && same_expr(x, y),
        (K::Binary(o, x1, x2), K::Binary(p, y1, y2)) => {
            o == p && same_expr(x1, y1) && same_expr(x2, y2)
        }
        (
            K::Call {
                callee: Callee::Builtin(f),
                args: xs,
            },
            K::Call {
                callee: Callee::Builtin(g),
                args: ys,
            },
        ) => f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_expr(x, y)),
        (K::Index { base: b1, args: xs }, K::Index { base: b2, args: ys }) => {
            same_expr(b1, b2)
                && xs.len() == ys.len()
                && xs.iter().zip(ys).all(|(x, y)| same_expr(x, y))
        }
        _ => false,
    }
}
