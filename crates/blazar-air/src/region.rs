//! The nouns of AIR: a region, its inputs and its nodes.

use blazar_kir::{MathFn, Scalar};
use blazar_ops::Binary;

/// One input of a region, in the order the kernel takes them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Input {
    /// An array: element type, rank, and a bit per dimension whose extent is 1 (it
    /// broadcasts against the output).
    Array { elem: Scalar, rank: u8, unit: u8 },
    /// A scalar value, passed as a kernel parameter.
    Scalar(Scalar),
    /// An array read through an index map (a slice `x[a..b, :, k]`, a transpose, a
    /// repmat): per dimension of the array a fixed index, a range over one dimension
    /// of the view, or a tiling of one (`repmat`); `unit` marks the view's dimensions of
    /// extent 1. Indices, starts and steps, and tile extents are kernel parameters (one
    /// for a fixed index, two for a range, one for a tile, in axis order).
    View {
        elem: Scalar,
        axes: Vec<Axis>,
        /// The view's rank.
        rank: u8,
        unit: u8,
    },
    /// An array read at computed linear indices (`x[idx]`, a [`NodeKind::Gather`]):
    /// every element in row-major order; an index outside follows `read` (the array's
    /// access mode: an error by default, 0 for `'safe`, a wrap for `'circular`, ...).
    Table {
        elem: Scalar,
        rank: u8,
        read: blazar_kir::ReadMode,
    },
    /// An array of `rank` dimensions read at the linear index of the result's element:
    /// a reshape (`reshape(x, dims)`, `x[:]`) of the same element count, row-major order
    /// unchanged, so the array is read in place, never copied. Only in regions that run
    /// over one linear index (as gathers).
    Linear { elem: Scalar, rank: u8 },
}

/// One dimension of an array read by an [`Input::View`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// A fixed index.
    Fixed,
    /// `start + step * i` for index `i` of the view's dimension.
    Range(u8),
    /// `start + i` for index `i` of the view's dimension: a range of step 1, with one
    /// parameter (the start), so the index is `pos` plus a uniform term and a backend's
    /// range facts (`blazar_kir::affine`) prove it per row. [`Builder::view`] makes
    /// every range of step 1 one of these.
    ///
    /// [`Builder::view`]: crate::Builder::view
    Shift(u8),
    /// `i mod n` for index `i` of the view's dimension (`n`: the array's extent).
    Tile(u8),
    /// `(i + c) mod n` for index `i` of the view's dimension (`circshift`; parameters
    /// `c` and the extent `n`, at most 2^30).
    Rotate(u8),
}

/// What a node computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// Input `i` of the region (an array element, or the scalar).
    Input(u16),
    /// A constant of the node's type, as the bits of an f64 (reals) or an i64 (ints,
    /// bools).
    Const(u64),
    /// Conversion of the operand to the node's type (C rules; reals to ints saturate).
    Cast(u32),
    Neg(u32),
    /// `bool` negation.
    Not(u32),
    /// An operator or a math function of two operands, computed in one type (both
    /// operands and, except for comparisons, logic and `complex`, the result).
    Binary(Binary, u32, u32),
    Math(MathFn, u32),
    /// `c ? a : b` element-wise, `c` a bool.
    Select(u32, u32, u32),
    /// Element `i` (an int node) of [`Input::Table`] `t`, in row-major order.
    Gather(u16, u32),
    /// Arrays joined along one dimension (`cat`, `horzcat`, `vertcat`, and the stacking
    /// of a matrix literal `[a, b]`): each element is the element of the part that owns
    /// it, that part read at the element's index less the part's start.
    Join(Box<Join>),
}

