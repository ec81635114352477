//! `lower_region`: an AIR region becomes a KIR kernel, one thread per result element.
//!
//! The kernel takes the result array first, then the region's inputs in order (arrays
//! as array parameters, scalars as variables). A flat region (every array input has the
//! result's shape) runs over the elements in order with one linear index; otherwise the
//! index space is the result's dimensions and each input is read at `pos`, with index
//! 0 in its unit (broadcast) dimensions and its dimensions aligned to the trailing
//! ones. Every access is in bounds by construction, so reads and writes are unchecked.
//! A reducing region has no result array: each thread accumulates its elements into
//! the kernel's one output (`sum(x .* y)` reads `x` and `y` once and allocates
//! nothing); a flat one, lowered for a GPU (`grid_stride`), loops over the elements with
//! a grid stride (parameters `n` and `stride` after the inputs), so the launch chooses
//! how many threads share the work; for the CPU it keeps a thread per element.

use crate::region_value::{bind_inputs, region_value};
use blazar_air::{Reduce, Region};
use blazar_kir::{
    ArrayDecl, ArrayTy, AtomicOp, BinOp, Bind, Const, Expr, ExprKind, Kernel, Output, Param,
    ReadMode, Scalar, Space, Special, Stmt, StmtKind, Ty, VarDecl, WriteMode,
};

