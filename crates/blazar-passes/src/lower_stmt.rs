//! Lowering of kernel statements: expression statements and control flow (if, loops,
//! break, continue, return); assignments are in `lower_assign.rs`.

use crate::lower::{err, Lower, Slot, SlotTy, LR};
use crate::lower_math::{cast, cond_bool};
use blazar_hir::{self as hir, StmtKind as H, Var};
use blazar_kir::{Expr, ExprKind as K, StmtKind, Ty};

impl<'a> Lower<'a> {
    /// Lowers a block. In dry runs a statement whose types are not known yet is skipped
    /// and the rest of the block still runs, so that each dry run learns every type it
    /// can (not only those before the first unknown one).
    pub fn block(&mut self, b: &'a [hir::Stmt]) -> LR<Vec<blazar_kir::Stmt>> {
        let (out, r) = self.capture(|l| {
            for s in b {
                if l.dry {
                    l.dry_stmt(s)?;
                } else {
                    l.stmt(s)?;
                }
            }
            Ok(())
        });
        r.map(|()| out)
    }

    /// One statement of a dry run: when its types are not known yet it is skipped, and
    /// the names it would rebind (to an array, a list or a function) are forgotten, so
    /// that later statements cannot type themselves from the old binding. Variables
    /// keep their slot: their type only widens as the runs learn more.
    pub fn dry_stmt(&mut self, s: &'a hir::Stmt) -> LR<()> {
        match self.stmt(s) {
            Err(crate::lower::Fail::Unknown) => {
                self.forget_rebinds(std::slice::from_ref(s));
                Ok(())
            }
            r => r,
        }
    }

    fn forget_rebinds(&mut self, b: &[hir::Stmt]) {
        for s in b {
            let places: &[hir::Place] = match &s.kind {
                H::Assign { target, .. } => std::slice::from_ref(target),
                H::MultiAssign { targets, .. } => targets,
                _ => &[],
            };
            for p in places.iter().filter(|p| p.path.is_empty()) {
                if let Var::Local(slot) = p.var {
                    let cur = &mut self.frame().slots[slot as usize];
                    if matches!(cur, Slot::Array(_) | Slot::List(_) | Slot::Func(..)) {
                        *cur = Slot::Unset;
                    }
                }
            }
            match &s.kind {
                H::If { arms, otherwise } => {
                    for (_, b) in arms {
                        self.forget_rebinds(b);
                    }
                    self.forget_rebinds(otherwise);
                }
                H::Match { arms, .. } => {
                    for (_, b) in arms {
                        self.forget_rebinds(b);
                    }
                }
                H::ForRange { body, .. }
                | H::ForEach { body, .. }
                | H::While { body, .. }
                | H::Repeat { body, .. } => self.forget_rebinds(body),
                _ => {}
            }
        }
    }

