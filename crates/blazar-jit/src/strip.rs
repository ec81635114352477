//! Vector strips: in the fast copy of a rank-1 element-wise kernel, four `f32` (two
//! `f64`) threads at a time with Cranelift's SIMD types.
//!
//! A kernel qualifies when its body is only stores `y[pos] = value` whose values are
//! built from loads `x[pos]`, constants, parameters, `+ - * /` and negation, all of
//! one float type, with no kernel outputs, and every access has range facts (the work
//! item's guard then proves it in range). Lane `l` of a strip computes exactly what
//! thread `t + l` computes (the same IEEE operations, one per lane), and each thread
//! touches only element `pos` of each array, so the strip agrees with the threads run
//! one after another as long as no two distinct arrays overlap in part; the work item
//! checks that before taking the strips (else it runs thread by thread).

use crate::gen::Gen;
use blazar_kir::{BinOp, Expr, ExprKind, Kernel, Scalar, Special, Stmt, StmtKind, Ty, UnOp};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{F32X4, F64X2, I64, I8};
use cranelift_codegen::ir::{InstBuilder, MemFlags, Type, Value};

/// What a strip needs: the element type, its vector type and lanes, and the arrays
/// the body touches (the stored ones first marked).
pub(crate) struct Plan {
    pub elem: Scalar,
    pub vty: Type,
    pub lanes: i64,
    /// Array slots the body reads or writes, with whether it writes them.
    pub arrays: Vec<(u32, bool)>,
}

/// The strip plan of kernel `k`, if it qualifies (see the module comment).
pub(crate) fn plan(k: &Kernel) -> Option<Plan> {
    if k.rank != 1 || !k.outputs.is_empty() || k.body.is_empty() {
        return None;
    }
    let ranges = k.ranges();
    let aliases = &k.facts().aliases;
    let is_pos = |e: &Expr| match &e.kind {
        ExprKind::Special(Special::Pos) => e.ty == Ty::I32,
        ExprKind::Var(v) => e.ty == Ty::I32 && aliases.get(v) == Some(&Special::Pos),
        _ => false,
    };
    let mut elem = None;
    let mut arrays: Vec<(u32, bool)> = Vec::new();
    let touch = |a: u32, w: bool, arrays: &mut Vec<(u32, bool)>| match arrays
        .iter_mut()
        .find(|(x, _)| *x == a)
    {
        Some(e) => e.1 |= w,
        None => arrays.push((a, w)),
    };
    for s in &k.body {
        let StmtKind::Store { arr, index, value } = &s.kind else {
            return None;
        };
        if index.len() != 1 || !is_pos(&index[0]) {
            return None;
        }
        ranges.forms(s as *const Stmt as usize)?;
        let t = arr_elem(k, *arr)?;
        if *elem.get_or_insert(t) != t || !matches!(t, Scalar::F32 | Scalar::F64) {
            return None;
        }
        touch(*arr, true, &mut arrays);
        if !value_ok(k, value, t, &is_pos, &mut |a| touch(a, false, &mut arrays)) {
            return None;
        }
    }
    let elem = elem?;
    let (vty, lanes) = if elem == Scalar::F32 {
        (F32X4, 4)
    } else {
        (F64X2, 2)
    };
    Some(Plan {
        elem,
        vty,
        lanes,
        arrays,
    })
}

fn arr_elem(k: &Kernel, a: u32) -> Option<Scalar> {
    match k.arrays.get(a as usize)?.ty {
        Ty::Array(t) => Some(t.elem),
        _ => None,
    }
}

/// Whether `e` (of scalar type `t`) is built only from what a strip computes.
fn value_ok(
    k: &Kernel,
    e: &Expr,
    t: Scalar,
    is_pos: &dyn Fn(&Expr) -> bool,
    load: &mut dyn FnMut(u32),
) -> bool {
    if e.ty != Ty::Scalar(t) {
        return false;
    }
    match &e.kind {
        ExprKind::Const(_) => true,
        // Variables are never assigned in such a body: they hold their parameter (or 0).
        ExprKind::Var(_) => true,
        ExprKind::Load { arr, index } => {
            let ok = index.len() == 1
                && is_pos(&index[0])
                && arr_elem(k, *arr) == Some(t)
                && k.ranges().forms(e as *const Expr as usize).is_some();
            if ok {
                load(*arr);
            }
            ok
        }
        ExprKind::Unary(UnOp::Neg, a) => value_ok(k, a, t, is_pos, load),
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, a, b) => {
            value_ok(k, a, t, is_pos, load) && value_ok(k, b, t, is_pos, load)
        }
        _ => false,
    }
}

