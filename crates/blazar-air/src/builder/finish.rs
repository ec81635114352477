//! Extracting a finished region: the nodes a root needs, renumbered, with the
//! arguments of its inputs; reductions (of all elements or along a dimension) and
//! their accumulator types.

use super::*;

impl Builder {
    /// The region of the nodes `root` depends on (inputs renumbered in order of first
    /// use), the result's shape, and per input of that region its key (arrays) or value
    /// (scalars). `None` when the root is not an array (every operand was a scalar).
    pub fn finish(&self, root: NodeRef, reduce: Option<Reduce>) -> Option<Finished> {
        let dims = self.dims(root).to_vec();
        if dims.is_empty() {
            return None;
        }
        // The nodes `root` reaches, in order (operands come before their users).
        let mut used = vec![false; self.nodes.len()];
        used[root.0 as usize] = true;
        for i in (0..self.nodes.len()).rev() {
            if !used[i] {
                continue;
            }
            for a in self.nodes[i].kind.operands() {
                used[a as usize] = true;
            }
        }
        // A gather's region is plain by construction (`Builder::gather`): one linear
        // index, though the gathered indices may come from arrays of another shape.
        let gathers = self.gathers(root);
        let mut node_map = vec![u32::MAX; self.nodes.len()];
        let mut input_map: Vec<Option<u16>> = vec![None; self.inputs.len()];
        let mut out = Finished {
            region: Region {
                inputs: Vec::new(),
                nodes: Vec::new(),
                root: 0,
                rank: dims.len() as u8,
                flat: true,
                reduce: match reduce {
                    Some(r) => Some((r, self.accumulator(r, self.ty(root))?)),
                    None => None,
                },
                along: None,
            },
            dims,
            args: Vec::new(),
            along_len: 0,
        };
        for (i, node) in self.nodes.iter().enumerate() {
            if !used[i] {
                continue;
            }
            let m = |x: u32| node_map[x as usize];
            let kind = match node.kind {
                NodeKind::Input(j) => {
                    let j = j as usize;
                    let new = match input_map[j] {
                        Some(n) => n,
                        None => {
                            let n = out.region.inputs.len() as u16;
                            out.region.inputs.push(self.inputs[j].clone());
                            let view = self.views.iter().find(|(v, ..)| *v as usize == j);
                            let table = self.tables.iter().find(|(v, _)| *v as usize == j);
                            out.args.push(match (self.keys[j], view, table) {
                                (Some(k), ..) => Arg::Array(k),
                                (None, Some((_, k, p)), _) => Arg::View(*k, p.clone()),
                                (None, None, Some((_, k))) => Arg::Array(*k),
                                (None, None, None) => Arg::Scalar(
                                    self.scalars
                                        .iter()
                                        .find(|(s, _)| *s as usize == j)
                                        .map_or(ScalarArg::Int(0), |(_, v)| *v),
                                ),
                            });
                            input_map[j] = Some(n);
                            n
                        }
                    };
                    let reshaped = match self.inputs[j] {
                        Input::Array { .. } => self.dims[i] != out.dims && !gathers,
                        Input::View { .. } => true,
                        Input::Scalar(_) | Input::Table { .. } | Input::Linear { .. } => false,
                    };
                    if reshaped {
                        out.region.flat = false;
                    }
                    NodeKind::Input(new)
                }
                NodeKind::Const(c) => NodeKind::Const(c),
                NodeKind::Cast(a) => NodeKind::Cast(m(a)),
                NodeKind::Neg(a) => NodeKind::Neg(m(a)),
                NodeKind::Not(a) => NodeKind::Not(m(a)),
                NodeKind::Math(f, a) => NodeKind::Math(f, m(a)),
                NodeKind::Binary(op, a, b) => NodeKind::Binary(op, m(a), m(b)),
                NodeKind::Select(c, a, b) => NodeKind::Select(m(c), m(a), m(b)),
                NodeKind::Join(ref j) => {
                    // Parts are read at other indices than the result's: flat only
                    // when they are blocks of consecutive elements.
                    if !j.linear {
                        out.region.flat = false;
                    }
                    let mut j = j.clone();
                    for p in &mut j.parts {
                        (p.node, p.start, p.len) = (m(p.node), m(p.start), m(p.len));
                    }
                    NodeKind::Join(j)
                }
                NodeKind::Gather(t, a) => {
                    let t = t as usize;
                    let new = match input_map[t] {
                        Some(n) => n,
                        None => {
                            let n = out.region.inputs.len() as u16;
                            out.region.inputs.push(self.inputs[t].clone());
                            let key = self.tables.iter().find(|(v, _)| *v as usize == t);
                            out.args.push(Arg::Array(key.map_or(0, |(_, k)| *k)));
                            input_map[t] = Some(n);
                            n
                        }
                    };
                    NodeKind::Gather(new, m(a))
                }
            };
            node_map[i] = out.region.nodes.len() as u32;
            out.region.nodes.push(Node { kind, ty: node.ty });
        }
        out.region.root = node_map[root.0 as usize];
        Some(out)
    }
}

