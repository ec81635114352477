//! Fusion across statements: a [`FusedGroup`] (consecutive assignments whose
//! intermediates are dead after them, found by `passes::fuse_statements`) evaluated into
//! one region. Each statement runs in order, as it would alone, but an intermediate
//! whose value is a node stays a node (pending, bound to its variable) that later
//! statements of the group read; only the last statement's value becomes an array (or a
//! reduction's value), so `y = f(x); t = y > c; e = sum(t .* y)` is one kernel.
//!
//! Whatever a region cannot hold falls back to what the statements would do alone: a
//! value that is not a node (a scalar, a small array, a host result) is assigned to its
//! variable; a node that may fail inside the kernel (a gather) is materialised at its
//! own statement, so its error names that statement; an intermediate read where the
//! host evaluates (an index base, a `transpose` argument, a dimension, a call the region
//! cannot take) is materialised once, before the statement that reads it so.

use super::*;
use blazar_hir::{FusedGroup, Stmt, StmtKind, Var};

impl<'p> Interp<'p> {
    /// Runs the fused group starting at `rest[0]`, if one starts there and fusion is on:
    /// the number of statements it ran.
    pub fn exec_fused_group(&mut self, rest: &'p [Stmt], frame: &mut Frame) -> R<Option<usize>> {
        let prog: &'p blazar_hir::Program = self.prog;
        if prog.fused.is_empty()
            || self.fuse_min == usize::MAX
            || self.host_hook.is_some()
            || !matches!(rest[0].kind, StmtKind::Assign { .. })
        {
            return Ok(None);
        }
        let Some(g) = prog.fused.get(&rest[0].span) else {
            return Ok(None);
        };
        let n = g.len as usize;
        if rest.len() < n || rest[n - 1].span != g.last {
            return Ok(None);
        }
        self.exec_group(&rest[..n], g, frame)?;
        Ok(Some(n))
    }

    fn exec_group(&mut self, stmts: &'p [Stmt], g: &FusedGroup, frame: &mut Frame) -> R<()> {
        let lines = (
            self.sources.line_of(stmts[0].span) as u32,
            self.sources.line_of(stmts[stmts.len() - 1].span) as u32,
        );
        let outer = self.fused.group.replace(lines);
        let allocs = self.fused.allocs.get();
        let r = self.exec_group_stmts(stmts, g, frame);
        self.fused.group = outer;
        let arrays = self.fused.allocs.get() - allocs;
        if let Some(p) = self.profile.as_mut() {
            p.group(lines.0, lines.1, arrays);
        }
        r
    }

    fn exec_group_stmts(&mut self, stmts: &'p [Stmt], g: &FusedGroup, frame: &mut Frame) -> R<()> {
        let mut f = self.fusion();
        for (k, s) in stmts.iter().enumerate() {
            let StmtKind::Assign {
                target, op, value, ..
            } = &s.kind
            else {
                return Err(RunError::new(
                    s.span,
                    "internal error: a fused group changed",
                ));
            };
            // Where the run is, for a report the run cannot make itself (memory that
            // runs out inside a builtin, a signal): this statement, as when it runs alone.
            blazar_runtime::interrupt::set_at(s.span.file.0, s.span.lo, s.span.hi);
            let last = k + 1 == stmts.len();
            if !last && g.dead.get(k) != Some(&target.var) {
                return Err(RunError::new(
                    s.span,
                    "internal error: a fused group changed",
                ));
            }
            // Intermediates the host would read as values exist before the statement.
            let mut host = Vec::new();
            host_reads(value, true, &f.pending, &mut host);
            for v in host {
                if let Some(i) = f.pending.iter().rposition(|(p, _)| *p == v) {
                    let (_, n) = f.pending.remove(i);
                    let val = self.force(Operand::Node(n), &mut f, value.span)?;
                    self.write_var(v, frame, val);
                }
            }
            let v = if last {
                if f.pending.is_empty() {
                    // Nothing is pending: the statement runs as it would alone.
                    self.exec_assign(target, *op, value, None, frame)?;
                    return Ok(());
                }
                let recycle = self.group_recycle(target.var, value, &f, frame);
                let o = self.operand(value, frame, &mut f)?;
                f.recycle = recycle;
                self.force(o, &mut f, value.span)?
            } else if f.pending.is_empty() && self.scalar_tree(value, frame) {
                match self.try_scalar(value, frame)? {
                    Some(v) => v,
                    None => self.eval(value, frame)?,
                }
            } else {
                match self.operand(value, frame, &mut f)? {
                    Operand::Node(n) if !f.b.gathers(n) && !f.b.dims(n).is_empty() => {
                        f.pending.push((target.var, n));
                        continue;
                    }
                    o => self.force(o, &mut f, value.span)?,
                }
            };
            self.write_var(target.var, frame, v);
        }
        Ok(())
    }
}

