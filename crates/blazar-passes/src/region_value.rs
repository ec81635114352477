//! The element of a region as a KIR expression: its inputs bound to kernel parameters
//! (`bind_inputs`) and its nodes spelled over an element index (`region_value`), shared
//! by the kernels made from regions (`lower_region`, `lower_scan`).

use blazar_air::{Axis, Input, NodeKind, Op, Region};
use blazar_kir::{
    ArrayDecl, ArrayTy, BinOp, Bind, Const, Expr, ExprKind, Kernel, MathFn, Param, ReadMode,
    Scalar, Space, Ty, UnOp, VarDecl, WriteMode,
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
    let mut exprs: Vec<Expr> = Vec::with_capacity(region.nodes.len());
    for node in &region.nodes {
        let ty = Ty::Scalar(node.ty);
        let arg = |i: u32| Box::new(exprs[i as usize].clone());
        let kind = match &node.kind {
            NodeKind::Input(i) => match (binds[*i as usize], &region.inputs[*i as usize]) {
                (Bind::Var(v), _) => ExprKind::Var(v),
                (Bind::Array(a), Input::Array { rank: r, unit, .. }) => {
                    let index = if region.flat {
                        vec![elem.clone()]
                    } else {
                        let shift = (region.rank - r) as usize;
                        (0..*r as usize)
                            .map(|j| {
                                if unit & (1 << j) != 0 {
                                    Expr::int(0)
                                } else {
                                    full_lane(j + shift)
                                }
                            })
                            .collect()
                    };
                    ExprKind::Load { arr: a, index }
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
                    let ps = &view_params[*i as usize];
                    let var = |v: u32| Expr::new(ExprKind::Var(v), Ty::I32);
                    let i32b = |op, a: Expr, b: Expr| {
                        Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), Ty::I32)
                    };
                    let shift = (region.rank - vr) as usize;
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
                                    let l = full_lane(d as usize + shift);
                                    i32b(BinOp::Add, start, i32b(BinOp::Mul, step, l))
                                }
                            }
                            Axis::Rotate(d) => {
                                let (c, n) = (var(ps[p]), var(ps[p + 1]));
                                p += 2;
                                if unit & (1 << d) != 0 {
                                    Expr::int(0)
                                } else {
                                    let l = full_lane(d as usize + shift);
                                    i32b(BinOp::Rem, i32b(BinOp::Add, l, c), n)
                                }
                            }
                            Axis::Tile(d) => {
                                let n = var(ps[p]);
                                p += 1;
                                if unit & (1 << d) != 0 {
                                    Expr::int(0)
                                } else {
                                    i32b(BinOp::Rem, full_lane(d as usize + shift), n)
                                }
                            }
                        });
                    }
                    ExprKind::Load { arr: a, index }
                }
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
            NodeKind::Math(f, a) => ExprKind::Math(*f, vec![exprs[*a as usize].clone()]),
            NodeKind::Binary(op @ (Op::Atan2 | Op::Complex), a, b) => ExprKind::Math(
                if *op == Op::Atan2 {
                    MathFn::Atan2
                } else {
                    MathFn::MakeComplex
                },
                vec![exprs[*a as usize].clone(), exprs[*b as usize].clone()],
            ),
            NodeKind::Binary(op, a, b) => ExprKind::Binary(bin_op(*op), arg(*a), arg(*b)),
            NodeKind::Select(c, a, b) => ExprKind::Select(arg(*c), arg(*a), arg(*b)),
            NodeKind::Gather(t, i) => match binds[*t as usize] {
                Bind::Array(a) => ExprKind::Load {
                    arr: a,
                    index: vec![exprs[*i as usize].clone()],
                },
                Bind::Var(_) => unreachable!("a table is an array"),
            },
        };
        exprs.push(Expr::new(kind, ty));
    }
    exprs.swap_remove(region.root as usize)
}

fn bin_op(op: Op) -> BinOp {
    match op {
        Op::Add => BinOp::Add,
        Op::Sub => BinOp::Sub,
        Op::Mul => BinOp::Mul,
        Op::Div => BinOp::Div,
        Op::Pow => BinOp::Pow,
        Op::Rem => BinOp::Rem,
        Op::Min => BinOp::Min,
        Op::Max => BinOp::Max,
        Op::Eq => BinOp::Eq,
        Op::Ne => BinOp::Ne,
        Op::Lt => BinOp::Lt,
        Op::Gt => BinOp::Gt,
        Op::Le => BinOp::Le,
        Op::Ge => BinOp::Ge,
        Op::And => BinOp::And,
        Op::Or => BinOp::Or,
        Op::Atan2 | Op::Complex => unreachable!("math functions in KIR"),
    }
}
