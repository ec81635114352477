//! Statements: assignments and structured control flow as host C++.
//!
//! Loops are C `while`/`for`; `break 0`/`continue 0` are C's, deeper ones are `goto`s
//! to labels emitted only when used (`bz_cont_N:` ends loop N's body, `bz_brk_N:`
//! follows it). Statements that need temporaries open their own `{ }` scope, so no
//! `goto` ever crosses an initialisation. `return` ends the thread (`goto bz_next`); an
//! error ends the range (`goto bz_abort`).

use super::{partial_op, Gen, LoopCtx};
use crate::spell;
use blazar_kir::{Const, Expr, ExprKind, Stmt, StmtKind, Ty};

impl Gen<'_> {
    pub fn block(&mut self, b: &[Stmt]) {
        for s in b {
            self.stmt(s);
        }
    }

    fn nested(&mut self, b: &[Stmt]) {
        self.depth += 1;
        self.block(b);
        self.depth -= 1;
    }

    /// The C expression of `e` as a value computed before the statement that uses it:
    /// when `e` may record a `'checked` error, it goes to a temporary and the range
    /// aborts right after an error.
    fn operand(&mut self, e: &Expr) -> String {
        let x = self.expr(e);
        if !self.has_checked(e) {
            return x;
        }
        let t = self.tmp();
        self.line_out(&format!("const {} {t} = {x};", spell::ty(e.ty)));
        self.line_out("if (bz_e.code) goto bz_abort;");
        t
    }

    fn stmt(&mut self, s: &Stmt) {
        self.line = s.line;
        match &s.kind {
            StmtKind::Assign { var, value } => {
                let v = self.expr(value);
                let name = self.var_name(*var);
                self.line_out(&format!("{name} = {v};"));
                self.check_after(value);
            }
            StmtKind::SetLane { var, lane, value } => {
                let name = self.var_name(*var);
                let n = match self.k.vars.get(*var as usize).map(|d| d.ty) {
                    Some(Ty::Vector(_, n)) => n as i64,
                    _ => 0,
                };
                self.line_out("{");
                self.depth += 1;
                let x = self.operand(value);
                match lane.kind {
                    ExprKind::Const(Const::Int(i)) if (0..n).contains(&i) => {
                        self.line_out(&format!("{name}[{i}] = {x};"))
                    }
                    ExprKind::Const(Const::Int(_)) => self.line_out(&format!("(void)({x});")),
                    _ => {
                        let i = self.operand(lane);
                        self.line_out(&format!("bz_set_lane({name}, {i}, {x});"));
                    }
                }
                self.depth -= 1;
                self.line_out("}");
            }
            StmtKind::Store { arr, index, value } => {
                self.store(s as *const Stmt as usize, *arr, index, value, None)
            }
            StmtKind::Update {
                arr,
                index,
                op,
                value,
            } => self.store(s as *const Stmt as usize, *arr, index, value, Some(*op)),
            StmtKind::Accumulate { output, value } => {
                let (op, t) = match self.k.outputs.get(*output as usize) {
                    Some(o) => (spell::op_code(partial_op(o.op)), spell::scalar(o.ty)),
                    None => return,
                };
                self.line_out("{");
                self.depth += 1;
                let x = self.operand(value);
                let x = spell::cast(self.k.outputs[*output as usize].ty, value.ty.elem(), &x);
                self.line_out(&format!(
                    "bz_acc{output} = bz_combine<{op}, {t}>(bz_acc{output}, {x});"
                ));
                self.depth -= 1;
                self.line_out("}");
            }
            StmtKind::If { cond, then, els } => {
                self.line_out("{");
                self.depth += 1;
                let c = self.operand(cond);
                self.line_out(&format!("if ({c}) {{"));
                self.nested(then);
                if !els.is_empty() {
                    self.line_out("} else {");
                    self.nested(els);
                }
                self.line_out("}");
                self.depth -= 1;
                self.line_out("}");
            }
            StmtKind::While { cond, body } => {
                if self.has_checked(cond) {
                    self.line_out("for (;;) {");
                    self.depth += 1;
                    let c = self.operand(cond);
                    self.line_out(&format!("if (!({c})) break;"));
                    self.depth -= 1;
                } else {
                    let c = self.expr(cond);
                    self.line_out(&format!("while ({c}) {{"));
                }
                self.loop_body(body);
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => self.for_loop(*var, start, step, end, body),
            StmtKind::Break(n) | StmtKind::Continue(n) => {
                let is_break = matches!(s.kind, StmtKind::Break(_));
                let n = *n as usize;
                let Some(i) = self.loops.len().checked_sub(n + 1) else {
                    return;
                };
                if n == 0 {
                    self.line_out(if is_break { "break;" } else { "continue;" });
                } else {
                    let l = &mut self.loops[i];
                    let id = l.id;
                    let text = if is_break {
                        l.brk = true;
                        format!("goto bz_brk_{id};")
                    } else {
                        l.cont = true;
                        format!("goto bz_cont_{id};")
                    };
                    self.line_out(&text);
                }
            }
            // Kernels with barriers are not generated (see `support`).
            StmtKind::Barrier | StmtKind::AllocShared { .. } => {}
            StmtKind::Assert { cond } => {
                self.line_out("{");
                self.depth += 1;
                let c = self.operand(cond);
                let line = s.line;
                self.line_out(&format!(
                    "if (!({c})) {{ bz_e.code = 1; bz_e.line = {line}; goto bz_abort; }}"
                ));
                self.depth -= 1;
                self.line_out("}");
            }
            StmtKind::Return => {
                let label = self.next.clone();
                self.line_out(&format!("goto {label};"))
            }
            StmtKind::AllocLocal { arr, dims, fill } => self.alloc_local(*arr, dims, *fill),
        }
    }

    /// After a statement whose expression may have recorded a `'checked` error.
    fn check_after(&mut self, e: &Expr) {
        if self.has_checked(e) {
            self.line_out("if (bz_e.code) goto bz_abort;");
        }
    }

    /// `for v = start..step..end`: bounds evaluated once; a plain counted loop when the
    /// step is a positive constant (so that the C++ compiler can count and unroll it).
    fn for_loop(&mut self, var: u32, start: &Expr, step: &Expr, end: &Expr, body: &[Stmt]) {
        let id = self.next_loop;
        let v = self.var_name(var);
        let t = spell::ty(start.ty);
        self.line_out("{");
        self.depth += 1;
        let (a, b, c) = (self.operand(start), self.operand(step), self.operand(end));
        self.line_out(&format!("const {t} bz_lo{id} = {a};"));
        self.line_out(&format!("const {t} bz_st{id} = {b};"));
        self.line_out(&format!("const {t} bz_hi{id} = {c};"));
        let positive = matches!(step.kind, ExprKind::Const(Const::Int(x)) if x > 0)
            || matches!(step.kind, ExprKind::Const(Const::Float(x)) if x > 0.0);
        if positive {
            self.line_out(&format!(
                "for ({v} = bz_lo{id}; {v} <= bz_hi{id}; {v} += bz_st{id}) {{"
            ));
        } else {
            self.line_out(&format!(
                "for ({v} = bz_lo{id}; (({t})0 < bz_st{id}) ? ({v} <= bz_hi{id}) : (bz_hi{id} <= {v}); {v} += bz_st{id}) {{"
            ));
        }
        self.loop_body(body);
        self.depth -= 1;
        self.line_out("}");
    }

    /// The body of a loop whose header line is already out; closes it and emits the
    /// labels that labelled exits used.
    fn loop_body(&mut self, body: &[Stmt]) {
        let id = self.next_loop;
        self.next_loop += 1;
        self.loops.push(LoopCtx {
            id,
            brk: false,
            cont: false,
        });
        self.nested(body);
        let l = self.loops.pop().unwrap_or(LoopCtx {
            id,
            brk: false,
            cont: false,
        });
        if l.cont {
            self.depth += 1;
            self.line_out(&format!("bz_cont_{id}:;"));
            self.depth -= 1;
        }
        self.line_out("}");
        if l.brk {
            self.line_out(&format!("bz_brk_{id}:;"));
        }
    }
}