    /// Whether the variable of a `for` over a range (local `slot`) needs a hidden
    /// counter: the loop's body assigns it, or code outside the loop reads it.
    fn loop_var_copied(&mut self, slot: u32, body: &'a [hir::Stmt]) -> bool {
        fn writes(stmts: &[hir::Stmt], var: Var) -> bool {
            stmts.iter().any(|s| {
                let here = match &s.kind {
                    H::Assign { target, .. } => target.var == var,
                    H::MultiAssign { targets, .. } => targets.iter().any(|t| t.var == var),
                    H::ForRange { var: v, .. } | H::ForEach { var: v, .. } => *v == var,
                    _ => false,
                };
                here || hir::visit::blocks(s).into_iter().any(|b| writes(b, var))
            })
        }
        let var = Var::Local(slot);
        if writes(body, var) {
            return true;
        }
        let reads = |stmts: &'a [hir::Stmt]| {
            let mut n = 0usize;
            hir::visit::each_expr_in(stmts, &mut |e| {
                if matches!(e.kind, hir::ExprKind::Var(v) if v == var) {
                    n += 1;
                }
            });
            n
        };
        let func = self.frame().func;
        let all = reads(&self.env.prog.functions[func as usize].body);
        all > reads(body)
    }

    fn in_loop(&mut self, b: &'a [hir::Stmt]) -> LR<Vec<blazar_kir::Stmt>> {
        self.loops += 1;
        let r = self.block(b);
        self.loops -= 1;
        r
    }

    pub fn stmt(&mut self, s: &'a hir::Stmt) -> LR<()> {
        self.set_line(s.span);
        match &s.kind {
            H::Expr(e) => {
                let _ = self.val(e)?;
            }
            H::Assign {
                target,
                op,
                value,
                ty,
            } => self.assign(target, *op, value, ty.as_ref(), s.span)?,
            H::MultiAssign { targets, value } => self.multi_assign(targets, value, s.span)?,
            H::Declare { .. } | H::Attribute { .. } => {}
            H::If { arms, otherwise } => {
                let mut els = self.block(otherwise)?;
                for (c, b) in arms.iter().rev() {
                    self.set_line(c.span);
                    // The test's line, not the body's last one (errors, breakpoints).
                    let line = self.line;
                    let (pre, cond) = self.capture(|l| l.expr(c));
                    let cond = cond_bool(cond?, c.span)?;
                    let then = self.block(b)?;
                    let mut block = pre;
                    block.push(blazar_kir::Stmt {
                        kind: StmtKind::If { cond, then, els },
                        line,
                    });
                    els = block;
                }
                for st in els {
                    self.out.last_mut().map(|o| o.push(st));
                }
            }
            H::ForRange {
                var,
                start,
                step,
                end,
                body,
            } => {
                let Var::Local(slot) = var else {
                    return err(s.span, "loop variables of kernels are local");
                };
                let a = self.expr(start)?;
                let st = match step {
                    Some(x) => self.expr(x)?,
                    None => Expr::int(1),
                };
                let b = self.expr(end)?;
                let t = crate::infer::join(a.ty, st.ty).unwrap_or(a.ty);
                self.note_type(*slot, SlotTy::Val(t), s.span)?;
                let cur = self.frame().slots[*slot as usize].clone();
                let v = match cur {
                    Slot::Var(v) => v,
                    _ if self.dry => self.new_var("$loop", t),
                    _ => return err(s.span, "the loop variable cannot be used as an array"),
                };
                let vt = self.k.vars[v as usize].ty;
                // The host gives the variable each value of the range in turn, so after
                // the loop it holds the last value taken (not the one past the end), and
                // an assignment in the body does not change the iterations. KIR's `for`
                // steps its own variable, so where the body writes the variable or code
                // outside the loop reads it, a hidden counter runs the loop and the
                // variable is set from it at the start of each iteration.
                let counter = if self.loop_var_copied(*slot, body) {
                    self.new_var("$for", vt)
                } else {
                    v
                };
                let line = self.line;
                let mut body = self.in_loop(body)?;
                if counter != v {
                    body.insert(
                        0,
                        blazar_kir::Stmt {
                            kind: StmtKind::Assign {
                                var: v,
                                value: Expr::new(K::Var(counter), vt),
                            },
                            line,
                        },
                    );
                }
                self.emit(StmtKind::For {
                    var: counter,
                    start: cast(a, vt),
                    step: cast(st, vt),
                    end: cast(b, vt),
                    body,
                });
            }
            H::ForEach { .. } => {
                return err(
                    s.span,
                    "kernel loops must run over a range (`for i = a..b`)",
                )
            }
            H::While { cond, body } => {
                let (pre, c) = self.capture(|l| l.expr(cond));
                let c = cond_bool(c?, cond.span)?;
                if !pre.is_empty() {
                    return err(
                        cond.span,
                        "a loop condition in kernel code cannot call a device function",
                    );
                }
                let line = self.line;
                let body = self.in_loop(body)?;
                self.line = line;
                self.emit(StmtKind::While { cond: c, body });
            }
            H::Repeat { body, cond } => {
                // `repeat body until c` becomes
                //     $first = true
                //     while true { if !$first { if c { break } }; $first = false; body }
                // so that `continue` in the body goes on to the test, as in host code.
                self.loops += 1;
                let r = (|| {
                    let b = self.block(body)?;
                    let (mut pre, c) = self.capture(|l| l.expr(cond));
                    let c = cond_bool(c?, cond.span)?;
                    let line = self.line;
                    pre.push(blazar_kir::Stmt {
                        kind: StmtKind::If {
                            cond: c,
                            then: vec![blazar_kir::Stmt {
                                kind: StmtKind::Break(0),
                                line,
                            }],
                            els: vec![],
                        },
                        line,
                    });
                    Ok((b, pre))
                })();
                self.loops -= 1;
                let (b, test) = r?;
                let first = self.new_var("$first", Ty::BOOL);
                let first_e = Expr::new(K::Var(first), Ty::BOOL);
                self.emit(StmtKind::Assign {
                    var: first,
                    value: Expr::boolean(true),
                });
                let line = self.line;
                let mut whole = vec![
                    blazar_kir::Stmt {
                        kind: StmtKind::If {
                            cond: Expr::new(
                                K::Unary(blazar_kir::UnOp::Not, Box::new(first_e)),
                                Ty::BOOL,
                            ),
                            then: test,
                            els: vec![],
                        },
                        line,
                    },
                    blazar_kir::Stmt {
                        kind: StmtKind::Assign {
                            var: first,
                            value: Expr::boolean(false),
                        },
                        line,
                    },
                ];
                whole.extend(b);
                self.emit(StmtKind::While {
                    cond: Expr::boolean(true),
                    body: whole,
                });
            }
            H::Break(n) => self.emit(StmtKind::Break(*n)),
            H::Continue(n) => self.emit(StmtKind::Continue(*n)),
            H::Return => match self.frame().ret_depth {
                None => self.emit(StmtKind::Return),
                Some(d) => {
                    let n = self.loops - d;
                    self.emit(StmtKind::Break(n))
                }
            },
            H::Match { scrutinee, arms } => self.match_stmt(scrutinee, arms)?,
            H::Print(_) => return err(s.span, "kernel and device functions cannot print"),
            // A host function lowered for the compiled host tier (inlined, or a real
            // call's) may hold a loop that a later pass gave a parallel or serial plan:
            // the loop as written.
            H::Parallel(p) if self.calls.is_some() => self.stmt(&p.serial)?,
            H::Serial(p) if self.calls.is_some() => self.stmt(&p.serial)?,
            H::Parallel(_) | H::Serial(_) | H::Rewritten(_) => {
                return err(s.span, "host code cannot be kernel code")
            }
        }
        Ok(())
    }

    /// `match x with | p -> ... | _ -> ... end`: `x` evaluated once, then an if/elseif
    /// chain of `x == p` tests (the first arm that matches runs; `_` is the else).
    fn match_stmt(
        &mut self,
        scrutinee: &'a hir::Expr,
        arms: &'a [(Option<hir::Expr>, Vec<hir::Stmt>)],
    ) -> LR<()> {
        let x = self.expr(scrutinee)?;
        let t = x.ty;
        let v = self.new_var("$match", t);
        self.emit(StmtKind::Assign { var: v, value: x });
        // Arms after a `_` are never reached.
        let last = arms.iter().position(|(p, _)| p.is_none());
        let arms = &arms[..last.map_or(arms.len(), |i| i + 1)];
        let mut els = Vec::new();
        for (p, b) in arms.iter().rev() {
            let Some(p) = p else {
                els = self.block(b)?;
                continue;
            };
            self.set_line(p.span);
            let (pre, cond) = self.capture(|l| {
                let pe = l.expr(p)?;
                let eq = l.binary(hir::BinOp::Eq, Expr::new(K::Var(v), t), pe, p.span)?;
                cond_bool(eq, p.span)
            });
            let cond = cond?;
            let then = self.block(b)?;
            let mut block = pre;
            block.push(blazar_kir::Stmt {
                kind: StmtKind::If { cond, then, els },
                line: self.line,
            });
            els = block;
        }
        for st in els {
            self.out.last_mut().map(|o| o.push(st));
        }
        Ok(())
    }
}
