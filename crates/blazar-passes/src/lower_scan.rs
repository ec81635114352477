//! `lower_chunk_scan`: the two kernels of a running sum or product of a vector
//! (`cumsum(v)`, `cumprod(v)`), which a single lane would walk alone. The vector is cut
//! into chunks of `len` elements, a thread per chunk: the *totals* kernel reduces each
//! chunk into `out[chunk]`; the host turns the totals into each chunk's starting value
//! (an exclusive running reduction of a few thousand values); the *scan* kernel walks
//! each chunk again from its starting value (`offs[chunk]`), storing every partial
//! value. Both read the region's elements at one linear index (a flat region).

use crate::lower_region::{cast, identity};
use crate::region_value::{bind_inputs, input_array, region_value};
use blazar_air::{Reduce, Region};
use blazar_kir::{
    ArrayDecl, ArrayTy, BinOp, Bind, Expr, ExprKind, Kernel, Param, ReadMode, Scalar, Space,
    Special, Stmt, StmtKind, Ty, VarDecl, WriteMode,
};

/// The kernel of a chunked scan region (`Builder::finish_vector_scan`): the totals
/// kernel when `along.scan` is false, else the scan kernel.
pub(crate) fn lower_chunk_scan(region: &Region, name: &str, line: u32) -> Kernel {
    let along = region.along.expect("a chunked scan runs along its vector");
    let (r, acc_ty) = region.reduce.expect("a chunked scan reduces");
    let mut k = Kernel {
        name: name.to_string(),
        rank: 1,
        params: Vec::new(),
        outputs: Vec::new(),
        vars: Vec::new(),
        arrays: Vec::new(),
        body: Vec::new(),
        calls: Default::default(),
        facts: Default::default(),
    };
    k.params.push(Param {
        name: "out".into(),
        bind: Bind::Array(0),
    });
    k.arrays.push(ArrayDecl {
        name: "out".into(),
        ty: Ty::Array(ArrayTy {
            elem: along.elem,
            rank: 1,
            read: ReadMode::Unchecked,
            write: WriteMode::Unchecked,
            is_const: false,
            space: Space::Global,
        }),
    });
    let (binds, views) = bind_inputs(region, &mut k);
    let offs = along.scan.then(|| {
        k.arrays.push(ArrayDecl {
            name: "offs".into(),
            ty: input_array(acc_ty, 1),
        });
        let a = k.arrays.len() as u32 - 1;
        k.params.push(Param {
            name: "offs".into(),
            bind: Bind::Array(a),
        });
        a
    });
    let var = |k: &mut Kernel, name: &str, ty: Ty| {
        k.vars.push(VarDecl {
            name: name.into(),
            ty,
        });
        k.vars.len() as u32 - 1
    };
    let (len, n) = (var(&mut k, "len", Ty::I32), var(&mut k, "n", Ty::I32));
    for (name, v) in [("len", len), ("n", n)] {
        k.params.push(Param {
            name: name.into(),
            bind: Bind::Var(v),
        });
    }
    let kv = var(&mut k, "k", Ty::I32);
    let acc = var(&mut k, "acc", Ty::Scalar(acc_ty));
    let pos = Expr::new(ExprKind::Special(Special::Pos), Ty::I32);
    let int = |v: u32| Expr::new(ExprKind::Var(v), Ty::I32);
    let bin = |op, a: Expr, b: Expr, t: Scalar| {
        Expr::new(
            ExprKind::Binary(op, Box::new(a), Box::new(b)),
            Ty::Scalar(t),
        )
    };
    let first = bin(BinOp::Mul, pos.clone(), int(len), Scalar::I32);
    let elem = bin(BinOp::Add, first.clone(), int(kv), Scalar::I32);
    let value = region_value(region, &binds, &views, &elem, &|_| {
        unreachable!("a chunked scan region is flat")
    });
    let acc_e = Expr::new(ExprKind::Var(acc), Ty::Scalar(acc_ty));
    let start = match offs {
        Some(a) => Expr::new(
            ExprKind::Load {
                arr: a,
                index: vec![pos.clone()],
                at: Default::default(),
            },
            Ty::Scalar(acc_ty),
        ),
        None => identity(r, acc_ty),
    };
    let op = if r == Reduce::Prod {
        BinOp::Mul
    } else {
        BinOp::Add
    };
    // The chunk's elements: `len`, or what is left of the vector for the last one.
    let rest = bin(BinOp::Sub, int(n), first, Scalar::I32);
    let count = bin(BinOp::Min, int(len), rest, Scalar::I32);
    let stmt = |kind| Stmt { kind, line };
    let mut body = vec![stmt(StmtKind::Assign {
        var: acc,
        value: bin(op, acc_e.clone(), cast(value, acc_ty), acc_ty),
    })];
    if along.scan {
        body.push(stmt(StmtKind::Store {
            arr: 0,
            index: vec![elem],
            value: cast(acc_e.clone(), along.elem),
            at: Default::default(),
        }));
    }
    k.body.push(stmt(StmtKind::Assign {
        var: acc,
        value: start,
    }));
    k.body.push(stmt(StmtKind::For {
        var: kv,
        start: Expr::int(0),
        step: Expr::int(1),
        end: bin(BinOp::Sub, count, Expr::int(1), Scalar::I32),
        body,
    }));
    if !along.scan {
        k.body.push(stmt(StmtKind::Store {
            arr: 0,
            index: vec![pos],
            value: acc_e,
            at: Default::default(),
        }));
    }
    k
}
