//! Statements: assignments and structured control flow as C.
//!
//! Loops are C `while`/`for`; `break 0`/`continue 0` are C's, deeper ones are `goto`s
//! to labels emitted only when used (`bz_cont_N:` ends loop N's body, `bz_brk_N:`
//! follows it). Statements that need temporaries open their own `{ }` scope, so no
//! `goto` ever crosses an initialisation. `return` is `goto bz_done` when the kernel
//! has outputs, so that every thread reaches the block reduction.

use crate::cuda::kernel::{Gen, LoopCtx};
use crate::names;
use blazar_kir::{Const, ExprKind, Stmt, StmtKind, Ty};

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

    /// What a thread does after recording an error: stop when no barrier can be
    /// waiting for it, carry on (with zeros for failed reads) otherwise.
    pub fn abort_stmt(&mut self) -> &'static str {
        if self.has_barrier {
            ""
        } else if self.k.outputs.is_empty() {
            " return;"
        } else {
            self.uses_done = true;
            " goto bz_done;"
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        self.line = s.line;
        self.directive();
        match &s.kind {
            StmtKind::Assign { var, value } => {
                let v = self.expr(value);
                let name = names::var(self.k, *var);
                self.line_out(&format!("{name} = {v};"));
            }
            StmtKind::SetLane { var, lane, value } => {
                let name = names::var(self.k, *var);
                let n = match self.k.vars.get(*var as usize).map(|d| d.ty) {
                    Some(Ty::Vector(_, n)) => n as i64,
                    _ => 0,
                };
                let x = self.expr(value);
                match lane.kind {
                    ExprKind::Const(Const::Int(i)) if (0..n).contains(&i) => {
                        self.line_out(&format!("{name}[{i}] = {x};"))
                    }
                    ExprKind::Const(Const::Int(_)) => {
                        self.line_out(&format!("(void)({x}); // lane outside {name}"))
                    }
                    _ => {
                        let i = self.expr(lane);
                        self.line_out(&format!("bz_set_lane({name}, {i}, {x});"));
                    }
                }
            }
            StmtKind::Store { arr, index, value } => self.store(*arr, index, value, None),
            StmtKind::Update {
                arr,
                index,
                op,
                value,
            } => self.store(*arr, index, value, Some(*op)),
            StmtKind::Accumulate { output, value } => {
                let x = self.expr(value);
                let (op, t) = self
                    .k
                    .outputs
                    .get(*output as usize)
                    .map_or((0, "f32"), |o| {
                        (names::op_code(names::partial_op(o.op)), names::scalar(o.ty))
                    });
                self.line_out(&format!(
                    "bz_acc{output} = bz_combine<{op}, {t}>(bz_acc{output}, {x});"
                ));
            }
            StmtKind::If { cond, then, els } => {
                let c = self.expr(cond);
                self.line_out(&format!("if ({c}) {{"));
                self.nested(then);
                if !els.is_empty() {
                    self.line_out("} else {");
                    self.nested(els);
                }
                self.line_out("}");
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond);
                self.line_out(&format!("while ({c}) {{"));
                self.loop_body(body);
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                let id = self.next_loop;
                let v = names::var(self.k, *var);
                let t = names::ty(start.ty);
                let (a, b, c) = (self.expr(start), self.expr(step), self.expr(end));
                self.line_out("{");
                self.depth += 1;
                self.line_out(&format!("const {t} bz_lo{id} = {a};"));
                self.line_out(&format!("const {t} bz_st{id} = {b};"));
                self.line_out(&format!("const {t} bz_hi{id} = {c};"));
                let int = matches!(start.ty, Ty::Scalar(s) if s.is_int());
                if int && !crate::cuda::facts::assigns(body, *var) {
                    // A counted loop: the compiler can unroll it and overlap iterations.
                    self.line_out(&format!("{v} = bz_lo{id};"));
                    // A streaming loop of unknown trip count: 8 iterations at a time.
                    // Left to itself NVCC unrolls a plain strided sum 16 times, which
                    // measured 5% slower on an H100 (benches/README.md, reduce_sum).
                    let (blk, rank) = (self.opts.block, self.k.rank);
                    let known = [start, step, end]
                        .iter()
                        .all(|e| crate::cuda::fold::const_int(e, blk, rank).is_some());
                    if !known && crate::cuda::facts::streaming(body) {
                        self.line_out("#pragma unroll 8");
                    }
                    self.line_out(&format!(
                        "for (auto bz_n{id} = bz_trips(bz_lo{id}, bz_st{id}, bz_hi{id}); bz_n{id} != 0; --bz_n{id}, {v} = bz_step({v}, bz_st{id})) {{"
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
            StmtKind::Break(n) | StmtKind::Continue(n) => {
                let is_break = matches!(s.kind, StmtKind::Break(_));
                let n = *n as usize;
                let Some(i) = self.loops.len().checked_sub(n + 1) else {
                    self.line_out("/* break/continue outside a loop */");
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
            StmtKind::Barrier => self.line_out(self.barrier_stmt()),
            StmtKind::Assert { cond } => {
                if crate::cuda::fold::const_int(cond, self.opts.block, self.k.rank) == Some(1) {
                    self.line_out("/* assert holds for this block shape */");
                    return;
                }
                self.can_fail = true;
                let c = self.expr(cond);
                let line = s.line;
                let abort = self.abort_stmt();
                self.line_out(&format!(
                    "if (!{c}) {{ bz_fail(bz_e, 1, {line}, 0, 0);{abort} }}"
                ));
            }
            StmtKind::Return => {
                if self.coarsen > 1 {
                    self.line_out("goto bz_next;");
                } else if self.k.outputs.is_empty() {
                    self.line_out(self.return_stmt());
                } else {
                    self.uses_done = true;
                    self.line_out("goto bz_done;");
                }
            }
            StmtKind::AllocShared { arr, dims, zero } => self.alloc_shared(*arr, dims, *zero),
            StmtKind::AllocLocal { arr, dims, fill } => self.alloc_local(*arr, dims, *fill),
        }
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
