//! Arrays read through index maps inside a region: slices (`x[a..s..b, :, k]`),
//! `copy`, `transpose` and `repmat`, each a view of the array (AIR `Input::View`);
//! gathers `x[idx]` with an int array of indices (AIR `Input::Table`); and the keys by
//! which a region holds the arrays it reads.

use super::*;

/// Whether an index list selects a slice (some `:` or range).
pub(super) fn is_slice(args: &[Expr]) -> bool {
    args.iter()
        .any(|a| matches!(a.kind, ExprKind::Colon | ExprKind::Range { .. }))
}

/// Elements of an inclusive range (0 when it goes the wrong way).
pub(super) fn range_len(start: i64, step: i64, end: i64) -> i64 {
    if (step > 0 && end < start) || (step < 0 && end > start) || step == 0 {
        0
    } else {
        (end - start) / step + 1
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Move {
    Copy,
    Transpose,
    Repmat,
    /// `flipud`, `fliplr`, `circshift`: the array's shape, elements reordered.
    FlipUd,
    FlipLr,
    Circshift,
    /// `reshape(x, dims)`: a view of the elements on the host (no node).
    Reshape,
}

impl Fusion {
    /// Keeps `arr` (the region input `key`) alive until the launch, once.
    pub(super) fn hold(&mut self, key: usize, arr: &ArrayRef) {
        if !self.arrays.iter().any(|(k, _)| *k == key) {
            self.arrays.push((key, arr.clone()));
        }
    }

    /// The input key of `arr` (its store), or `None` when the region already reads the
    /// same elements under another shape (a reshaped view and its array: one kernel
    /// takes an array with one shape, so the host evaluates that operation).
    pub(super) fn key(&self, arr: &ArrayRef) -> Option<usize> {
        let key = Rc::as_ptr(&arr.data) as usize;
        let clash = self
            .arrays
            .iter()
            .any(|(k, a)| *k == key && !a.same_view(arr));
        (!clash).then_some(key)
    }
}

impl<'p> Interp<'p> {
    /// `copy`, `transpose` or `repmat` of `arr` as a node (a view through an index
    /// map); `None` where the host's rules need more (a vec, a bad repetition count).
    pub(super) fn move_node(
        &self,
        m: Move,
        arr: &ArrayRef,
        rest: &[Value],
        f: &mut Fusion,
    ) -> Option<NodeRef> {
        if m == Move::Copy {
            return self.node_of(&Operand::Val(Value::Array(arr.clone()), false), f);
        }
        if matches!(m, Move::FlipUd | Move::FlipLr | Move::Circshift) {
            return self.reorder_node(m, arr, rest, f);
        }
        if m == Move::Reshape {
            // A view on the host (`ArrayRef::reshaped`), never a node.
            return None;
        }
        let meta = arr.meta().ok()?;
        let elem = elem_scalar(meta.elem())?;
        let src = meta.dims.clone();
        drop(meta);
        if src.len() < 2 || src.len() > 4 {
            return None;
        }
        // The result's dimensions before the host drops unit dimensions (`canonical_dims`), and per array
        // dimension the result dimension it runs along.
        let (full, along): (Vec<usize>, Vec<usize>) = match m {
            Move::Transpose if src.len() == 2 => (vec![src[1], src[0]], vec![1, 0]),
            Move::Repmat => {
                let reps: Vec<i64> = match rest {
                    [Value::Array(r)] => {
                        let a = r.try_borrow().ok()?;
                        (0..a.len()).map(|i| a.buf.get_f64(i) as i64).collect()
                    }
                    vals => vals.iter().map(|v| v.as_i64()).collect::<Option<_>>()?,
                };
                if reps.iter().any(|&k| k < 1) || reps.len() > 4 {
                    return None;
                }
                let r = src.len().max(reps.len());
                let full = (0..r)
                    .map(|k| src.get(k).copied().unwrap_or(1) * *reps.get(k).unwrap_or(&1) as usize)
                    .collect();
                (full, (0..src.len()).collect())
            }
            _ => return None,
        };
        let dims = blazar_runtime::Array::canonical_dims(&full);
        // Only a 1×N result drops a leading unit; trailing units drop too.
        let dropped = usize::from(full.len() >= 2 && dims.len() == 1);
        if dims.iter().product::<usize>() == 0 || dims.len() > 4 {
            return None;
        }
        let (mut axes, mut params) = (Vec::new(), Vec::new());
        for (j, &d) in along.iter().enumerate() {
            if d < dropped || d - dropped >= dims.len() {
                axes.push(Axis::Fixed);
                params.push(0);
            } else if m == Move::Repmat && full[d] != src[j] {
                axes.push(Axis::Tile((d - dropped) as u8));
                params.push(src[j] as i64);
            } else {
                // Not repeated (or transposed): the index itself, no remainder.
                axes.push(Axis::Range((d - dropped) as u8));
                params.extend([0, 1]);
            }
        }
        let key = f.key(arr)?;
        let n = f.b.view(key, elem, axes, params, dims)?;
        f.hold(key, arr);
        Some(n)
    }

    /// `flipud`, `fliplr` or `circshift` of `arr` as a view of its own shape: per
    /// dimension the index itself, reversed (`n-1-i`), or rotated (`(i + c) mod n`),
    /// with the host's rules for which dimension (`size`: a vec is 1×N; `circshift(x,
    /// k)` shifts the first dimension that is not 1). `None` for arguments the host
    /// should judge.
    fn reorder_node(
        &self,
        m: Move,
        arr: &ArrayRef,
        rest: &[Value],
        f: &mut Fusion,
    ) -> Option<NodeRef> {
        let meta = arr.meta().ok()?;
        let elem = elem_scalar(meta.elem())?;
        let (dims, size) = (meta.dims.clone(), meta.size());
        drop(meta);
        let n: usize = dims.iter().product();
        if dims.is_empty() || dims.len() > 4 || n == 0 || dims.iter().any(|&d| d > 1 << 30) {
            return None;
        }
        let (mut flip, mut shift) = (vec![false; size.len()], vec![0i64; size.len()]);
        match m {
            Move::FlipUd => flip[0] = true,
            Move::FlipLr => flip[1] = true,
            _ => {
                let shifts: Vec<i64> = match rest.first()? {
                    Value::Array(r) => {
                        let a = r.try_borrow().ok()?;
                        if a.is_cell() || a.elem().is_complex() {
                            return None;
                        }
                        (0..a.len())
                            .map(|i| a.get_value(i).as_i64())
                            .collect::<Option<_>>()?
                    }
                    v => vec![v.as_i64()?],
                };
                match rest.get(1) {
                    Some(d) => {
                        let d = usize::try_from(d.as_i64()?).ok().filter(|&d| d < 16)?;
                        if shifts.len() != 1 {
                            return None;
                        }
                        if d < size.len() {
                            shift[d] = shifts[0];
                        }
                    }
                    None if shifts.len() == 1 => {
                        let d = size.iter().position(|&e| e != 1).unwrap_or(0);
                        shift[d] = shifts[0];
                    }
                    None => {
                        for (k, s) in shifts.iter().enumerate().take(size.len()) {
                            shift[k] = *s;
                        }
                    }
                }
            }
        }
        // Logical dimensions before `lead` are the unit row of a vec.
        let lead = size.len() - dims.len();
        let (mut axes, mut params) = (Vec::new(), Vec::new());
        for (j, &e) in dims.iter().enumerate() {
            let (k, e) = (j + lead, e as i64);
            let c = (e - shift[k].rem_euclid(e)) % e;
            if flip[k] && e > 1 {
                axes.push(Axis::Range(j as u8));
                params.extend([e - 1, -1]);
            } else if c != 0 {
                axes.push(Axis::Rotate(j as u8));
                params.extend([c, e]);
            } else {
                axes.push(Axis::Range(j as u8));
                params.extend([0, 1]);
            }
        }
        let key = f.key(arr)?;
        let node = f.b.view(key, elem, axes, params, dims)?;
        f.hold(key, arr);
        Some(node)
    }

    /// `arr[:]` (every element as a vec) as the array read in place at the result's
    /// linear index (row-major order is unchanged). `None` where the host must judge
    /// (a vec, an empty array) or the shape stays.
    pub(super) fn colon_node(&self, arr: &ArrayRef, f: &mut Fusion) -> Option<NodeRef> {
        let meta = arr.meta().ok()?;
        let elem = elem_scalar(meta.elem())?;
        let (src, n) = (meta.dims.clone(), meta.len());
        drop(meta);
        if src.len() < 2 || n == 0 || src.len() > 4 {
            return None;
        }
        let key = f.key(arr)?;
        let node = f.b.linear(key, elem, src.len() as u8, vec![n])?;
        f.hold(key, arr);
        Some(node)
    }

    /// A slice of `arr` as a view node, when every index is inside the array (else the
    /// host reads it and reports what is wrong).
    pub(super) fn view_node(
        &self,
        arr: &ArrayRef,
        idx: &[IndexArg],
        f: &mut Fusion,
    ) -> Option<NodeRef> {
        let m = arr.meta().ok()?;
        let elem = elem_scalar(m.elem())?;
        if m.dims.len() != idx.len() || m.len() > i32::MAX as usize {
            return None;
        }
        // Per index: (start, step, count); a scalar index is a count of 1 whose
        // dimension stays unless the host's slice rule drops it.
        let mut sel = Vec::with_capacity(idx.len());
        for (a, &n) in idx.iter().zip(&m.dims) {
            let n = n as i64;
            let (start, step, len) = match a {
                IndexArg::All => (0, 1, n),
                IndexArg::Range { start, step, end } => {
                    (*start, *step, range_len(*start, *step, *end))
                }
                IndexArg::Value(v) => {
                    let i = match v {
                        Value::Int(i, _) => *i,
                        Value::Real(x) if x.fract() == 0.0 => *x as i64,
                        _ => return None,
                    };
                    if !(0..n).contains(&i) {
                        return None;
                    }
                    (i, 0, 1)
                }
            };
            let last = start.checked_add(step.checked_mul(len - 1)?)?;
            if len <= 0 || !(0..n).contains(&start) || !(0..n).contains(&last) {
                return None;
            }
            sel.push((start, step, len));
        }
        // The host's shape (`index::slice_dims`): dimensions kept from `lead` on.
        let lens: Vec<usize> = sel.iter().map(|s| s.2 as usize).collect();
        let dims = blazar_runtime::index::slice_dims(&lens);
        let lead = if idx.len() >= 2 && dims.len() < 2 {
            1
        } else {
            0
        };
        let (mut axes, mut params) = (Vec::new(), Vec::new());
        for (j, &(start, step, len)) in sel.iter().enumerate() {
            let out = j.wrapping_sub(lead);
            if len == 1 || out >= dims.len() || j < lead {
                // One coordinate: fixed (its unit output dimension, if kept, is read at 0).
                axes.push(Axis::Fixed);
                params.push(start);
            } else {
                axes.push(Axis::Range(out as u8));
                params.extend([start, step]);
            }
        }
        let key = f.key(arr)?;
        let n = f.b.view(key, elem, axes, params, dims)?;
        f.hold(key, arr);
        Some(n)
    }

    /// `table[index]` as a gather node: `index` an int node (a single index argument of
    /// int type is a list of linear indices on the host, never a mask), `table` read
    /// outside as its access mode says (an error for the default, checked and
    /// unchecked modes, 0 for `'safe`). `None` where the host's rules differ (an int
    /// vector as long as the table's rank is a position) or the mode wraps.
    pub(super) fn gather_node(
        &self,
        table: &ArrayRef,
        index: NodeRef,
        f: &mut Fusion,
    ) -> Option<NodeRef> {
        use blazar_kir::ReadMode;
        let read = match table.mode.mode {
            blazar_runtime::Mode::Default
            | blazar_runtime::Mode::Checked
            | blazar_runtime::Mode::Unchecked => ReadMode::Checked,
            blazar_runtime::Mode::Safe => ReadMode::Zero,
            _ => return None,
        };
        let m = table.meta().ok()?;
        let elem = elem_scalar(m.elem())?;
        let rank = m.dims.len();
        let logical = m.size().len();
        drop(m);
        if rank == 0 || rank > 4 {
            return None;
        }
        let idims = f.b.dims(index).to_vec();
        if idims.len() == 1 && rank >= 2 && idims[0] == logical {
            return None;
        }
        let key = f.key(table)?;
        let n = f.b.gather(key, elem, rank as u8, read, index)?;
        f.hold(key, table);
        Some(n)
    }

    /// `table[index]` with a large int array `index`, as a kernel (`None`: the host's
    /// indexing runs).
    pub(crate) fn gather_kernel(
        &mut self,
        table: &ArrayRef,
        index: &Value,
        span: Span,
    ) -> R<Option<Value>> {
        let o = Operand::Val(index.clone(), false);
        let Value::Array(ix) = index else {
            return Ok(None);
        };
        let int = ix
            .meta()
            .is_ok_and(|m| matches!(m.elem(), blazar_runtime::ElemType::Int(_)));
        if !int || !self.big(&o) || self.backend.is_none() {
            return Ok(None);
        }
        let mut f = self.fusion();
        let Some(n) = self.node_of(&o, &mut f) else {
            return Ok(None);
        };
        let Some(g) = self.gather_node(table, n, &mut f) else {
            return Ok(None);
        };
        self.force(Operand::Node(g), &mut f, span).map(Some)
    }
}
