//! Regions that only move elements in blocks: a slice of whole rows (`x[a..b, :, :]`,
//! `x[:, 2..5, :]`) or of elements a constant step apart (a channel `x[:, :, k]`, a
//! column) standing alone as a statement's value. On the host these are copies of a
//! few runs of consecutive elements (`memcpy`) or one strided run per row, faster than
//! a kernel that computes an index per element, and they need no compiled kernel on a
//! first run. A whole `copy(x)` stays a kernel: it runs on every core and may reuse the
//! old result.

use super::*;
use blazar_air::{Input, NodeKind};

impl<'p> Interp<'p> {
    /// The result of `done` copied on the host in blocks, when its value is one input
    /// read through a view in the array's order (`copy_blocks` takes its selection) and
    /// the arrays live on the host; `None` lets the region run as a kernel.
    pub(super) fn block_copy(&self, done: &Finished, f: &Fusion) -> Option<ArrayRef> {
        let region = &done.region;
        if self.device_arrays || region.reduce.is_some() || region.along.is_some() {
            return None;
        }
        let root = region.nodes.get(region.root as usize)?;
        let NodeKind::Input(i) = root.kind else {
            return None;
        };
        let (key, sel) = match (region.inputs.get(i as usize)?, done.args.get(i as usize)?) {
            (Input::View { elem, axes, .. }, Arg::View(key, params)) if *elem == root.ty => {
                let mut sel = Vec::with_capacity(axes.len());
                let mut p = params.iter();
                // The view's dimensions must follow the array's in order (a transpose
                // reorders them: its elements are not the array's in row-major order).
                let mut next_dim = 0u8;
                for a in axes {
                    sel.push(match a {
                        Axis::Fixed => (usize::try_from(*p.next()?).ok()?, 0, 1),
                        Axis::Range(v) => {
                            if *v < next_dim {
                                return None;
                            }
                            next_dim = *v + 1;
                            let start = usize::try_from(*p.next()?).ok()?;
                            (start, *p.next()?, *done.dims.get(*v as usize)?)
                        }
                        Axis::Tile(_) | Axis::Rotate(_) => return None,
                    });
                }
                (*key, sel)
            }
            _ => return None,
        };
        let arr = &f.arrays.iter().find(|(k, _)| *k == key)?.1;
        let src = arr.try_borrow().ok()?;
        let dims = src.dims().to_vec();
        if sel.iter().map(|s| s.2).product::<usize>() != done.dims.iter().product::<usize>() {
            return None;
        }
        let buf = blazar_runtime::index::copy_blocks(src.buf(), &dims, &sel)?;
        Some(ArrayRef::new(blazar_runtime::Array::new(
            done.dims.clone(),
            buf,
        )))
    }
}