/// The kernel of `region`, named `name`, its statement on source `line`.
pub(crate) fn lower_region(region: &Region, name: &str, line: u32, grid_stride: bool) -> Kernel {
    if region.flat && region.along.is_some() {
        // Only a vector's running reduction runs along a flat region.
        return crate::lower_scan::lower_chunk_scan(region, name, line);
    }
    let rank = match (region.flat, region.along) {
        (true, _) => 1,
        (false, Some(_)) => region.rank - 1,
        (false, None) => region.rank,
    };
    let array = |elem: Scalar, rank: u8, is_const: bool| {
        Ty::Array(ArrayTy {
            elem,
            rank,
            read: ReadMode::Unchecked,
            write: WriteMode::Unchecked,
            is_const,
            space: Space::Global,
        })
    };
    let mut k = Kernel {
        name: name.to_string(),
        rank,
        params: Vec::new(),
        outputs: Vec::new(),
        vars: Vec::new(),
        arrays: Vec::new(),
        body: Vec::new(),
        calls: Default::default(),
        facts: Default::default(),
    };
    match (region.reduce, region.along) {
        (None, _) => {
            k.params.push(Param {
                name: "out".into(),
                bind: Bind::Array(0),
            });
            k.arrays.push(ArrayDecl {
                name: "out".into(),
                ty: array(region.elem(), region.rank, false),
            });
        }
        (Some(_), Some(along)) => {
            k.params.push(Param {
                name: "out".into(),
                bind: Bind::Array(0),
            });
            let out_rank = if along.scan { region.rank } else { rank };
            k.arrays.push(ArrayDecl {
                name: "out".into(),
                ty: array(along.elem, out_rank, false),
            });
        }
        (Some((r, ty)), None) => {
            k.outputs.push(Output {
                name: "acc".into(),
                ty,
                op: match r {
                    Reduce::Sum => AtomicOp::Add,
                    Reduce::Prod => AtomicOp::Mul,
                    Reduce::Min => AtomicOp::Min,
                    Reduce::Max => AtomicOp::Max,
                },
            });
            if nan_aware(r, ty) && grid_stride && region.flat {
                k.outputs.push(Output {
                    name: "seen".into(),
                    ty: Scalar::I64,
                    op: AtomicOp::Add,
                });
            }
        }
    }
    let (binds, view_params) = bind_inputs(region, &mut k);
    let pos_ty = if rank == 1 {
        Ty::I32
    } else {
        Ty::Vector(Scalar::I32, rank)
    };
    let pos = Expr::new(ExprKind::Special(Special::Pos), pos_ty);
    let lane = |k: usize| {
        if rank == 1 {
            pos.clone()
        } else {
            Expr::new(
                ExprKind::Lane(Box::new(pos.clone()), Box::new(Expr::int(k as i64))),
                Ty::I32,
            )
        }
    };
    // Along a dimension, the loop variable stands for it and `pos` for the others.
    let along = region.along.map(|a| {
        k.vars.push(VarDecl {
            name: "k".into(),
            ty: Ty::I32,
        });
        (a, k.vars.len() as u32 - 1)
    });
    let full_lane = |j: usize| match along {
        Some((a, _)) if j < a.axis as usize => lane(j),
        Some((_, kv)) if j == region.along.map_or(0, |a| a.axis as usize) => {
            Expr::new(ExprKind::Var(kv), Ty::I32)
        }
        Some(_) => lane(j - 1),
        None => lane(j),
    };
    let out_index: Vec<Expr> = if region.flat {
        vec![pos.clone()]
    } else {
        (0..rank as usize).map(lane).collect()
    };
    // A flat reduction walks the elements with a grid-stride loop: thread `pos` of
    // `stride` threads accumulates elements pos, pos + stride, ... below `n` in a
    // variable, then adds it to the output once (few threads, one atomic per block).
    let strided = grid_stride && region.flat && region.reduce.is_some();
    let elem = if strided {
        let i = k.vars.len() as u32;
        k.vars.push(VarDecl {
            name: "i".into(),
            ty: Ty::I32,
        });
        Expr::new(ExprKind::Var(i), Ty::I32)
    } else {
        pos.clone()
    };
    let value = region_value(region, &binds, &view_params, &elem, &full_lane);
    let kind = match region.reduce {
        None => StmtKind::Store {
            arr: 0,
            index: out_index,
            value,
            at: Default::default(),
        },
        Some((r, ty)) if along.is_some() => {
            let (a, kv) = along.expect("matched");
            k.vars.push(VarDecl {
                name: "acc".into(),
                ty: Ty::Scalar(ty),
            });
            let acc = k.vars.len() as u32 - 1;
            k.vars.push(VarDecl {
                name: "len".into(),
                ty: Ty::I32,
            });
            let len = k.vars.len() as u32 - 1;
            k.params.push(Param {
                name: "len".into(),
                bind: Bind::Var(len),
            });
            let read = |v: u32, t: Ty| Expr::new(ExprKind::Var(v), t);
            let bin = |op, x: Expr, y: Expr, t: Scalar| {
                Expr::new(
                    ExprKind::Binary(op, Box::new(x), Box::new(y)),
                    Ty::Scalar(t),
                )
            };
            let acc_e = read(acc, Ty::Scalar(ty));
            let next = if r == Reduce::Prod {
                BinOp::Mul
            } else {
                BinOp::Add
            };
            let stmt = |kind| Stmt { kind, line };
            k.body.push(stmt(StmtKind::Assign {
                var: acc,
                value: identity(r, ty),
            }));
            let last = bin(BinOp::Sub, read(len, Ty::I32), Expr::int(1), Scalar::I32);
            k.body.push(stmt(StmtKind::For {
                var: kv,
                start: Expr::int(0),
                step: Expr::int(1),
                end: last,
                body: vec![stmt(StmtKind::Assign {
                    var: acc,
                    value: bin(next, acc_e.clone(), cast(value, ty), ty),
                })],
            }));
            if a.scan {
                // Each partial value is stored where its element was.
                let full: Vec<Expr> = (0..region.rank as usize).map(full_lane).collect();
                if let Some(Stmt {
                    kind: StmtKind::For { body, .. },
                    ..
                }) = k.body.last_mut()
                {
                    body.push(stmt(StmtKind::Store {
                        arr: 0,
                        index: full,
                        value: cast(acc_e, a.elem),
                        at: Default::default(),
                    }));
                }
                k.body
                    .pop()
                    .map(|s| s.kind)
                    .expect("the loop was pushed above")
            } else {
                let result = if a.mean {
                    let n = cast(read(len, Ty::I32), ty);
                    bin(BinOp::Div, acc_e, n, ty)
                } else {
                    acc_e
                };
                StmtKind::Store {
                    arr: 0,
                    index: out_index,
                    value: cast(result, a.elem),
                    at: Default::default(),
                }
            }
        }
        Some((_, ty)) if !strided => {
            // No count of numbers here (a thread per element: the count would cost as
            // much as the reduction): min/max of reals that stays at the output's
            // identity (±inf) saw only NaNs or infinities, and the host decides then
            // (`blazar-interp`'s `fuse/reduce.rs`).
            StmtKind::Accumulate {
                output: 0,
                value: cast(value, ty),
            }
        }
        Some((r, ty)) => {
            let var = |name: &str, ty: Ty, k: &mut Kernel| {
                k.vars.push(VarDecl {
                    name: name.into(),
                    ty,
                });
                k.vars.len() as u32 - 1
            };
            let acc = var("acc", Ty::Scalar(ty), &mut k);
            let n = var("n", Ty::I32, &mut k);
            let stride = var("stride", Ty::I32, &mut k);
            for (name, v) in [("n", n), ("stride", stride)] {
                k.params.push(Param {
                    name: name.into(),
                    bind: Bind::Var(v),
                });
            }
            let read = |v: u32, ty: Ty| Expr::new(ExprKind::Var(v), ty);
            let acc_e = read(acc, Ty::Scalar(ty));
            let next = match r {
                Reduce::Sum => BinOp::Add,
                Reduce::Prod => BinOp::Mul,
                Reduce::Min => BinOp::Min,
                Reduce::Max => BinOp::Max,
            };
            let step = Expr::new(
                ExprKind::Binary(next, Box::new(acc_e.clone()), Box::new(cast(value, ty))),
                Ty::Scalar(ty),
            );
            let i = match elem.kind {
                ExprKind::Var(i) => i,
                _ => unreachable!("the element index is a variable"),
            };
            let last = Expr::new(
                ExprKind::Binary(
                    BinOp::Sub,
                    Box::new(read(n, Ty::I32)),
                    Box::new(Expr::int(1)),
                ),
                Ty::I32,
            );
            let stmt = |kind| Stmt { kind, line };
            k.body.push(stmt(StmtKind::Assign {
                var: acc,
                value: identity(r, ty),
            }));
            k.body.push(stmt(StmtKind::For {
                var: i,
                start: pos.clone(),
                step: read(stride, Ty::I32),
                end: last,
                body: vec![stmt(StmtKind::Assign {
                    var: acc,
                    value: step,
                })],
            }));
            if nan_aware(r, ty) {
                // The accumulator stays NaN only if every element the thread saw was.
                k.body.push(stmt(StmtKind::Accumulate {
                    output: 1,
                    value: not_nan(&acc_e),
                }));
            }
            StmtKind::Accumulate {
                output: 0,
                value: acc_e,
            }
        }
    };
    k.body.push(Stmt { kind, line });
    k
}

