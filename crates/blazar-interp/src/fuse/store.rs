//! Where results go: into the assigned variable's own array when nothing else refers
//! to it, and masked assignment `A[mask] = v` as one in-place kernel.

use super::*;

/// Whether `e` calls no user function or closure (so evaluating it cannot keep a
/// reference to an array anywhere).
pub fn pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Var(_) | ExprKind::Colon => true,
        ExprKind::Unary(_, a) => pure(a),
        ExprKind::Binary(_, a, b) => pure(a) && pure(b),
        ExprKind::Range { start, step, end } => {
            pure(start) && step.as_deref().is_none_or(pure) && pure(end)
        }
        ExprKind::Index { base, args } => pure(base) && args.iter().all(pure),
        ExprKind::Matrix(items) => items.iter().all(pure),
        ExprKind::Call {
            callee: Callee::Builtin(_),
            args,
        } => args.iter().all(pure),
        _ => false,
    }
}

impl<'p> Interp<'p> {
    /// As [`Interp::eval_fused`] for `v = e`, where `old` is the array `v` holds: when
    /// nothing else refers to it and it has the result's shape and type, the kernel
    /// writes the result into it instead of a new array (no allocation, no page
    /// faults), as `out[i] = f(..., old[i], ...)` allows: each element is read before
    /// it is written, at the same position.
    pub fn eval_fused_into(
        &mut self,
        e: &'p Expr,
        old: Option<ArrayRef>,
        frame: &mut Frame,
    ) -> R<Value> {
        let mut f = self.fusion();
        let o = self.operand(e, frame, &mut f)?;
        // Only the root's result may overwrite it: a part forced on the way (the
        // operand of a `transpose`) is read again after it is computed.
        f.recycle = old;
        self.force(o, &mut f, e.span)
    }

    /// The recycled array, if the result of `done` may overwrite it.
    pub(super) fn recyclable(
        &self,
        done: &Finished,
        elem: ElemType,
        f: &mut Fusion,
    ) -> Option<ArrayRef> {
        let r = f.recycle.take()?;
        let key = Rc::as_ptr(&r.data) as usize;
        let read = f.arrays.iter().any(|(k, _)| *k == key);
        // Held by the variable, by `recycle`, and by the region's inputs if it is one.
        let holders = 2 + read as usize;
        let meta = r.meta().ok()?;
        let fits = meta.dims == done.dims && meta.elem() == elem;
        // A join reads its parts at other positions than it writes.
        let joins = done
            .region
            .nodes
            .iter()
            .any(|n| matches!(n.kind, blazar_air::NodeKind::Join(_)));
        let safe = !read
            || (done.region.flat
                && !joins
                && done
                    .args
                    .iter()
                    .all(|a| !matches!(a, Arg::View(k, _) if *k == key)));
        // A gather reads its table anywhere, and may fail part-way: never in place.
        let safe = safe
            && !done
                .region
                .inputs
                .iter()
                .any(|i| matches!(i, blazar_air::Input::Table { .. }));
        let placed = !self.device_arrays || r.data.residency() != blazar_runtime::Residency::Host;
        drop(meta);
        (fits && safe && placed && Rc::strong_count(&r.data) <= holders).then_some(r)
    }

    /// `arr[index] = v` with a large `arr` and a mask `index` (a comparison or logic
    /// result of `arr`'s shape) as one in-place kernel: `Ok(None)`. Otherwise the index's
    /// value, for the host to store through.
    pub fn masked_store(
        &mut self,
        arr: &ArrayRef,
        index: &'p Expr,
        v: &Value,
        frame: &mut Frame,
        span: Span,
    ) -> R<Option<Value>> {
        let mut f = self.fusion();
        let o = self.operand(index, frame, &mut f)?;
        let whole = Operand::Val(Value::Array(arr.clone()), false);
        if let (Operand::Node(mask), true) = (&o, self.big(&whole)) {
            let old = self.node_of(&whole, &mut f);
            let value = self.node_of(&Operand::Val(v.clone(), false), &mut f);
            if let (Some(old), Some(value)) = (old, value) {
                if let Some(n) = f.b.masked(old, *mask, value) {
                    if let Some(done) = f.b.finish(n, None) {
                        self.launch_region(&done, Some(arr.clone()), &f, span)?;
                        return Ok(None);
                    }
                }
            }
        }
        self.force(o, &mut f, span).map(Some)
    }

    /// Whether `arr[index] = v` may run as a masked kernel: fusion is on, `arr` is
    /// large, and the index is an expression (not `:` or a range).
    pub fn fuses_into(&self, arr: &ArrayRef, index: &Expr) -> bool {
        self.fuse_min != usize::MAX
            && !matches!(index.kind, ExprKind::Colon | ExprKind::Range { .. })
            && self.big(&Operand::Val(Value::Array(arr.clone()), false))
    }
}
