//! Vector strips: in the fast copy of a rank-1 element-wise kernel, four `f32` (two
//! `f64`) threads at a time with Cranelift's SIMD types.
//!
//! A kernel qualifies when its body is only stores `y[pos] = value` and kernel outputs
//! accumulated once per thread, whose values are built from loads `x[pos]`, constants,
//! parameters, `+ - * / min max ^`, negation, comparisons (a lane mask, turned into
//! 0 or 1 by a cast or used by a select), `abs sqrt floor ceil` and the math functions
//! of the vector math library (`vmath`), all of one float type, and every access has
//! range facts (the work item's guard then proves it in range). Lane `l` of a strip
//! computes what thread `t + l` computes (the same IEEE operations, one per lane; the
//! vector math functions, `^` included, within glibc's 4 ulp of the interpreter's, as
//! on the C++ tier and the GPU), and each thread touches only element `pos` of each array, so the strip
//! agrees with the threads run one after another as long as no two distinct arrays
//! overlap in part; the work item checks that before taking the strips (else it runs
//! thread by thread).
//!
//! An output is accumulated per lane in a vector (`+`, `*`, `min`, `max` of the element
//! type; a sum of `f32` values in `f64`, two vectors of two lanes; a count of true
//! comparisons in mask lanes) and folded into the work item's partial when the strips
//! end, as the C++ tier's reduction strips do: the operations are associative and the
//! partials of an output have no order across threads anyway.

use crate::gen::{partial_op, Gen};
use blazar_kir::{
    AtomicOp, BinOp, Expr, ExprKind, Kernel, MathFn, Scalar, Special, Stmt, StmtKind, Ty, UnOp,
};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32X4, F64X2, I32X4, I64, I64X2, I8, I8X16};
use cranelift_codegen::ir::{ConstantData, Endianness, InstBuilder, MemFlags, Type, Value};
use cranelift_frontend::Variable;

/// How a strip accumulates one kernel output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Acc {
    /// In a vector of the element type, with the output's operation.
    Same(AtomicOp),
    /// A sum of `f32` values in an `f64` output: two vectors of two `f64` lanes.
    Wide,
    /// A count of lanes whose comparison holds, in the lanes of a mask (`i32` for
    /// `f32`: a work item has far fewer than 2^31 threads), added to an int output.
    Count,
}

/// What a strip needs: the element type, its vector type and lanes, and the arrays
/// the body touches (the stored ones first marked).
pub(crate) struct Plan {
    pub elem: Scalar,
    pub vty: Type,
    pub lanes: i64,
    /// Array slots the body reads or writes, with whether it writes them.
    pub arrays: Vec<(u32, bool)>,
    /// Per kernel output: how its strip accumulator works.
    pub accs: Vec<Acc>,
}

/// The vector accumulators of a work item's strips (per output, one or two).
pub(crate) type Accs = Vec<Vec<Variable>>;

struct Check<'k> {
    k: &'k Kernel,
    elem: Option<Scalar>,
    arrays: Vec<(u32, bool)>,
}