impl Builder {
    /// `sum`, `prod` or (`mean`) of node `root` along dimension `axis` of its shape (at
    /// least 2 dimensions): the region and its result's shape (the other dimensions).
    pub fn finish_along(
        &self,
        root: NodeRef,
        r: Reduce,
        axis: usize,
        mean: bool,
    ) -> Option<Finished> {
        self.along(root, r, axis, mean, false)
    }

    /// `cumsum` or `cumprod` of node `root` along dimension `axis` (at least 2
    /// dimensions): the region, whose result has the operand's shape.
    pub fn finish_scan(&self, root: NodeRef, r: Reduce, axis: usize) -> Option<Finished> {
        self.along(root, r, axis, false, true)
    }

    /// `cumsum` or `cumprod` of a vec node `root`, run in chunks: the region reads its
    /// elements at one linear index (`flat`) and runs along its only dimension; the
    /// kernel of `totals` (`along.scan` false) sums each chunk, the other one scans each
    /// chunk from the chunks before it (`passes::lower_region` lowers both). `None`
    /// where the elements are not read at one linear index (views, broadcasting).
    pub fn finish_vector_scan(&self, root: NodeRef, r: Reduce, totals: bool) -> Option<Finished> {
        if self.dims(root).len() != 1 || !matches!(r, Reduce::Sum | Reduce::Prod) {
            return None;
        }
        let mut done = self.finish(root, Some(r))?;
        let (_, acc) = done.region.reduce?;
        if !done.region.flat {
            return None;
        }
        let elem = if acc.is_float() {
            self.prec.real()
        } else {
            acc
        };
        done.region.along = Some(Along {
            axis: 0,
            mean: false,
            scan: !totals,
            elem: if totals { acc } else { elem },
        });
        done.along_len = done.dims[0];
        Some(done)
    }

    fn along(
        &self,
        root: NodeRef,
        r: Reduce,
        axis: usize,
        mean: bool,
        scan: bool,
    ) -> Option<Finished> {
        let rank = self.dims(root).len();
        if rank < 2
            || axis >= rank
            || !matches!(r, Reduce::Sum | Reduce::Prod)
            || self.gathers(root)
        {
            return None;
        }
        let mut done = self.finish(root, Some(r))?;
        let (_, mut acc) = done.region.reduce?;
        if mean {
            acc = mean_accumulator(acc);
            done.region.reduce = Some((r, acc));
        }
        let elem = if mean || acc.is_float() {
            self.prec.real()
        } else {
            acc
        };
        done.region.along = Some(Along {
            axis: axis as u8,
            mean,
            scan,
            elem,
        });
        done.region.flat = false;
        done.along_len = if scan {
            done.dims[axis]
        } else {
            done.dims.remove(axis)
        };
        Some(done)
    }

    /// The type a reduction of values of type `t` accumulates in, as the host does
    /// (`runtime::builtins::reduce`): reals in f64 (rounded once at the end; min and
    /// max in their own type); sums of ints in int64 (`sum_type` there: a sum of up to
    /// 2^32 values of 32 bits cannot wrap; uint64 sums are left to the host); products
    /// of ints in the int type (wrapping, 8- and 16-bit types promoted to int); min and
    /// max in the element type. `None` where AIR leaves the reduction to the host.
    fn accumulator(&self, r: Reduce, t: Scalar) -> Option<Scalar> {
        match t {
            // min and max are exact in any type: f32 data stays f32 (twice the lanes).
            Scalar::F32 if matches!(r, Reduce::Min | Reduce::Max) => Some(Scalar::F32),
            Scalar::F32 | Scalar::F64 => Some(Scalar::F64),
            Scalar::I8
            | Scalar::I16
            | Scalar::I32
            | Scalar::I64
            | Scalar::U8
            | Scalar::U16
            | Scalar::U32
                if r == Reduce::Sum =>
            {
                Some(Scalar::I64)
            }
            Scalar::I32 | Scalar::I64 => Some(t),
            Scalar::I8 | Scalar::I16 | Scalar::U8 | Scalar::U16 if r == Reduce::Prod => {
                Some(Scalar::I32)
            }
            _ => None,
        }
    }

    /// `mean` of node `root`'s elements: a sum, accumulated in f64 for ints as the
    /// host's mean of ints is (exact while the sum stays below 2^53).
    pub fn finish_mean(&self, root: NodeRef) -> Option<Finished> {
        let mut done = self.finish(root, Some(Reduce::Sum))?;
        if let Some((r, acc)) = done.region.reduce {
            done.region.reduce = Some((r, mean_accumulator(acc)));
        }
        Some(done)
    }
}

/// The accumulator of a mean whose sum accumulates in `acc`: f64 for ints.
fn mean_accumulator(acc: Scalar) -> Scalar {
    if acc.is_float() {
        acc
    } else {
        Scalar::F64
    }
}

/// One argument of a finished region: an array (by the caller's key), a view of one
/// with its parameters, or a scalar.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Array(usize),
    View(usize, Vec<i64>),
    Scalar(ScalarArg),
}

/// A region ready to lower and launch.
#[derive(Clone, Debug)]
pub struct Finished {
    pub region: Region,
    /// The result's shape.
    pub dims: Vec<usize>,
    /// Per input of the region.
    pub args: Vec<Arg>,
    /// The extent of the dimension a reduction runs along (`Region::along`), else 0.
    pub along_len: usize,
}
