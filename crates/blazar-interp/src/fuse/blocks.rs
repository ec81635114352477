//! Regions that only move elements in blocks, standing alone as a statement's value: a
//! slice of whole rows (`x[a..b, :, :]`, `x[:, 2..5, :]`) or of elements a constant
//! step apart (a channel `x[:, :, k]`, a column), a `repmat` of an array, and a
//! concatenation of arrays (`[x, y]`, `cat(2, x, y)`, `horzcat`, `vertcat`). On the host
//! these are copies of runs of consecutive elements (`memcpy`), fills, or one strided
//! run per row, over rayon's threads (`runtime::index::{copy_blocks, tile, join}`):
//! faster than a kernel that computes an index per element, and they need no compiled
//! kernel on a first run. A whole `copy(x)` stays a kernel: it runs on every core and
//! may reuse the old result.

use super::*;
use blazar_air::{Input, NodeKind};

impl<'p> Interp<'p> {
    /// The result of `done` copied on the host in blocks, when its value is one input
    /// read through a view in the array's order (`copy_blocks` takes its selection, or
    /// `tile` a repmat), or a join of whole arrays, and the arrays live on the host;
    /// `None` lets the region run as a kernel.
    pub(super) fn block_copy(&self, done: &Finished, f: &Fusion) -> Option<ArrayRef> {
        let region = &done.region;
        if self.device_arrays || region.reduce.is_some() || region.along.is_some() {
            return None;
        }
        let root = region.nodes.get(region.root as usize)?;
        let i = match &root.kind {
            NodeKind::Input(i) => *i,
            NodeKind::Join(j) => return self.join_copy(done, f, j),
            _ => return None,
        };
        let (key, axes, params) = match (region.inputs.get(i as usize)?, done.args.get(i as usize)?)
        {
            (Input::View { elem, axes, .. }, Arg::View(key, params)) if *elem == root.ty => {
                (*key, axes, params)
            }
            _ => return None,
        };
        let arr = &f.arrays.iter().find(|(k, _)| *k == key)?.1;
        let src = arr.try_borrow().ok()?;
        let dims = src.dims().to_vec();
        if axes.len() != dims.len() {
            return None;
        }
        // A repmat: a dimension tiled, or one the source lacks.
        let ranges = axes
            .iter()
            .filter(|a| matches!(a, Axis::Range(_) | Axis::Shift(_)))
            .count();
        let buf = if ranges < done.dims.len() || axes.iter().any(|a| matches!(a, Axis::Tile(_))) {
            let s = tiled_dims(axes, params, &dims, &done.dims)?;
            blazar_runtime::index::tile(src.buf(), &s, &done.dims)?
        } else {
            let mut sel = Vec::with_capacity(axes.len());
            let mut p = params.iter();
            // The view's dimensions must follow the array's in order (a transpose
            // reorders them: its elements are not the array's in row-major order).
            let mut next_dim = 0u8;
            for a in axes {
                sel.push(match a {
                    Axis::Fixed => (usize::try_from(*p.next()?).ok()?, 0, 1),
                    Axis::Range(v) | Axis::Shift(v) => {
                        if *v < next_dim {
                            return None;
                        }
                        next_dim = *v + 1;
                        let start = usize::try_from(*p.next()?).ok()?;
                        let step = match a {
                            Axis::Shift(_) => 1,
                            _ => *p.next()?,
                        };
                        (start, step, *done.dims.get(*v as usize)?)
                    }
                    Axis::Tile(_) | Axis::Rotate(_) => return None,
                });
            }
            if sel.iter().map(|s| s.2).product::<usize>() != done.dims.iter().product::<usize>() {
                return None;
            }
            blazar_runtime::index::copy_blocks(src.buf(), &dims, &sel)?
        };
        Some(ArrayRef::new(blazar_runtime::Array::new(
            done.dims.clone(),
            buf,
        )))
    }

    /// A join whose parts are whole host arrays of the result's element type, each
    /// read in its own row-major order: per block of the dimensions before the axis,
    /// one run of each part in turn.
    fn join_copy(&self, done: &Finished, f: &Fusion, j: &blazar_air::Join) -> Option<ArrayRef> {
        let region = &done.region;
        let elem = region.elem();
        let mut parts = Vec::with_capacity(j.parts.len());
        for part in &j.parts {
            let NodeKind::Input(i) = region.nodes.get(part.node as usize)?.kind else {
                return None;
            };
            let key = match (region.inputs.get(i as usize)?, done.args.get(i as usize)?) {
                (Input::Array { elem: e, .. }, Arg::Array(key)) if *e == elem => *key,
                _ => return None,
            };
            // The part's dimensions in the result's order (unit ones aside).
            let kept: Vec<u8> = part
                .dims
                .iter()
                .copied()
                .filter(|&d| d != blazar_air::JoinPart::ZERO)
                .collect();
            if kept.windows(2).any(|w| w[0] >= w[1]) {
                return None;
            }
            parts.push(f.arrays.iter().find(|(k, _)| *k == key)?.1.clone());
        }
        let outer: usize = if j.linear {
            1
        } else {
            done.dims.get(..j.axis as usize)?.iter().product()
        };
        let borrowed = parts
            .iter()
            .map(|a| a.try_borrow().ok())
            .collect::<Option<Vec<_>>>()?;
        let total: usize = borrowed.iter().map(|a| a.buf().len()).sum();
        if total != done.dims.iter().product::<usize>() || total == 0 {
            return None;
        }
        let bufs: Vec<_> = borrowed.iter().map(|a| a.buf()).collect();
        let buf = blazar_runtime::index::join(&bufs, outer)?;
        Some(ArrayRef::new(blazar_runtime::Array::new(
            done.dims.clone(),
            buf,
        )))
    }
}

/// The source's extent per result dimension of a repmat view (1 where the result
/// repeats a dimension the source lacks), when every source dimension is either a
/// unit read at index 0, read whole in order, or tiled, and the result's dimensions
/// follow the source's in order; `None` otherwise.
fn tiled_dims(axes: &[Axis], params: &[i64], src: &[usize], out: &[usize]) -> Option<Vec<usize>> {
    let mut s = vec![1usize; out.len()];
    let mut p = params.iter();
    let mut next = 0usize;
    for (a, &extent) in axes.iter().zip(src) {
        match *a {
            Axis::Fixed => {
                if *p.next()? != 0 || extent != 1 {
                    return None;
                }
            }
            Axis::Range(v) | Axis::Shift(v) | Axis::Tile(v) => {
                let v = v as usize;
                if v < next || v >= out.len() {
                    return None;
                }
                next = v + 1;
                if let Axis::Range(_) | Axis::Shift(_) = a {
                    let start = *p.next()?;
                    let step = match a {
                        Axis::Shift(_) => 1,
                        _ => *p.next()?,
                    };
                    if start != 0 || step != 1 || out[v] != extent {
                        return None;
                    }
                } else if usize::try_from(*p.next()?).ok()? != extent || extent == 0 {
                    return None;
                }
                s[v] = extent;
            }
            Axis::Rotate(_) => return None,
        }
    }
    Some(s)
}
