//! Joins in a region: `cat(d, a, b, ...)`, `horzcat`, `vertcat` and the stacking of a
//! matrix literal `[a, b]`, with the host's shapes and element types
//! (`runtime::builtins::arrange::concat`, `interp::coerce::build_matrix`). Each element
//! of a join reads only the part that owns it; the parts are any nodes (inputs, views,
//! element-wise expressions), so `[x, 2*y] + 1` is one kernel.

use super::*;

/// How the parts of a join are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinKind {
    /// A matrix literal `[a, b, c]` of arrays of one shape: stacked along a new leading
    /// dimension, as reals (complex when a part is complex).
    Stack,
    /// `cat(d, ...)` (`vertcat` is 0, `horzcat` 1): along 0-based dimension `d` of the
    /// parts' `size`s (a vec is 1×N), empty parts left out, in the element type the host
    /// joins in (the parts' own when they agree).
    Cat(usize),
}

/// The dims the host keeps for extents `full` (`Array::canonical_dims`): trailing
/// singleton dimensions drop down to two, and 1×N is a vec.
fn canonical(full: &[usize]) -> Vec<usize> {
    let mut dims = full.to_vec();
    while dims.len() > 2 && dims.last() == Some(&1) {
        dims.pop();
    }
    if dims.len() == 2 && dims[0] == 1 {
        dims.remove(0);
    }
    dims
}

/// `size` of an array of `dims`: a vec is 1×N.
fn size(dims: &[usize]) -> Vec<usize> {
    if dims.len() == 1 {
        vec![1, dims[0]]
    } else {
        dims.to_vec()
    }
}

/// A part placed in a join: its node, start and extent along the axis, and the result
/// dimension of each of its dimensions.
type Placed = (NodeRef, usize, usize, Vec<u8>);

impl Builder {
    /// The parts joined as `kind` says, or `None` where the host must judge (shapes
    /// that do not agree, scalars, gathers, more than 4 dimensions, no part left).
    pub fn join(&mut self, kind: JoinKind, parts: &[NodeRef]) -> Option<NodeRef> {
        // A part with a gather (or a reshape, or a join in blocks) must be read at one
        // linear index: only a join in blocks takes it.
        let bad = |p: &NodeRef| self.dims(*p).is_empty() || (self.gathers(*p) && !self.plain(*p));
        if parts.is_empty() || parts.iter().any(bad) {
            return None;
        }
        if self.len() + 3 * parts.len() + 1 > MAX_NODES {
            return None;
        }
        match kind {
            JoinKind::Stack => self.stack(parts),
            JoinKind::Cat(d) => self.cat(d, parts),
        }
    }

    fn stack(&mut self, parts: &[NodeRef]) -> Option<NodeRef> {
        let inner = self.dims(parts[0]).to_vec();
        if inner.len() > 3 || parts.iter().any(|&p| self.dims(p) != inner.as_slice()) {
            return None;
        }
        let elem = if parts.iter().any(|&p| self.ty(p).is_complex()) {
            complex_of(self.prec)
        } else {
            self.prec.real()
        };
        let mut dims = vec![parts.len()];
        dims.extend(&inner);
        let map: Vec<u8> = (1..=inner.len() as u8).collect();
        let placed = parts
            .iter()
            .enumerate()
            .map(|(k, &p)| (p, k, 1, map.clone()))
            .collect();
        self.push_join(elem, dims, 0, placed)
    }

