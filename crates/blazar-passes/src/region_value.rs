//! The element of a region as a KIR expression: its inputs bound to kernel parameters
//! (`bind_inputs`) and its nodes spelled over an element index (`region_value`), shared
//! by the kernels made from regions (`lower_region`, `lower_scan`).

use blazar_air::{Axis, Binary, Input, Join, JoinPart, NodeKind, Region};
use blazar_kir::{
    ArrayDecl, ArrayTy, BinOp, Bind, Const, Expr, ExprKind, Kernel, Param, ReadMode, Scalar, Space,
    Ty, UnOp, VarDecl, WriteMode,
};

/// A read-only, unchecked global array parameter type.
pub(crate) fn input_array(elem: Scalar, rank: u8) -> Ty {
    Ty::Array(ArrayTy {
        elem,
        rank,
        read: ReadMode::Unchecked,
        write: WriteMode::Unchecked,
        is_const: true,
        space: Space::Global,
    })
}

/// Declares each input of `region` as a parameter of `k`: its array slot or variable,
/// and a view's parameter variables.
pub(crate) fn bind_inputs(region: &Region, k: &mut Kernel) -> (Vec<Bind>, Vec<Vec<u32>>) {
    let array = |elem: Scalar, rank: u8, _is_const: bool| input_array(elem, rank);
    let mut binds = Vec::with_capacity(region.inputs.len());
    let mut view_params: Vec<Vec<u32>> = Vec::with_capacity(region.inputs.len());
    for (i, input) in region.inputs.iter().enumerate() {
        let name = format!("in{i}");
        let bind = match input {
            Input::Array { elem, rank, .. } => {
                k.arrays.push(ArrayDecl {
                    name: name.clone(),
                    ty: array(*elem, *rank, true),
                });
                Bind::Array(k.arrays.len() as u32 - 1)
            }
            Input::Scalar(s) => {
                k.vars.push(VarDecl {
                    name: name.clone(),
                    ty: Ty::Scalar(*s),
                });
                Bind::Var(k.vars.len() as u32 - 1)
            }
            Input::View { elem, axes, .. } => {
                k.arrays.push(ArrayDecl {
                    name: name.clone(),
                    ty: array(*elem, axes.len() as u8, true),
                });
                Bind::Array(k.arrays.len() as u32 - 1)
            }
            Input::Linear { elem, rank } => {
                k.arrays.push(ArrayDecl {
                    name: name.clone(),
                    ty: array(*elem, *rank, true),
                });
                Bind::Array(k.arrays.len() as u32 - 1)
            }
            Input::Table { elem, rank, read } => {
                let mut ty = array(*elem, *rank, true);
                if let Ty::Array(a) = &mut ty {
                    a.read = *read;
                }
                k.arrays.push(ArrayDecl {
                    name: name.clone(),
                    ty,
                });
                Bind::Array(k.arrays.len() as u32 - 1)
            }
        };
        k.params.push(Param {
            name: name.clone(),
            bind,
        });
        binds.push(bind);
        // A view's indices, starts and steps follow its array.
        let mut params = Vec::new();
        if let Input::View { axes, .. } = input {
            for (a, axis) in axes.iter().enumerate() {
                let names: &[&str] = match axis {
                    Axis::Fixed => &["at"],
                    Axis::Range(_) => &["start", "step"],
                    Axis::Shift(_) => &["start"],
                    Axis::Tile(_) => &["tile"],
                    Axis::Rotate(_) => &["rot", "ext"],
                };
                for p in names {
                    k.vars.push(VarDecl {
                        name: format!("{name}_{p}{a}"),
                        ty: Ty::I32,
                    });
                    let v = k.vars.len() as u32 - 1;
                    k.params.push(Param {
                        name: format!("{name}_{p}{a}"),
                        bind: Bind::Var(v),
                    });
                    params.push(v);
                }
            }
        }
        view_params.push(params);
    }
    (binds, view_params)
}

/// The value of `region`'s root at element `elem` (flat regions) or at the element
/// whose index in dimension `j` is `full_lane(j)`.
pub(crate) fn region_value(
    region: &Region,
    binds: &[Bind],
    view_params: &[Vec<u32>],
    elem: &Expr,
    full_lane: &dyn Fn(usize) -> Expr,
) -> Expr {
    let at = if region.flat {
        At::Flat(elem.clone())
    } else {
        At::Index((0..region.rank as usize).map(full_lane).collect())
    };
    let v = Values {
        region,
        binds,
        view_params,
    };
    v.value(region.root, &at)
}

/// Where nodes are evaluated: at one linear index (a flat region), or at one index
/// per dimension (the result's, or a join part's), inputs aligned to the last ones.
enum At {
    Flat(Expr),
    Index(Vec<Expr>),
}

