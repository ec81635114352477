//! `cumsum(v)` and `cumprod(v)` of a large vector in two kernels over chunks (see
//! `passes::lower_scan`): the chunks' totals, their exclusive running reduction on the
//! host (a few thousand values), then every chunk scanned from its starting value.
//! A single lane walking the whole vector would leave all but one thread idle.

use super::*;

/// Vectors shorter than this are scanned by one lane (or on the host): two launches
/// and a read-back cost more than they save.
const MIN_CHUNKED: usize = 1 << 16;

/// Elements per chunk: at least 256, and at most 65536 chunks.
fn chunk_len(n: usize) -> usize {
    n.div_ceil(1 << 16).max(256)
}

impl<'p> Interp<'p> {
    /// The running sum or product of vec node `n` as two chunked kernels; `None` leaves
    /// it to the host (short vectors, regions not read at one index).
    pub(super) fn vector_scan(
        &mut self,
        n: NodeRef,
        r: Reduce,
        f: &mut Fusion,
        span: Span,
    ) -> R<Option<Value>> {
        let total = f.b.numel(n);
        if total < MIN_CHUNKED || total > i32::MAX as usize {
            return Ok(None);
        }
        let (Some(sums), Some(scan)) = (
            f.b.finish_vector_scan(n, r, true),
            f.b.finish_vector_scan(n, r, false),
        ) else {
            return Ok(None);
        };
        let (Some(acc), Some(along)) = (scan.region.reduce.map(|(_, t)| t), scan.region.along)
        else {
            return Ok(None);
        };
        let len = chunk_len(total);
        let chunks = total.div_ceil(len);
        let ints = |v: usize| Flat::Value(KValue::Int(v as i64));
        // The chunks' totals.
        let totals = self.alloc_out(vec![chunks], elem_type(acc), span)?;
        let mut flat = vec![Flat::Array(totals.clone())];
        flat.extend(self.region_args(&sums, f, span)?);
        flat.extend([ints(len), ints(total)]);
        self.launch_space(&sums, flat, &[chunks], span)?;
        // Each chunk's starting value, in the accumulator's type.
        let offs = {
            let t = totals.borrow();
            let mut o = blazar_runtime::Array::zeros(vec![chunks], elem_type(acc));
            let mut run = Value::Int(i64::from(r == Reduce::Prod), int_ty(acc));
            if acc.is_float() {
                run = Value::Real(if r == Reduce::Prod { 1.0 } else { 0.0 });
            }
            for i in 0..chunks {
                o.buf.set_value(i, &run);
                let x = t.get_value(i);
                run = match (&run, &x) {
                    (Value::Real(a), Value::Real(b)) if r == Reduce::Prod => Value::Real(a * b),
                    (Value::Real(a), Value::Real(b)) => Value::Real(a + b),
                    (Value::Int(a, ty), Value::Int(b, _)) => {
                        let v = if r == Reduce::Prod {
                            a.wrapping_mul(*b)
                        } else {
                            a.wrapping_add(*b)
                        };
                        Value::Int(ty.wrap(v), *ty)
                    }
                    _ => return Ok(None),
                };
            }
            ArrayRef::new(o)
        };
        // Every chunk scanned again from its starting value.
        let out = self.alloc_out(scan.dims.clone(), elem_type(along.elem), span)?;
        let mut flat = vec![Flat::Array(out.clone())];
        flat.extend(self.region_args(&scan, f, span)?);
        flat.extend([Flat::Array(offs), ints(len), ints(total)]);
        self.launch_space(&scan, flat, &[chunks], span)?;
        Ok(Some(Value::Array(out)))
    }
}

/// The host int type of a KIR int scalar.
fn int_ty(s: Scalar) -> blazar_runtime::IntTy {
    crate::launch_values::int_of(s)
}