    fn cat(&mut self, d: usize, parts: &[NodeRef]) -> Option<NodeRef> {
        if d >= 16 {
            return None;
        }
        let parts: Vec<NodeRef> = parts
            .iter()
            .copied()
            .filter(|&p| self.numel(p) > 0)
            .collect();
        let rank = parts
            .iter()
            .map(|&p| size(self.dims(p)).len())
            .max()?
            .max(d + 1);
        let sizes: Vec<Vec<usize>> = parts
            .iter()
            .map(|&p| {
                let mut s = size(self.dims(p));
                s.resize(rank, 1);
                s
            })
            .collect();
        let agree = |s: &Vec<usize>| (0..rank).all(|k| k == d || s[k] == sizes[0][k]);
        if !sizes.iter().all(agree) {
            return None;
        }
        let mut full = sizes[0].clone();
        full[d] = sizes.iter().map(|s| s[d]).sum();
        let dims = canonical(&full);
        let elem = self.joined(&parts);
        if parts.len() == 1 {
            // One part left: itself in the joined type (the host's copy of it).
            if dims != self.dims(parts[0]) {
                return None;
            }
            return Some(self.join_cast(parts[0], elem));
        }
        // The result dimension of each dimension of the padded sizes (`ZERO`: a unit
        // dimension the result drops).
        let vec_row = dims.len() == 1;
        let at = |k: usize| -> u8 {
            let kept = if vec_row {
                (k == 1).then_some(0)
            } else {
                Some(k)
            };
            match kept {
                Some(j) if j < dims.len() => j as u8,
                _ => JoinPart::ZERO,
            }
        };
        let axis = at(d);
        if axis == JoinPart::ZERO {
            return None;
        }
        let mut start = 0;
        let mut placed = Vec::with_capacity(parts.len());
        for (&p, s) in parts.iter().zip(&sizes) {
            let pd = self.dims(p);
            let map = if pd.len() == 1 {
                vec![at(1)]
            } else {
                (0..pd.len()).map(at).collect()
            };
            placed.push((p, start, s[d], map));
            start += s[d];
        }
        self.push_join(elem, dims, axis, placed)
    }

    /// The element type the host joins parts in (`arrange::joined_elem`).
    fn joined(&self, parts: &[NodeRef]) -> Scalar {
        let first = self.ty(parts[0]);
        if parts.iter().all(|&p| self.ty(p) == first) {
            first
        } else if parts.iter().any(|&p| self.ty(p).is_complex()) {
            complex_of(self.prec)
        } else if parts.iter().any(|&p| self.ty(p).is_float()) {
            self.prec.real()
        } else {
            first
        }
    }

    /// `a` converted as the host stores a value into an array of `elem`: ints go
    /// through f64 (so narrowing saturates), except into 64-bit ints.
    fn join_cast(&mut self, a: NodeRef, elem: Scalar) -> NodeRef {
        let t = self.ty(a);
        if t.is_int() && !matches!(elem, Scalar::I64 | Scalar::U64 | Scalar::F64) && t != elem {
            let wide = self.cast(a, Scalar::F64);
            return self.cast(wide, elem);
        }
        self.cast(a, elem)
    }

    fn push_join(
        &mut self,
        elem: Scalar,
        dims: Vec<usize>,
        axis: u8,
        placed: Vec<Placed>,
    ) -> Option<NodeRef> {
        let n = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d))?;
        if dims.len() > 4 || n > i32::MAX as usize {
            return None;
        }
        // Parts in blocks of consecutive elements: nothing before the axis, and each
        // part read at one linear index.
        let linear = dims[..axis as usize].iter().all(|&d| d == 1)
            && placed.iter().all(|(p, ..)| self.plain(*p));
        if !linear && placed.iter().any(|(p, ..)| self.gathers(*p)) {
            return None;
        }
        let inner: usize = if linear {
            dims[axis as usize + 1..].iter().product()
        } else {
            1
        };
        let mut parts = Vec::with_capacity(placed.len());
        for (p, start, len, map) in placed {
            let (start, len) = (start * inner, len * inner);
            let node = self.join_cast(p, elem);
            let start = self.scalar(ScalarArg::Int(start as i64), Scalar::I32, false);
            let len = self.scalar(ScalarArg::Int(len as i64), Scalar::I32, false);
            parts.push(JoinPart {
                node: node.0,
                start: start.0,
                len: len.0,
                dims: map,
            });
        }
        let unit = dims
            .iter()
            .enumerate()
            .filter(|(_, &d)| d == 1)
            .fold(0u8, |m, (i, _)| m | 1 << i);
        let join = Join {
            rank: dims.len() as u8,
            axis,
            unit,
            linear,
            parts,
        };
        let clean = elem == Scalar::F32;
        Some(self.push(NodeKind::Join(Box::new(join)), elem, dims, clean))
    }
}
