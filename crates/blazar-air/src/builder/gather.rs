//! Gathers `x[idx]` in a region: the table input, and the plainness rules that let a
//! region with a gather run over one linear index.

use super::*;

impl Builder {
    /// `table[index]`: the elements of the array with key `key` (of `elem`, `rank`
    /// dimensions, read outside as `read` says) at the linear indices of the int node
    /// `index`, a vec of as many elements. `index` must be plain (its arrays all of its
    /// shape, no views), so that the gather's region runs over one linear index.
    pub fn gather(
        &mut self,
        key: usize,
        elem: Scalar,
        rank: u8,
        read: blazar_kir::ReadMode,
        index: NodeRef,
    ) -> Option<NodeRef> {
        if !array_elem(elem) || !self.ty(index).is_int() || !self.plain(index) {
            return None;
        }
        let n = self.numel(index);
        if self.dims(index).is_empty() || n > i32::MAX as usize {
            return None;
        }
        let i = self.inputs.len() as u16;
        self.inputs.push(Input::Table { elem, rank, read });
        self.keys.push(None);
        self.tables.push((i, key));
        let at = self.cast(index, Scalar::I64);
        Some(self.push(
            NodeKind::Gather(i, at.0),
            elem,
            vec![n],
            elem == Scalar::F32,
        ))
    }

    /// The array with key `key` (of `elem`, `rank` dimensions) read as an array of
    /// `dims` with the same number of elements in the same order (a reshape): each
    /// element at the result's linear index. Such a node combines only with operands
    /// of its shape, as a gather does, so its region runs over one linear index.
    pub fn linear(
        &mut self,
        key: usize,
        elem: Scalar,
        rank: u8,
        dims: Vec<usize>,
    ) -> Option<NodeRef> {
        let n = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d))?;
        if !array_elem(elem) || dims.is_empty() || dims.len() > 4 || n > i32::MAX as usize {
            return None;
        }
        let i = self.inputs.len() as u16;
        self.inputs.push(Input::Linear { elem, rank });
        self.keys.push(None);
        self.tables.push((i, key));
        Some(self.push(NodeKind::Input(i), elem, dims, elem == Scalar::F32))
    }

    /// Whether every array input under `n` has `n`'s shape and none is a view (a
    /// gather counts as an input of its own shape): the node can be computed at one
    /// linear index.
    pub(super) fn plain(&self, n: NodeRef) -> bool {
        let dims = self.dims(n);
        let mut stack = vec![n.0];
        while let Some(i) = stack.pop() {
            let d = &self.dims[i as usize];
            match self.nodes[i as usize].kind {
                NodeKind::Input(j) => match self.inputs[j as usize] {
                    Input::Scalar(_) => {}
                    Input::Array { .. } | Input::Linear { .. } if d.as_slice() == dims => {}
                    _ => return false,
                },
                NodeKind::Gather(..) if d.as_slice() == dims => {}
                NodeKind::Join(ref j) if j.linear && d.as_slice() == dims => {}
                NodeKind::Gather(..) | NodeKind::Join(_) => return false,
                ref k => stack.extend(k.operands()),
            }
        }
        true
    }

    /// `a` and `b` are plain and of one shape (or scalars).
    pub(super) fn plain_pair(&self, a: NodeRef, b: NodeRef) -> bool {
        let (x, y) = (self.dims(a), self.dims(b));
        (x.is_empty() || y.is_empty() || x == y) && self.plain(a) && self.plain(b)
    }

    /// Whether a gather (or a reshaped array, or a join in blocks: all read at one
    /// linear index) is under `n`.
    pub fn gathers(&self, n: NodeRef) -> bool {
        let mut stack = vec![n.0];
        while let Some(i) = stack.pop() {
            match &self.nodes[i as usize].kind {
                NodeKind::Gather(..) => return true,
                NodeKind::Join(j) if j.linear => return true,
                NodeKind::Input(j) if matches!(self.inputs[*j as usize], Input::Linear { .. }) => {
                    return true
                }
                k => stack.extend(k.operands()),
            }
        }
        false
    }
}