impl Gen<'_, '_> {
    /// Whether no two distinct arrays of `plan` overlap in part (same start: fine).
    pub(crate) fn strip_disjoint(&mut self, plan: &Plan) -> Result<Value, String> {
        let mut spans = Vec::new();
        for &(a, w) in &plan.arrays {
            let arr = self
                .arrs
                .get(a as usize)
                .cloned()
                .flatten()
                .ok_or("unbound array")?;
            let mut n = self.b.ins().iconst(I64, 1);
            for &d in &arr.dims {
                n = self.b.ins().imul(n, d);
            }
            let bytes = self.b.ins().imul_imm(n, plan.elem.size() as i64);
            let end = self.b.ins().iadd(arr.data, bytes);
            spans.push((arr.data, end, w));
        }
        let mut ok = self.b.ins().iconst(I8, 1);
        for i in 0..spans.len() {
            for j in 0..i {
                let ((s1, e1, w1), (s2, e2, w2)) = (spans[i], spans[j]);
                if !w1 && !w2 {
                    continue;
                }
                let same = self.b.ins().icmp(IntCC::Equal, s1, s2);
                let before = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, e1, s2);
                let after = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, e2, s1);
                let apart = self.b.ins().bor(before, after);
                let fine = self.b.ins().bor(same, apart);
                ok = self.b.ins().band(ok, fine);
            }
        }
        Ok(ok)
    }

    /// One strip: every store of the body for the `plan.lanes` threads from `pos[0]`.
    pub(crate) fn strip_body(&mut self, plan: &Plan) -> Result<(), String> {
        let p = self.b.use_var(self.pos[0]);
        let size = plan.elem.size() as i64;
        let off = self.b.ins().imul_imm(p, size);
        for s in &self.k.body {
            let StmtKind::Store { arr, value, .. } = &s.kind else {
                return Err("a strip of another statement".into());
            };
            let v = self.strip_expr(plan, value, off)?;
            let a = self
                .arrs
                .get(*arr as usize)
                .cloned()
                .flatten()
                .ok_or("unbound array")?;
            let at = self.b.ins().iadd(a.data, off);
            self.b.ins().store(MemFlags::new().with_notrap(), v, at, 0);
        }
        Ok(())
    }

    fn strip_expr(&mut self, plan: &Plan, e: &Expr, off: Value) -> Result<Value, String> {
        Ok(match &e.kind {
            ExprKind::Const(_) | ExprKind::Var(_) => {
                let x = self.scalar(e)?;
                self.b.ins().splat(plan.vty, x)
            }
            ExprKind::Load { arr, .. } => {
                let a = self
                    .arrs
                    .get(*arr as usize)
                    .cloned()
                    .flatten()
                    .ok_or("unbound array")?;
                let at = self.b.ins().iadd(a.data, off);
                self.b
                    .ins()
                    .load(plan.vty, MemFlags::new().with_notrap(), at, 0)
            }
            ExprKind::Unary(UnOp::Neg, a) => {
                let x = self.strip_expr(plan, a, off)?;
                self.b.ins().fneg(x)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.strip_expr(plan, a, off)?;
                let y = self.strip_expr(plan, b, off)?;
                match op {
                    BinOp::Add => self.b.ins().fadd(x, y),
                    BinOp::Sub => self.b.ins().fsub(x, y),
                    BinOp::Mul => self.b.ins().fmul(x, y),
                    BinOp::Div => self.b.ins().fdiv(x, y),
                    _ => return Err("a strip of another operation".into()),
                }
            }
            _ => return Err("a strip of another expression".into()),
        })
    }
}