impl Check<'_> {
    fn touch(&mut self, a: u32, w: bool) {
        match self.arrays.iter_mut().find(|(x, _)| *x == a) {
            Some(e) => e.1 |= w,
            None => self.arrays.push((a, w)),
        }
    }

    /// Fixes the strip's element type (`false` when another one was fixed).
    fn elem_is(&mut self, t: Scalar) -> bool {
        matches!(t, Scalar::F32 | Scalar::F64) && *self.elem.get_or_insert(t) == t
    }

    fn is_pos(&self, e: &Expr) -> bool {
        let aliases = &self.k.facts().aliases;
        match &e.kind {
            ExprKind::Special(Special::Pos) => e.ty == Ty::I32,
            ExprKind::Var(v) => e.ty == Ty::I32 && aliases.get(v) == Some(&Special::Pos),
            _ => false,
        }
    }

    /// Whether `e` is a lane mask: a comparison of two float values of the strip.
    fn mask_ok(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Binary(op, a, b)
                if op.is_comparison() && e.ty == Ty::Scalar(Scalar::Bool) =>
            {
                self.value_ok(a) && self.value_ok(b)
            }
            _ => false,
        }
    }

    /// Whether `e` is a float value built only from what a strip computes.
    fn value_ok(&mut self, e: &Expr) -> bool {
        let Ty::Scalar(t) = e.ty else {
            return false;
        };
        if !self.elem_is(t) {
            return false;
        }
        match &e.kind {
            ExprKind::Const(_) => true,
            // Variables are never assigned in such a body: they hold their parameter (or 0).
            ExprKind::Var(_) => true,
            ExprKind::Load { arr, index, .. } => {
                let ok = index.len() == 1
                    && self.is_pos(&index[0])
                    && arr_elem(self.k, *arr) == Some(t)
                    && self.k.ranges().forms(e as *const Expr as usize).is_some();
                if ok {
                    self.touch(*arr, false);
                }
                ok
            }
            ExprKind::Unary(UnOp::Neg, a) => self.value_ok(a),
            ExprKind::Binary(
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Min | BinOp::Max,
                a,
                b,
            ) => self.value_ok(a) && self.value_ok(b),
            ExprKind::Binary(BinOp::Pow, a, b) => {
                crate::vmath::pow(t).is_some() && self.value_ok(a) && self.value_ok(b)
            }
            ExprKind::Cast(a) => a.ty == Ty::Scalar(Scalar::Bool) && self.mask_ok(a),
            ExprKind::Select(c, a, b) => self.mask_ok(c) && self.value_ok(a) && self.value_ok(b),
            ExprKind::Math(f, args) => {
                let inline = matches!(f, MathFn::Abs | MathFn::Sqrt | MathFn::Floor | MathFn::Ceil)
                    && args.len() == 1;
                let lib = crate::vmath::math(*f, t).is_some_and(|(_, n)| n == args.len());
                (inline || lib) && args.iter().all(|a| self.value_ok(a))
            }
            _ => false,
        }
    }

    /// How output `o` accumulates `value` in a strip, if it can.
    fn acc_ok(&mut self, o: u32, value: &Expr) -> Option<Acc> {
        let out = self.k.outputs.get(o as usize)?;
        let op = partial_op(out.op);
        if let ExprKind::Cast(inner) = &value.kind {
            if op == AtomicOp::Add && value.ty == Ty::Scalar(out.ty) {
                if out.ty == Scalar::F64 && inner.ty == Ty::Scalar(Scalar::F32) {
                    return self.value_ok(inner).then_some(Acc::Wide);
                }
                if out.ty.is_int() && inner.ty == Ty::Scalar(Scalar::Bool) {
                    return self.mask_ok(inner).then_some(Acc::Count);
                }
            }
        }
        let ok = out.ty.is_float()
            && value.ty == Ty::Scalar(out.ty)
            && matches!(
                op,
                AtomicOp::Add | AtomicOp::Mul | AtomicOp::Min | AtomicOp::Max
            )
            && self.value_ok(value);
        ok.then_some(Acc::Same(op))
    }
}

/// The strip plan of kernel `k`, if it qualifies (see the module comment).
pub(crate) fn plan(k: &Kernel) -> Option<Plan> {
    if k.rank != 1 || k.body.is_empty() {
        return None;
    }
    let ranges = k.ranges();
    let mut c = Check {
        k,
        elem: None,
        arrays: Vec::new(),
    };
    let mut accs: Vec<Option<Acc>> = vec![None; k.outputs.len()];
    for s in &k.body {
        match &s.kind {
            StmtKind::Store {
                arr, index, value, ..
            } => {
                if index.len() != 1 || !c.is_pos(&index[0]) {
                    return None;
                }
                ranges.forms(s as *const Stmt as usize)?;
                let t = arr_elem(k, *arr)?;
                if !c.elem_is(t) || value.ty != Ty::Scalar(t) {
                    return None;
                }
                c.touch(*arr, true);
                if !c.value_ok(value) {
                    return None;
                }
            }
            StmtKind::Accumulate { output, value } => {
                let slot = accs.get_mut(*output as usize)?;
                if slot.is_some() {
                    return None;
                }
                *slot = Some(c.acc_ok(*output, value)?);
            }
            _ => return None,
        }
    }
    // Every output is accumulated once per thread (an output a thread never touches
    // keeps its identity: the strips leave it alone).
    let accs: Vec<Acc> = accs
        .into_iter()
        .map(|a| a.unwrap_or(Acc::Same(AtomicOp::Add)))
        .collect();
    let elem = c.elem?;
    if accs.contains(&Acc::Wide) && elem != Scalar::F32 {
        return None;
    }
    let (vty, lanes) = if elem == Scalar::F32 {
        (F32X4, 4)
    } else {
        (F64X2, 2)
    };
    Some(Plan {
        elem,
        vty,
        lanes,
        arrays: c.arrays,
        accs,
    })
}

