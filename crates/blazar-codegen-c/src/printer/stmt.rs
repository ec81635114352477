//! Statements: assignments and structured control flow as C.
//!
//! Statements that need temporaries open their own `{ }` scope (in a
//! [`Dialect::SCOPED`] dialect), so no `goto` ever crosses an initialisation.

use super::{expr, Dialect, ForLoop, LoopCtx};
use crate::names;
use crate::spell;
use blazar_kir::{Const, ExprKind, Stmt, StmtKind, Ty};

/// Prints the statements of `b`.
pub(crate) fn block<D: Dialect>(d: &mut D, b: &[Stmt]) {
    for s in b {
        stmt(d, s);
    }
}

fn nested<D: Dialect>(d: &mut D, b: &[Stmt]) {
    d.out().depth += 1;
    block(d, b);
    d.out().depth -= 1;
}

/// Opens the scope of a statement's operands (in a scoped dialect).
fn open<D: Dialect>(d: &mut D) {
    if D::SCOPED {
        d.line_out("{");
        d.out().depth += 1;
    }
}

fn close<D: Dialect>(d: &mut D) {
    if D::SCOPED {
        d.out().depth -= 1;
        d.line_out("}");
    }
}

fn stmt<D: Dialect>(d: &mut D, s: &Stmt) {
    d.begin_stmt(s);
    let guarded = d.guard_open(s);
    stmt_body(d, s);
    if guarded {
        d.guard_close();
    }
}

fn stmt_body<D: Dialect>(d: &mut D, s: &Stmt) {
    match &s.kind {
        StmtKind::Assign { var, value } => {
            let v = expr(d, value);
            let name = d.var_target(*var);
            d.line_out(&format!("{name} = {v};"));
            if d.checked(value) {
                d.abort_if_failed();
            }
        }
        StmtKind::SetLane { var, lane, value } => {
            let name = d.var_target(*var);
            let n = match d.kernel().vars.get(*var as usize).map(|v| v.ty) {
                Some(Ty::Vector(_, n)) => n as i64,
                _ => 0,
            };
            open(d);
            let x = d.operand(value);
            match lane.kind {
                ExprKind::Const(Const::Int(i)) if (0..n).contains(&i) => {
                    d.line_out(&format!("{name}[{i}] = {x};"))
                }
                ExprKind::Const(Const::Int(_)) => {
                    d.line_out(&format!("(void)({x}); // lane outside {name}"))
                }
                _ => {
                    let i = d.operand(lane);
                    d.line_out(&format!("bz_set_lane({name}, {i}, {x});"));
                }
            }
            close(d);
        }
        StmtKind::Store {
            arr, index, value, ..
        } => d.store_stmt(s, *arr, index, value, None),
        StmtKind::Update {
            arr,
            index,
            op,
            value,
            ..
        } => d.store_stmt(s, *arr, index, value, Some(*op)),
        StmtKind::Accumulate { output, value } => {
            let Some(o) = d.kernel().outputs.get(*output as usize) else {
                return;
            };
            let (ty, op) = (o.ty, names::op_code(names::partial_op(o.op)));
            let t = names::scalar(ty);
            open(d);
            let x = d.operand(value);
            let x = spell::cast(ty, value.ty.elem(), &x);
            d.line_out(&format!(
                "bz_acc{output} = bz_combine<{op}, {t}>(bz_acc{output}, {x});"
            ));
            close(d);
        }
        StmtKind::If { .. } if d.if_form(s) => {}
        StmtKind::If { cond, then, els } => {
            open(d);
            let c = d.operand(cond);
            d.line_out(&format!("if ({c}) {{"));
            nested(d, then);
            if !els.is_empty() {
                d.line_out("} else {");
                nested(d, els);
            }
            d.line_out("}");
            close(d);
        }
        StmtKind::While { cond, body } => {
            if d.checked(cond) {
                d.line_out("for (;;) {");
                d.out().depth += 1;
                let c = d.operand(cond);
                d.line_out(&format!("if (!({c})) break;"));
                d.out().depth -= 1;
            } else {
                let c = expr(d, cond);
                d.line_out(&format!("while ({c}) {{"));
            }
            loop_body(d, s, body);
        }
        StmtKind::For {
            var,
            start,
            step,
            end,
            body,
        } => {
            let id = d.out().next_loop;
            let v = d.var_target(*var);
            let t = names::ty(start.ty);
            d.line_out("{");
            d.out().depth += 1;
            let (a, b, c) = (d.operand(start), d.operand(step), d.operand(end));
            d.line_out(&format!("const {t} bz_lo{id} = {a};"));
            d.line_out(&format!("const {t} bz_st{id} = {b};"));
            d.line_out(&format!("const {t} bz_hi{id} = {c};"));
            d.for_header(&ForLoop {
                var: *var,
                start,
                step,
                end,
                body,
                id,
                v,
                t,
            });
            loop_body(d, s, body);
            d.out().depth -= 1;
            d.line_out("}");
        }
        StmtKind::Break(n) | StmtKind::Continue(n) => {
            let is_break = matches!(s.kind, StmtKind::Break(_));
            let n = *n as usize;
            let Some(i) = d.out().loops.len().checked_sub(n + 1) else {
                d.line_out("/* break/continue outside a loop */");
                return;
            };
            if n == 0 {
                d.line_out(if is_break { "break;" } else { "continue;" });
            } else {
                let l = &mut d.out().loops[i];
                let id = l.id;
                let text = if is_break {
                    l.brk = true;
                    format!("goto bz_brk_{id};")
                } else {
                    l.cont = true;
                    format!("goto bz_cont_{id};")
                };
                d.line_out(&text);
            }
        }
        StmtKind::Barrier => d.barrier(),
        StmtKind::Assert { cond } => d.assert_stmt(s.line, cond),
        StmtKind::Return => d.ret(),
        StmtKind::AllocShared { arr, dims, zero } => d.alloc_shared_stmt(*arr, dims, *zero),
        StmtKind::AllocLocal { arr, dims, fill } => d.alloc_local_stmt(*arr, dims, *fill),
        StmtKind::Call { func, args, outs } => d.call_stmt(*func, args, outs),
    }
}

/// The body of a loop whose header line is already out; closes it and prints the
/// labels that labelled exits used.
fn loop_body<D: Dialect>(d: &mut D, s: &Stmt, body: &[Stmt]) {
    d.out().depth += 1;
    d.iteration(s);
    d.out().depth -= 1;
    let o = d.out();
    let id = o.next_loop;
    o.next_loop += 1;
    o.loops.push(LoopCtx {
        id,
        brk: false,
        cont: false,
    });
    nested(d, body);
    let l = d.out().loops.pop().unwrap_or(LoopCtx {
        id,
        brk: false,
        cont: false,
    });
    if l.cont {
        d.out().depth += 1;
        d.line_out(&format!("bz_cont_{id}:;"));
        d.out().depth -= 1;
    }
    d.line_out("}");
    if l.brk {
        d.line_out(&format!("bz_brk_{id}:;"));
    }
}