/// Whether a reduction also counts values that are not NaN (`min`/`max` of reals
/// ignore NaN; when every element is NaN the host's result is NaN, not the identity).
/// Only grid-stride reductions count; a reduction with a thread per element has one
/// output, and a result at the identity is judged by the host.
fn nan_aware(r: Reduce, ty: Scalar) -> bool {
    matches!(r, Reduce::Min | Reduce::Max) && ty.is_float()
}

/// `1` when `v` is not NaN, as an i64.
fn not_nan(v: &Expr) -> Expr {
    let same = Expr::new(
        ExprKind::Binary(BinOp::Eq, Box::new(v.clone()), Box::new(v.clone())),
        Ty::BOOL,
    );
    cast(same, Scalar::I64)
}

/// `value` converted to `ty` (itself when it has that type).
pub(crate) fn cast(value: Expr, ty: Scalar) -> Expr {
    if value.ty == Ty::Scalar(ty) {
        value
    } else {
        Expr::new(ExprKind::Cast(Box::new(value)), Ty::Scalar(ty))
    }
}

/// The starting value of a thread's accumulator: NaN for real `min`/`max`, which
/// ignore NaN (an all-NaN array stays NaN, as on the host).
pub(crate) fn identity(r: Reduce, ty: Scalar) -> Expr {
    let c = match (r, ty.is_float()) {
        (Reduce::Sum, true) => Const::Float(0.0),
        (Reduce::Prod, true) => Const::Float(1.0),
        (Reduce::Min | Reduce::Max, true) => Const::Float(f64::NAN),
        (Reduce::Sum, false) => Const::Int(0),
        (Reduce::Prod, false) => Const::Int(1),
        (Reduce::Min, false) => Const::Int(if ty == Scalar::I64 {
            i64::MAX
        } else {
            i32::MAX as i64
        }),
        (Reduce::Max, false) => Const::Int(if ty == Scalar::I64 {
            i64::MIN
        } else {
            i32::MIN as i64
        }),
    };
    Expr::new(ExprKind::Const(c), Ty::Scalar(ty))
}