impl<'p> Interp<'p> {
    /// As `recycle_target` for the last statement of a group: the array its variable
    /// holds when nothing but that variable and the region's inputs refer to it (the
    /// region may already read it: `u = f(u)` after intermediates of `u`).
    fn group_recycle(&self, var: Var, value: &Expr, f: &Fusion, frame: &Frame) -> Option<ArrayRef> {
        let Some(Value::Array(a)) = self.var_ref(var, frame) else {
            return None;
        };
        let key = Rc::as_ptr(&a.data) as usize;
        let held = f.arrays.iter().filter(|(k, _)| *k == key).count();
        let alone = Rc::strong_count(&a.data) == 1 + held;
        (alone && a.mode == blazar_runtime::Access::default() && fusable(value) && pure(value))
            .then(|| a.clone())
    }
}

/// Collects the pending variables `e` reads where [`Interp::operand`] evaluates on the
/// host (`operand`: whether `e` itself is evaluated as an operand of a region).
fn host_reads(e: &Expr, operand: bool, pending: &[(Var, NodeRef)], out: &mut Vec<Var>) {
    let mut sub = |x: &Expr, as_operand: bool| host_reads(x, as_operand, pending, out);
    if !operand {
        blazar_hir::visit::each_expr(e, &mut |x| {
            if let ExprKind::Var(v) = x.kind {
                if pending.iter().any(|(p, _)| *p == v) && !out.contains(&v) {
                    out.push(v);
                }
            }
        });
        return;
    }
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Int(_) | ExprKind::Real(_) => {}
        ExprKind::Binary(op, a, b) => {
            sub(a, true);
            sub(b, !matches!(op, BinOp::And | BinOp::Or));
        }
        ExprKind::Unary(_, a) => sub(a, true),
        ExprKind::Index { base, args } if !is_slice(args) && args.len() == 1 => {
            sub(base, false);
            sub(&args[0], true);
        }
        ExprKind::Matrix(items) if join::joins_arrays(items) => {
            items.iter().for_each(|i| sub(i, true));
        }
        ExprKind::Call {
            callee: Callee::Builtin(id),
            args,
        } => {
            // How many leading arguments are operands of the region.
            let operands = match builtin_op(*id, args.len()) {
                Some(BuiltinOp::Unary(_) | BuiltinOp::Binary(_) | BuiltinOp::Join(_)) => args.len(),
                Some(
                    BuiltinOp::Reduce(..)
                    | BuiltinOp::ReduceAlong(..)
                    | BuiltinOp::Scan(_)
                    | BuiltinOp::Move(Move::Copy),
                ) => 1,
                // Other moves force their operand each time: once, before, instead.
                Some(BuiltinOp::Move(_)) | None => 0,
            };
            let cat = matches!(
                builtin_op(*id, args.len()),
                Some(BuiltinOp::Join(JoinFn::Cat))
            );
            for (i, a) in args.iter().enumerate() {
                sub(a, i < operands && !(cat && i == 0));
            }
        }
        _ => host_reads(e, false, pending, out),
    }
}
