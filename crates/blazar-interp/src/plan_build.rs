//! Building plans (`plan.rs`) from the HIR: one walk over a body, its nested loop and
//! `if` bodies included.

use crate::interp::Interp;
use crate::num::Num;
use crate::plan::{Block, Cond, Step, StepKind, MAX_ARGS, MAX_NODES, X};
use blazar_diagnostics::Span;
use blazar_hir::{Access, BinOp, Callee, Expr, ExprKind, FnKind, Stmt, StmtKind, UnOp, Var};
use blazar_runtime::IntTy;

impl<'p> Interp<'p> {
    /// The plan of `body`; `at` is where an empty loop body counts its steps.
    pub(crate) fn build_block(&self, body: &'p [Stmt], at: Span) -> Block<'p> {
        Block {
            steps: body.iter().map(|s| self.build_step(s)).collect(),
            first: body.first().map_or(at, |s| s.span),
        }
    }

    fn build_step(&self, s: &'p Stmt) -> Step<'p> {
        let kind = match &s.kind {
            StmtKind::Assign {
                target,
                op,
                value,
                ty: None,
            } => match (target.path.as_slice(), self.build_x(value)) {
                ([], Some(x)) => StepKind::Set {
                    var: target.var,
                    op: *op,
                    x,
                    s,
                },
                ([Access::Index(args)], Some(x)) if (1..=4).contains(&args.len()) => match args
                    .iter()
                    .map(|a| self.build_x(a))
                    .collect::<Option<Box<_>>>()
                {
                    Some(idx) => StepKind::Store {
                        var: target.var,
                        idx,
                        op: *op,
                        x,
                        at: target.span,
                        vspan: value.span,
                        s,
                    },
                    None => StepKind::General(s),
                },
                ([], None) if op.is_none() => match append_of(target.var, value) {
                    Some(rest) => StepKind::Append {
                        var: target.var,
                        rest,
                        at: value.span,
                        s,
                    },
                    None => self.build_call(target.var, value, s),
                },
                _ => StepKind::General(s),
            },
            StmtKind::If { arms, otherwise } => StepKind::If {
                arms: arms
                    .iter()
                    .map(|(c, b)| (self.build_cond(c), self.build_block(b, s.span)))
                    .collect(),
                otherwise: self.build_block(otherwise, s.span),
            },
            StmtKind::ForRange {
                var,
                start,
                step,
                end,
                body,
            } => StepKind::For {
                var: *var,
                start,
                step: step.as_ref(),
                end,
                body: self.build_block(body, start.span.to(end.span)),
            },
            StmtKind::While { cond, body } => StepKind::While {
                cond: self.build_cond(cond),
                body: self.build_block(body, s.span),
            },
            StmtKind::Repeat { body, cond } => StepKind::Repeat {
                body: self.build_block(body, s.span),
                cond: self.build_cond(cond),
            },
            StmtKind::Break(n) => StepKind::Break(*n),
            StmtKind::Continue(n) => StepKind::Continue(*n),
            StmtKind::Return => StepKind::Return,
            StmtKind::Declare { .. } => StepKind::Nop,
            StmtKind::Attribute { name, .. } if name != "sched" => StepKind::Nop,
            _ => StepKind::General(s),
        };
        Step { span: s.span, kind }
    }

    /// `var = f(args)` as a [`StepKind::Call`] when it is one (see there).
    fn build_call(&self, var: Var, value: &'p Expr, s: &'p Stmt) -> StepKind<'p> {
        let ExprKind::Call {
            callee: Callee::Group(g),
            args,
        } = &value.kind
        else {
            return StepKind::General(s);
        };
        let prog = self.prog;
        let Some(&[func]) = prog.groups.get(*g as usize).map(|g| g.members.as_slice()) else {
            return StepKind::General(s);
        };
        let Some(f) = prog.functions.get(func as usize) else {
            return StepKind::General(s);
        };
        if f.kind == FnKind::Kernel
            || !f.capture_slots.is_empty()
            || f.result.is_some()
            || f.outputs.is_empty()
            || args.len() != f.params.len()
            || args.len() > MAX_ARGS
        {
            return StepKind::General(s);
        }
        match args
            .iter()
            .map(|a| self.build_x(a))
            .collect::<Option<Box<_>>>()
        {
            Some(args) => StepKind::Call {
                var,
                func,
                args,
                at: value.span,
                s,
            },
            None => StepKind::General(s),
        }
    }

    fn build_cond(&self, e: &'p Expr) -> Cond<'p> {
        Cond {
            x: self.build_x(e),
            e,
        }
    }

    /// The scalar form of `e`, when it is made of what [`Interp::num`] evaluates and
    /// has at most [`MAX_NODES`] nodes.
    pub(crate) fn build_x(&self, e: &'p Expr) -> Option<X<'p>> {
        let mut left = MAX_NODES;
        self.build_x_at(e, &mut left)
    }

    fn build_x_at(&self, e: &'p Expr, left: &mut usize) -> Option<X<'p>> {
        if *left == 0 {
            return None;
        }
        *left -= 1;
        Some(match &e.kind {
            ExprKind::Real(v) => X::Num(Num::Real(self.prec.round(*v))),
            ExprKind::Int(v) => X::Num(Num::Int(IntTy::I32.wrap(*v), IntTy::I32)),
            ExprKind::Var(Var::Local(s)) => X::Local(*s),
            ExprKind::Var(Var::Global(g)) => X::Global(*g),
            ExprKind::Binary(op, a, b) => {
                let ab = Box::new((self.build_x_at(a, left)?, self.build_x_at(b, left)?));
                match op {
                    BinOp::And | BinOp::Or => X::Logic {
                        and: *op == BinOp::And,
                        ab,
                        rhs: b,
                    },
                    op => X::Bin(*op, ab),
                }
            }
            ExprKind::Unary(UnOp::Neg, a) => X::Neg(Box::new(self.build_x_at(a, left)?)),
            ExprKind::Unary(UnOp::Not, a) => X::Not(Box::new(self.build_x_at(a, left)?)),
            ExprKind::Call {
                callee: Callee::Builtin(id),
                args,
            } if crate::num::elementwise(*id, args.len()) => X::Call {
                id: *id,
                args: args
                    .iter()
                    .map(|a| self.build_x_at(a, left))
                    .collect::<Option<_>>()?,
                e,
            },
            ExprKind::Index { base, args } if (1..=4).contains(&args.len()) => {
                let ExprKind::Var(var) = base.kind else {
                    return None;
                };
                X::Elem {
                    var,
                    idx: args
                        .iter()
                        .map(|a| self.build_x_at(a, left))
                        .collect::<Option<_>>()?,
                }
            }
            _ => return None,
        })
    }
}

/// The arguments after the first of `value` when it is `strcat(var, ...)`, the builtin.
fn append_of(var: Var, value: &Expr) -> Option<&[Expr]> {
    let ExprKind::Call {
        callee: Callee::Builtin(id),
        args,
    } = &value.kind
    else {
        return None;
    };
    let (first, rest) = args.split_first()?;
    (blazar_runtime::builtins::get(*id).name == "strcat"
        && matches!(first.kind, ExprKind::Var(v) if v == var))
    .then_some(rest)
}