/// The parts of a [`NodeKind::Join`] and how the result's index reaches them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Join {
    /// The result's rank.
    pub rank: u8,
    /// The result's dimension along which the parts follow each other.
    pub axis: u8,
    /// A bit per result dimension of extent 1 (read at index 0 where the result
    /// broadcasts against a larger operand).
    pub unit: u8,
    /// Every dimension before the axis has extent 1 and every part is read at one
    /// linear index (as a gather): each part is a block of consecutive elements, its
    /// start and extent count elements, and the join runs in flat regions only (a
    /// stack, `vertcat`, `horzcat` of vecs become copies of blocks).
    pub linear: bool,
    pub parts: Vec<JoinPart>,
}

/// One part of a [`Join`]: a node of the join's type and where it sits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct JoinPart {
    pub node: u32,
    /// Int scalar nodes (kernel parameters, so the kernel does not depend on sizes):
    /// the first index along the join's axis that belongs to the part, and how many do.
    pub start: u32,
    pub len: u32,
    /// Per dimension of the part: the result dimension whose index it reads
    /// ([`Join::axis`]: less `start`, kept inside the part), or [`JoinPart::ZERO`]
    /// (a unit dimension the result does not keep: index 0).
    pub dims: Vec<u8>,
}

impl JoinPart {
    pub const ZERO: u8 = u8::MAX;
}

impl NodeKind {
    /// The nodes this one reads (a gather's index, not its table; a join's parts and
    /// their starts and extents).
    pub fn operands(&self) -> Vec<u32> {
        let (a, b, c) = match *self {
            NodeKind::Join(ref j) => {
                return j
                    .parts
                    .iter()
                    .flat_map(|p| [p.node, p.start, p.len])
                    .collect();
            }
            NodeKind::Input(_) | NodeKind::Const(_) => (None, None, None),
            NodeKind::Cast(a)
            | NodeKind::Neg(a)
            | NodeKind::Not(a)
            | NodeKind::Math(_, a)
            | NodeKind::Gather(_, a) => (Some(a), None, None),
            NodeKind::Binary(_, a, b) => (Some(a), Some(b), None),
            NodeKind::Select(c, a, b) => (Some(c), Some(a), Some(b)),
        };
        a.into_iter().chain(b).chain(c).collect()
    }
}

/// A typed node. Operands are earlier nodes of the same region.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub kind: NodeKind,
    pub ty: Scalar,
}

/// A reduction of every element of a region's result to one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reduce {
    Sum,
    Prod,
    /// NaN-ignoring for reals.
    Min,
    Max,
}

/// A whole-array expression: inputs, nodes (operands before users) and the root, whose
/// type is the result's element type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    pub inputs: Vec<Input>,
    pub nodes: Vec<Node>,
    pub root: u32,
    /// Rank of the result.
    pub rank: u8,
    /// Every array input has the result's shape: the kernel runs over the elements in
    /// order (one linear index); otherwise over the result's dimensions.
    pub flat: bool,
    /// The result is reduced to one value, accumulated in the given type, instead of
    /// stored (`sum(x .* y)`).
    pub reduce: Option<(Reduce, Scalar)>,
    /// With `reduce`: the reduction runs along this dimension of the result only (a
    /// thread per element of the other dimensions, looping over this one), storing each
    /// lane's value, divided by the extent for a mean, as the given element type.
    pub along: Option<Along>,
}

/// A reduction along one dimension (`sum(x, 2)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Along {
    pub axis: u8,
    pub mean: bool,
    /// A running reduction (`cumsum`, `cumprod`): every partial value is stored, so the
    /// result has the operand's shape.
    pub scan: bool,
    /// The element type of the result array.
    pub elem: Scalar,
}

impl Region {
    /// The result's element type.
    pub fn elem(&self) -> Scalar {
        self.nodes[self.root as usize].ty
    }

    /// Element-wise operations in the region (not inputs, constants or casts), for
    /// `--profile` and tests.
    pub fn ops(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| {
                !matches!(
                    n.kind,
                    NodeKind::Input(_) | NodeKind::Const(_) | NodeKind::Cast(_)
                )
            })
            .count()
    }
}