fn arr_elem(k: &Kernel, a: u32) -> Option<Scalar> {
    match k.arrays.get(a as usize)?.ty {
        Ty::Array(t) => Some(t.elem),
        _ => None,
    }
}

/// The lane-mask type of a strip of `vty`.
fn mask_ty(vty: Type) -> Type {
    if vty == F32X4 {
        I32X4
    } else {
        I64X2
    }
}

fn little() -> MemFlags {
    MemFlags::new().with_endianness(Endianness::Little)
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

    /// The vector accumulators of the strips, each set to its output's identity.
    pub(crate) fn strip_accs(&mut self, plan: &Plan) -> Accs {
        let mut accs = Vec::with_capacity(plan.accs.len());
        for acc in &plan.accs {
            let (ty, init, n) = match *acc {
                Acc::Same(op) => {
                    let id = self.identity(op, plan.elem);
                    (plan.vty, self.b.ins().splat(plan.vty, id), 1)
                }
                Acc::Wide => {
                    let z = self.b.ins().f64const(0.0);
                    (F64X2, self.b.ins().splat(F64X2, z), 2)
                }
                Acc::Count => {
                    let mty = mask_ty(plan.vty);
                    let z = self.b.ins().iconst(mty.lane_type(), 0);
                    (mty, self.b.ins().splat(mty, z), 1)
                }
            };
            let vs: Vec<Variable> = (0..n)
                .map(|_| {
                    let v = self.b.declare_var(ty);
                    self.b.def_var(v, init);
                    v
                })
                .collect();
            accs.push(vs);
        }
        accs
    }

    /// Folds the vector accumulators into the work item's partials, lane by lane.
    pub(crate) fn strip_fold(&mut self, plan: &Plan, accs: &Accs) {
        for (i, (acc, vs)) in plan.accs.iter().zip(accs).enumerate() {
            let (op, ty) = (self.k.outputs[i].op, self.k.outputs[i].ty);
            for &v in vs {
                let x = self.b.use_var(v);
                let lanes = self.b.func.dfg.value_type(x).lane_count();
                for l in 0..lanes {
                    let e = self.b.ins().extractlane(x, l as u8);
                    let e = match acc {
                        Acc::Same(_) | Acc::Wide => e,
                        // A true lane counted -1.
                        Acc::Count => {
                            let n = self.b.ins().ineg(e);
                            let n = if self.b.func.dfg.value_type(n) == I64 {
                                n
                            } else {
                                self.b.ins().sextend(I64, n)
                            };
                            self.cast(n, Scalar::I64, ty)
                        }
                    };
                    let a = self.b.use_var(self.accs[i]);
                    let n = self.combine(op, ty, a, e);
                    self.b.def_var(self.accs[i], n);
                }
            }
        }
    }

    /// One strip: every statement of the body for the `plan.lanes` threads from
    /// `pos[0] + first`.
    pub(crate) fn strip_body(
        &mut self,
        plan: &Plan,
        accs: &Accs,
        first: i64,
    ) -> Result<(), String> {
        let p = self.b.use_var(self.pos[0]);
        let size = plan.elem.size() as i64;
        let off = self.b.ins().imul_imm(p, size);
        let off = self.b.ins().iadd_imm(off, first * size);
        // A strip loads each array once (a store of the body comes after its loads,
        // and strips run only when distinct arrays do not overlap; an array stored
        // before it is read again is read afresh).
        self.strip_loads.clear();
        self.strip_calls.clear();
        for s in &self.k.body {
            match &s.kind {
                StmtKind::Store { arr, value, .. } => {
                    let v = self.strip_expr(plan, value, off)?;
                    let a = self
                        .arrs
                        .get(*arr as usize)
                        .cloned()
                        .flatten()
                        .ok_or("unbound array")?;
                    let at = self.b.ins().iadd(a.data, off);
                    self.b.ins().store(MemFlags::new().with_notrap(), v, at, 0);
                    self.strip_loads.clear();
                    self.strip_calls.clear();
                }
                StmtKind::Accumulate { output, value } => {
                    let o = *output as usize;
                    let vs = accs.get(o).ok_or("unknown output")?.clone();
                    match plan.accs[o] {
                        Acc::Same(op) => {
                            let x = self.strip_expr(plan, value, off)?;
                            let a = self.b.use_var(vs[0]);
                            let n = match op {
                                AtomicOp::Add => self.b.ins().fadd(a, x),
                                AtomicOp::Mul => self.b.ins().fmul(a, x),
                                // The accumulator starts at the identity and
                                // never becomes NaN (a NaN value leaves it).
                                AtomicOp::Min => self.vbetter(plan.vty, BinOp::Min, a, x),
                                _ => self.vbetter(plan.vty, BinOp::Max, a, x),
                            };
                            self.b.def_var(vs[0], n);
                        }
                        Acc::Wide => {
                            let ExprKind::Cast(inner) = &value.kind else {
                                return Err("a wide sum of another value".into());
                            };
                            let x = self.strip_expr(plan, inner, off)?;
                            let (lo, hi) = self.halves_f64(x);
                            for (v, h) in vs.iter().zip([lo, hi]) {
                                let a = self.b.use_var(*v);
                                let n = self.b.ins().fadd(a, h);
                                self.b.def_var(*v, n);
                            }
                        }
                        Acc::Count => {
                            let ExprKind::Cast(inner) = &value.kind else {
                                return Err("a count of another value".into());
                            };
                            let m = self.strip_mask(plan, inner, off)?;
                            let a = self.b.use_var(vs[0]);
                            let n = self.b.ins().iadd(a, m);
                            self.b.def_var(vs[0], n);
                        }
                    }
                }
                _ => return Err("a strip of another statement".into()),
            }
        }
        Ok(())
    }

    /// The low and high halves of four `f32` lanes, each as two `f64` lanes (the high
    /// half moved down by a byte shuffle of lanes 2 and 3: one `pshufd` on x86).
    fn halves_f64(&mut self, x: Value) -> (Value, Value) {
        let lo = self.b.ins().fvpromote_low(x);
        let bytes = self.b.ins().bitcast(I8X16, little(), x);
        let high: Vec<u8> = (8..16).chain(8..16).collect();
        let high = self.b.func.dfg.immediates.push(ConstantData::from(high));
        let h = self.b.ins().shuffle(bytes, bytes, high);
        let h = self.b.ins().bitcast(F32X4, little(), h);
        let hi = self.b.ins().fvpromote_low(h);
        (lo, hi)
    }

    /// `min`/`max` per lane as the scalar code computes it: the other operand when one
    /// is NaN, the first when they are equal.
    fn vminmax(&mut self, vty: Type, op: BinOp, x: Value, y: Value) -> Value {
        let m = self.vbetter(vty, op, x, y);
        let nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
        let nan = self.b.ins().bitcast(vty, little(), nan);
        self.b.ins().bitselect(nan, y, m)
    }

    /// `y` where it is below (`min`) or above (`max`) `x`, else `x` (so `x` where `y`
    /// is NaN): `vminmax` when `x` is never NaN. Both tests are spelled `<` (`y < x`,
    /// `x < y`), the form Cranelift's x86 back end turns into one `minps`/`maxps`
    /// (which give the second operand when unordered or equal: the same lanes).
    fn vbetter(&mut self, vty: Type, op: BinOp, x: Value, y: Value) -> Value {
        let better = if op == BinOp::Min {
            self.b.ins().fcmp(FloatCC::LessThan, y, x)
        } else {
            self.b.ins().fcmp(FloatCC::LessThan, x, y)
        };
        let better = self.b.ins().bitcast(vty, little(), better);
        self.b.ins().bitselect(better, y, x)
    }

    /// Calls the vector math function at `addr` on `args` (vectors of `vty`).
    fn vcall(&mut self, addr: usize, vty: Type, args: &[Value]) -> Value {
        let params = vec![vty; args.len()];
        self.call(addr, &params, Some(vty), args)
    }

    /// A comparison's lane mask (all ones where it holds).
    fn strip_mask(&mut self, plan: &Plan, e: &Expr, off: Value) -> Result<Value, String> {
        let ExprKind::Binary(op, a, b) = &e.kind else {
            return Err("a mask of another expression".into());
        };
        let x = self.strip_expr(plan, a, off)?;
        let y = self.strip_expr(plan, b, off)?;
        let cc = match op {
            BinOp::Eq => FloatCC::Equal,
            BinOp::Ne => FloatCC::NotEqual,
            BinOp::Lt => FloatCC::LessThan,
            BinOp::Le => FloatCC::LessThanOrEqual,
            BinOp::Gt => FloatCC::GreaterThan,
            BinOp::Ge => FloatCC::GreaterThanOrEqual,
            _ => return Err("a mask of another operation".into()),
        };
        Ok(self.b.ins().fcmp(cc, x, y))
    }

    fn strip_expr(&mut self, plan: &Plan, e: &Expr, off: Value) -> Result<Value, String> {
        let call = matches!(
            e.kind,
            ExprKind::Binary(BinOp::Pow, ..) | ExprKind::Math(..)
        );
        if call {
            if let Some((_, v)) = self.strip_calls.iter().find(|(x, _)| x == e) {
                return Ok(*v);
            }
        }
        let v = self.strip_value(plan, e, off)?;
        if call {
            self.strip_calls.push((e.clone(), v));
        }
        Ok(v)
    }

    /// [`Gen::strip_expr`] computed afresh.
    fn strip_value(&mut self, plan: &Plan, e: &Expr, off: Value) -> Result<Value, String> {
        let vty = plan.vty;
        Ok(match &e.kind {
            ExprKind::Const(_) | ExprKind::Var(_) => {
                let x = self.scalar(e)?;
                self.b.ins().splat(vty, x)
            }
            ExprKind::Load { arr, .. } => {
                if let Some(&v) = self.strip_loads.get(arr) {
                    return Ok(v);
                }
                let a = self
                    .arrs
                    .get(*arr as usize)
                    .cloned()
                    .flatten()
                    .ok_or("unbound array")?;
                let at = self.b.ins().iadd(a.data, off);
                let v = self.b.ins().load(vty, MemFlags::new().with_notrap(), at, 0);
                self.strip_loads.insert(*arr, v);
                v
            }
            ExprKind::Unary(UnOp::Neg, a) => {
                let x = self.strip_expr(plan, a, off)?;
                self.b.ins().fneg(x)
            }
            ExprKind::Cast(a) => {
                // A mask as 0 or 1: the bits of 1.0 where it holds.
                let m = self.strip_mask(plan, a, off)?;
                let one = self.konst(&blazar_kir::Const::Float(1.0), plan.elem);
                let one = self.b.ins().splat(vty, one);
                let one = self.b.ins().bitcast(mask_ty(vty), little(), one);
                let r = self.b.ins().band(m, one);
                self.b.ins().bitcast(vty, little(), r)
            }
            ExprKind::Select(c, a, b) => {
                let m = self.strip_mask(plan, c, off)?;
                let x = self.strip_expr(plan, a, off)?;
                let y = self.strip_expr(plan, b, off)?;
                let m = self.b.ins().bitcast(vty, little(), m);
                self.b.ins().bitselect(m, x, y)
            }
            ExprKind::Math(f, args) => {
                let xs = args
                    .iter()
                    .map(|a| self.strip_expr(plan, a, off))
                    .collect::<Result<Vec<_>, _>>()?;
                match f {
                    MathFn::Abs => self.b.ins().fabs(xs[0]),
                    MathFn::Sqrt => self.b.ins().sqrt(xs[0]),
                    MathFn::Floor => self.b.ins().floor(xs[0]),
                    MathFn::Ceil => self.b.ins().ceil(xs[0]),
                    _ => {
                        let (addr, _) = crate::vmath::math(*f, plan.elem)
                            .ok_or("a math function without a vector variant")?;
                        self.vcall(addr, vty, &xs)
                    }
                }
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.strip_expr(plan, a, off)?;
                let y = self.strip_expr(plan, b, off)?;
                match op {
                    BinOp::Add => self.b.ins().fadd(x, y),
                    BinOp::Sub => self.b.ins().fsub(x, y),
                    BinOp::Mul => self.b.ins().fmul(x, y),
                    BinOp::Div => self.b.ins().fdiv(x, y),
                    BinOp::Min | BinOp::Max => self.vminmax(vty, *op, x, y),
                    BinOp::Pow => {
                        let pow = crate::vmath::pow(plan.elem).ok_or("no vector pow")?;
                        self.vcall(pow, vty, &[x, y])
                    }
                    _ => return Err("a strip of another operation".into()),
                }
            }
            _ => return Err("a strip of another expression".into()),
        })
    }
}