struct Values<'a> {
    region: &'a Region,
    binds: &'a [Bind],
    view_params: &'a [Vec<u32>],
}

fn i32b(op: BinOp, a: Expr, b: Expr) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), Ty::I32)
}

impl Values<'_> {
    /// Node `root` at `at`: the nodes it needs, in order; a join's parts each at
    /// their own index.
    fn value(&self, root: u32, at: &At) -> Expr {
        let nodes = &self.region.nodes;
        let n = root as usize;
        let mut need = vec![false; n + 1];
        need[n] = true;
        for i in (0..=n).rev() {
            if !need[i] {
                continue;
            }
            match &nodes[i].kind {
                NodeKind::Join(j) => {
                    for p in &j.parts {
                        need[p.start as usize] = true;
                        need[p.len as usize] = true;
                    }
                }
                k => {
                    for a in k.operands() {
                        need[a as usize] = true;
                    }
                }
            }
        }
        let mut exprs: Vec<Option<Expr>> = vec![None; n + 1];
        for i in 0..=n {
            if need[i] {
                exprs[i] = Some(self.node(i, at, &exprs));
            }
        }
        exprs[n].take().expect("the root is needed")
    }

    /// The index of dimension `j` of an operand of rank `r`, its dimensions lined up
    /// with `at`'s as broadcasting lines them up (`blazar_ops::broadcast::result_dim`).
    fn lane(at: &At, r: usize, j: usize) -> Expr {
        match at {
            At::Index(ix) => ix[blazar_ops::broadcast::result_dim(r, ix.len(), j)].clone(),
            At::Flat(e) => e.clone(),
        }
    }

    fn node(&self, i: usize, at: &At, exprs: &[Option<Expr>]) -> Expr {
        let region = self.region;
        let node = &region.nodes[i];
        let ty = Ty::Scalar(node.ty);
        let get = |i: u32| exprs[i as usize].clone().expect("operands come first");
        let arg = |i: u32| Box::new(get(i));
        let kind = match &node.kind {
            NodeKind::Input(i) => match (self.binds[*i as usize], &region.inputs[*i as usize]) {
                (Bind::Var(v), _) => ExprKind::Var(v),
                (Bind::Array(a), Input::Array { rank: r, unit, .. }) => {
                    let index = match at {
                        At::Flat(e) => vec![e.clone()],
                        At::Index(_) => (0..*r as usize)
                            .map(|j| {
                                if unit & (1 << j) != 0 {
                                    Expr::int(0)
                                } else {
                                    Self::lane(at, *r as usize, j)
                                }
                            })
                            .collect(),
                    };
                    ExprKind::Load {
                        arr: a,
                        index,
                        at: Default::default(),
                    }
                }
                (
                    Bind::Array(a),
                    Input::View {
                        axes,
                        rank: vr,
                        unit,
                        ..
                    },
                ) => {
                    let ps = &self.view_params[*i as usize];
                    let var = |v: u32| Expr::new(ExprKind::Var(v), Ty::I32);
                    let vr = *vr as usize;
                    let mut p = 0;
                    let mut index = Vec::with_capacity(axes.len());
                    for axis in axes {
                        index.push(match *axis {
                            Axis::Fixed => {
                                p += 1;
                                var(ps[p - 1])
                            }
                            Axis::Range(d) => {
                                let (start, step) = (var(ps[p]), var(ps[p + 1]));
                                p += 2;
                                if unit & (1 << d) != 0 {
                                    start
                                } else {
                                    let l = Self::lane(at, vr, d as usize);
                                    i32b(BinOp::Add, start, i32b(BinOp::Mul, step, l))
                                }
                            }
                            Axis::Shift(d) => {
                                let start = var(ps[p]);
                                p += 1;
                                if unit & (1 << d) != 0 {
                                    start
                                } else {
                                    let l = Self::lane(at, vr, d as usize);
                                    i32b(BinOp::Add, start, l)
                                }
                            }
                            Axis::Rotate(d) => {
                                let (c, n) = (var(ps[p]), var(ps[p + 1]));
                                p += 2;
                                if unit & (1 << d) != 0 {
                                    Expr::int(0)
                                } else {
                                    let l = Self::lane(at, vr, d as usize);
                                    i32b(BinOp::Rem, i32b(BinOp::Add, l, c), n)
                                }
                            }
                            Axis::Tile(d) => {
                                let n = var(ps[p]);
                                p += 1;
                                if unit & (1 << d) != 0 {
                                    Expr::int(0)
                                } else {
                                    i32b(BinOp::Rem, Self::lane(at, vr, d as usize), n)
                                }
                            }
                        });
                    }
                    ExprKind::Load {
                        arr: a,
                        index,
                        at: Default::default(),
                    }
                }
                (Bind::Array(a), Input::Linear { .. }) => match at {
                    At::Flat(e) => ExprKind::Load {
                        arr: a,
                        index: vec![e.clone()],
                        at: Default::default(),
                    },
                    At::Index(_) => unreachable!("a reshaped array is read in flat regions only"),
                },
                (Bind::Array(_), Input::Scalar(_) | Input::Table { .. }) => {
                    unreachable!("scalars bind variables; tables are read by gathers")
                }
            },
            NodeKind::Const(bits) => ExprKind::Const(match node.ty {
                Scalar::Bool => Const::Bool(*bits != 0),
                Scalar::F32 | Scalar::F64 => Const::Float(f64::from_bits(*bits)),
                _ => Const::Int(*bits as i64),
            }),
            NodeKind::Cast(a) => ExprKind::Cast(arg(*a)),
            NodeKind::Neg(a) => ExprKind::Unary(UnOp::Neg, arg(*a)),
            NodeKind::Not(a) => ExprKind::Unary(UnOp::Not, arg(*a)),
            NodeKind::Math(f, a) => ExprKind::Math(*f, vec![get(*a)]),
            NodeKind::Binary(Binary::Math(f), a, b) => ExprKind::Math(*f, vec![get(*a), get(*b)]),
            NodeKind::Binary(Binary::Op(op), a, b) => ExprKind::Binary(*op, arg(*a), arg(*b)),
            NodeKind::Select(c, a, b) => ExprKind::Select(arg(*c), arg(*a), arg(*b)),
            NodeKind::Gather(t, i) => match self.binds[*t as usize] {
                Bind::Array(a) => ExprKind::Load {
                    arr: a,
                    index: vec![get(*i)],
                    at: Default::default(),
                },
                Bind::Var(_) => unreachable!("a table is an array"),
            },
            NodeKind::Join(j) => return self.join(j, ty, at, &get),
        };
        Expr::new(kind, ty)
    }

    /// A join at `at`: the part that owns the index along the axis, chosen by its
    /// start, each part read at an index kept inside it (every part's expression is
    /// safe to evaluate, since an executor may evaluate both sides of a choice).
    fn join(&self, j: &Join, ty: Ty, at: &At, get: &dyn Fn(u32) -> Expr) -> Expr {
        if j.linear {
            let At::Flat(e) = at else {
                unreachable!("a join in blocks is read in flat regions only")
            };
            let values: Vec<Expr> = self.join_parts(j, e, get, |_, along| At::Flat(along));
            return Self::choose(j, e, values, ty, get);
        }
        let r = j.rank as usize;
        let index: Vec<Expr> = (0..r)
            .map(|d| {
                if j.unit & (1 << d) != 0 {
                    Expr::int(0)
                } else {
                    Self::lane(at, r, d)
                }
            })
            .collect();
        let axis = index[j.axis as usize].clone();
        let values = self.join_parts(j, &axis, get, |p, along| {
            At::Index(
                p.dims
                    .iter()
                    .map(|&d| match d {
                        JoinPart::ZERO => Expr::int(0),
                        d if d == j.axis => along.clone(),
                        d => index[d as usize].clone(),
                    })
                    .collect(),
            )
        });
        Self::choose(j, &axis, values, ty, get)
    }

    /// Each part's value where `axis` (the index along the join's axis, or the linear
    /// index of a join in blocks) less its start, kept inside it, places it.
    fn join_parts(
        &self,
        j: &Join,
        axis: &Expr,
        get: &dyn Fn(u32) -> Expr,
        at: impl Fn(&JoinPart, Expr) -> At,
    ) -> Vec<Expr> {
        let last = j.parts.len() - 1;
        j.parts
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let mut along = axis.clone();
                if k > 0 {
                    along = i32b(BinOp::Sub, along, get(p.start));
                    along = i32b(BinOp::Max, along, Expr::int(0));
                }
                if k < last {
                    let top = i32b(BinOp::Sub, get(p.len), Expr::int(1));
                    along = i32b(BinOp::Min, along, top);
                }
                self.value(p.node, &at(p, along))
            })
            .collect()
    }

    /// The value of the part that owns `axis`: the first whose successor starts after it.
    fn choose(j: &Join, axis: &Expr, values: Vec<Expr>, ty: Ty, get: &dyn Fn(u32) -> Expr) -> Expr {
        let last = values.len() - 1;
        let mut out = values[last].clone();
        for k in (0..last).rev() {
            let below = Expr::new(
                ExprKind::Binary(
                    BinOp::Lt,
                    Box::new(axis.clone()),
                    Box::new(get(j.parts[k + 1].start)),
                ),
                Ty::BOOL,
            );
            out = Expr::new(
                ExprKind::Select(Box::new(below), Box::new(values[k].clone()), Box::new(out)),
                ty,
            );
        }
        out
    }
}
