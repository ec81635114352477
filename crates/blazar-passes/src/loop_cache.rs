//! The shared-memory caching transform of a loop kernel (seed 003): the kernel's atomic
//! updates of one array go to a zeroed per-block copy in shared memory, which the
//! block's threads add into the array once, after a barrier.

use crate::outline::{assign, e, place, Kernel, Names};
use blazar_diagnostics::Span;
use blazar_hir::{
    self as hir, Annot, BinOp, Callee, Expr, ExprKind, IntKind, Place, Stmt, StmtKind, Ty, Var,
};

/// The shared-memory caching transform of seed 003 (`!kernel_transform
/// enable="sharedmemcaching"` with `!kernel_arg name=y; ...; numel=N`): each block
/// updates a copy of `y` in shared memory and adds it to `y` once at its end.
#[derive(Clone, Debug)]
pub struct Caching {
    pub array: Var,
    pub numel: i64,
}

/// Rewrites the kernel body for [`Caching`] of array slot `y`: updates of `y` go to a
/// zeroed shared copy; returns the statements before the body (allocation, barrier)
/// and after it (barrier, then the block's threads add the copy into `y`).
pub(crate) fn shared_cache(
    k: &mut Kernel,
    body: &mut [Stmt],
    y: u32,
    numel: i64,
    depth: usize,
    names: &Names,
    span: Span,
) -> (Vec<Stmt>, Vec<Stmt>) {
    let ysh = k.slot("y_shared");
    retarget(body, y, ysh);
    let block_ty = if depth == 1 {
        Ty::Int(IntKind::I32)
    } else {
        Ty::FixedVec {
            elem: Box::new(Ty::Int(IntKind::I32)),
            len: depth as u32,
        }
    };
    let annot = Annot {
        ty: block_ty,
        mode: None,
        is_const: false,
    };
    let blkpos = k.param("blkpos", Some(annot.clone()), span);
    let blkdim = k.param("blkdim", Some(annot), span);
    let var = |s: u32| e(ExprKind::Var(Var::Local(s)), span);
    let call = |callee: Callee, args: Vec<Expr>| e(ExprKind::Call { callee, args }, span);
    let builtin = |n: &str| Callee::Builtin((names.builtin_id)(n).expect("a builtin"));
    let sync = Stmt {
        kind: StmtKind::Expr(call(Callee::Intrinsic(hir::Intrinsic::Syncthreads), vec![])),
        span,
    };
    let alloc = call(
        Callee::Intrinsic(hir::Intrinsic::SharedZeros),
        vec![e(ExprKind::Int(numel), span)],
    );
    let before = vec![
        assign(place(Var::Local(ysh), span), None, alloc, span),
        sync.clone(),
    ];
    let (cnt, ind, i) = (k.slot("bz_count"), k.slot("bz_index"), k.slot("bz_bin"));
    let (count, index) = if depth == 1 {
        (var(blkdim), var(blkpos))
    } else {
        (
            call(builtin("prod"), vec![var(blkdim)]),
            call(builtin("pos2ind"), vec![var(blkdim), var(blkpos)]),
        )
    };
    let elem = |arr: u32| {
        e(
            ExprKind::Index {
                base: Box::new(var(arr)),
                args: vec![var(i)],
            },
            span,
        )
    };
    let add = Stmt {
        kind: StmtKind::Assign {
            target: Place {
                var: Var::Local(y),
                path: vec![hir::Access::Index(vec![var(i)])],
                span,
            },
            op: Some(BinOp::Add),
            value: elem(ysh),
            ty: None,
        },
        span,
    };
    let merge = Stmt {
        kind: StmtKind::ForRange {
            var: Var::Local(i),
            start: var(ind),
            step: Some(var(cnt)),
            end: e(ExprKind::Int(numel - 1), span),
            body: vec![add],
        },
        span,
    };
    let after = vec![
        sync,
        assign(place(Var::Local(cnt), span), None, count, span),
        assign(place(Var::Local(ind), span), None, index, span),
        merge,
    ];
    (before, after)
}

/// Points every element update of slot `from` at slot `to`.
fn retarget(body: &mut [Stmt], from: u32, to: u32) {
    hir::visit::each_stmt_mut(body, &mut |s| {
        if let StmtKind::Assign { target, .. } = &mut s.kind {
            if target.var == Var::Local(from) && !target.path.is_empty() {
                target.var = Var::Local(to);
            }
        }
    });
}
