//! Reductions of a region: of all elements (a grid-stride kernel with one output)
//! and along one dimension (a thread per result element).

use super::*;

impl<'p> Interp<'p> {
    /// `sum`, `prod`, `min`, `max` or (`mean`) of node `n`'s elements as one kernel;
    /// `None` leaves it to the host (an empty array, an accumulator AIR does not have).
    pub(super) fn reduce(
        &mut self,
        n: NodeRef,
        r: Reduce,
        mean: bool,
        f: &mut Fusion,
        span: Span,
    ) -> R<Option<Value>> {
        let done = if mean {
            f.b.finish_mean(n)
        } else {
            f.b.finish(n, Some(r))
        };
        let Some(done) = done else {
            return Ok(None);
        };
        let numel: usize = done.dims.iter().product();
        let Some((_, acc)) = done.region.reduce else {
            return Ok(None);
        };
        if numel == 0 {
            return Ok(None);
        }
        let outs = self.launch_region(&done, None, f, span)?;
        if let Some(KValue::Int(0)) = outs.get(1) {
            // min/max of reals that are all NaN.
            return Ok(Some(Value::Real(f64::NAN)));
        }
        if at_identity(r, &outs) {
            // A kernel without a count of numbers (a thread per element) whose
            // min/max of reals stayed at ±inf saw only NaNs or infinities: the host's
            // reduction tells NaN (all NaN) from ±inf.
            return Ok(None);
        }
        let Some(v) = outs.into_iter().next() else {
            return Err(RunError::new(
                span,
                "internal error: a reduction without its value",
            ));
        };
        Ok(Some(match (v, mean) {
            (KValue::Float(x), true) => Value::Real(self.prec.round(x / numel as f64)),
            (KValue::Int(i), true) => Value::Real(self.prec.round(i as f64 / numel as f64)),
            (KValue::Float(x), false) => Value::Real(self.prec.round(x)),
            (KValue::Int(i), false) => Value::Int(i, crate::launch::int_of(acc)),
            _ => return Err(RunError::new(span, "internal error: a reduction's type")),
        }))
    }

    /// `sum`, `prod` or `mean` of node `n` along dimension `axis` (of `size`, so a
    /// matrix or larger) as one kernel; `None` leaves it to the host (a vec, an axis
    /// past the rank, a one-element or empty result, an accumulator AIR lacks).
    pub(super) fn reduce_along(
        &mut self,
        n: NodeRef,
        r: Reduce,
        axis: i64,
        mean: bool,
        f: &mut Fusion,
        span: Span,
    ) -> R<Option<Value>> {
        let Ok(axis) = usize::try_from(axis) else {
            return Ok(None);
        };
        let Some(done) = f.b.finish_along(n, r, axis, mean) else {
            return Ok(None);
        };
        let numel: usize = done.dims.iter().product();
        let Some(along) = done.region.along else {
            return Ok(None);
        };
        if numel <= 1 || done.along_len == 0 {
            return Ok(None);
        }
        let elem = elem_type(along.elem);
        let out = self.alloc_out(done.dims.clone(), elem, span)?;
        self.launch_region(&done, Some(out.clone()), f, span)?;
        // The host's shape: unit dimensions dropped as `canonical_dims` does (the elements' order is
        // the same).
        let canonical = blazar_runtime::Array::canonical_dims(&done.dims);
        if let Ok(mut a) = out.data.host_unsynced().try_borrow_mut() {
            a.dims = canonical;
        }
        Ok(Some(Value::Array(out)))
    }

    /// `cumsum` or `cumprod` of an operand along a dimension (default 1) of a matrix or
    /// larger, as one kernel with a thread per lane; `None` leaves it to the host (a
    /// vec: one lane, better scanned on the host; an axis past the rank).
    pub(super) fn scan(
        &mut self,
        x: &Operand,
        r: Reduce,
        d: Option<&Value>,
        f: &mut Fusion,
        span: Span,
    ) -> R<Option<Value>> {
        let Some(n) = self.node_of(x, f) else {
            return Ok(None);
        };
        let axis = match d {
            Some(v) => match v.as_i64().and_then(|a| usize::try_from(a).ok()) {
                Some(a) => a,
                None => return Ok(None),
            },
            // Quasar's default: along the second index (a matrix's rows).
            None => 1,
        };
        if f.b.dims(n).len() == 1 {
            // A vec is 1×N: its second index runs along it.
            return match axis {
                1 => self.vector_scan(n, r, f, span),
                _ => Ok(None),
            };
        }
        let Some(done) = f.b.finish_scan(n, r, axis) else {
            return Ok(None);
        };
        let Some(along) = done.region.along else {
            return Ok(None);
        };
        if done.dims.iter().product::<usize>() == 0 {
            return Ok(None);
        }
        let out = self.alloc_out(done.dims.clone(), elem_type(along.elem), span)?;
        self.launch_region(&done, Some(out.clone()), f, span)?;
        Ok(Some(Value::Array(out)))
    }
}

/// Whether `outs`, a min/max kernel's outputs without a count of numbers (one output),
/// holds the output's identity (`+inf` for `min`, `-inf` for `max`).
fn at_identity(r: Reduce, outs: &[KValue]) -> bool {
    match (r, outs) {
        (Reduce::Min, [KValue::Float(x)]) => *x == f64::INFINITY,
        (Reduce::Max, [KValue::Float(x)]) => *x == f64::NEG_INFINITY,
        _ => false,
    }
}
