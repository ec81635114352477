//! Whether one launch may run as several launches over bands of rows (the outermost
//! dimension of its index space), one band per device, and why not when it may not.
//!
//! The analysis reads the kernel's row-level range facts ([`Kernel::ranges`]): a
//! launch splits when the kernel has no barriers, shared memory, kernel outputs or
//! block-dependent results, and every access to an array it writes (stores, atomic
//! updates, and loads of the same array) names the thread's own row: its first index is
//! exactly `pos[0]` (coefficient 1 on `pos[0]`, none on the other components, a rest
//! that is the constant 0), and either the array's first extent is the index space's and
//! the access has one index per dimension (a row of the array per row of threads), or
//! the array has as many elements as the index space has rows and the access has one
//! linear index (an element per row: fused element-wise kernels index their arrays
//! linearly over a one-dimensional index space). Then each band writes only its own rows,
//! and no band reads a row another band writes. Arrays the kernel only reads may be read
//! anywhere: each device receives a whole current copy of them.

use blazar_kir::affine::Aff;
use blazar_kir::{BinOp, Bind, Const, Expr, ExprKind, Kernel, Stmt, StmtKind};
use std::collections::HashSet;

/// Why a kernel cannot be split, or `Ok` with the arrays it writes: per array, its
/// argument index and its elements per row of the index space.
pub fn analyse(
    k: &Kernel,
    arg_dims: &[Vec<usize>],
    rows: usize,
    params: &[Option<usize>],
) -> Result<Vec<(usize, usize)>, String> {
    let f = k.facts();
    if rows < 2 {
        return Err("one row".into());
    }
    if f.has_barrier {
        return Err("the kernel has barriers".into());
    }
    if !f.block_free {
        return Err("its results may depend on the block shape".into());
    }
    if !k.outputs.is_empty() {
        return Err("kernel outputs (reductions) are not combined across devices yet".into());
    }
    // The array slots written, and the argument each is bound to.
    let mut written = HashSet::new();
    for (slot, w) in f.written.iter().enumerate() {
        if *w {
            written.insert(slot as u32);
        }
    }
    let slot_arg = |slot: u32| -> Option<usize> {
        k.params
            .iter()
            .position(|p| p.bind == Bind::Array(slot))
            .and_then(|i| params.get(i).copied().flatten())
    };
    let mut written_args = Vec::new();
    // Arrays local to a thread are no concern of the split.
    written.retain(|&slot| slot_arg(slot).is_some());
    // Per written slot: how many indices its accesses must have.
    let mut indices = std::collections::HashMap::new();
    for &slot in &written {
        let Some(a) = slot_arg(slot) else {
            continue;
        };
        let dims = &arg_dims[a];
        let numel: usize = dims.iter().product();
        let n_index = if dims.first() == Some(&rows) {
            dims.len()
        } else if numel == rows {
            1
        } else {
            return Err(format!(
                "it writes `{}`, whose rows are not the index space's",
                k.arrays[slot as usize].name
            ));
        };
        indices.insert(slot, n_index);
        written_args.push((a, numel / rows));
    }
    let ranges = k.ranges();
    let own_row = |key: usize, slot: u32, n_index: usize| -> Result<(), String> {
        let name = &k.arrays[slot as usize].name;
        let want = indices.get(&slot).copied().unwrap_or(0);
        let Some(forms) = ranges.forms(key) else {
            return Err(format!("an index of `{name}` is not affine in `pos`"));
        };
        if n_index != want || forms.len() != n_index {
            return Err(format!(
                "`{name}` is indexed with another number of indices"
            ));
        }
        if !is_own_row(&forms[0]) {
            return Err(format!("an access to `{name}` may reach another row"));
        }
        Ok(())
    };
    let mut stmts: Vec<&Stmt> = Vec::new();
    let mut loads: Vec<&Expr> = Vec::new();
    walk(&k.body, &mut |s| stmts.push(s), &mut |e| {
        if matches!(e.kind, ExprKind::Load { .. }) {
            loads.push(e)
        }
    });
    for s in stmts {
        match &s.kind {
            StmtKind::Store { arr, index, .. } | StmtKind::Update { arr, index, .. }
                if written.contains(arr) =>
            {
                own_row(s as *const Stmt as usize, *arr, index.len())?
            }
            StmtKind::AllocShared { .. } => return Err("the kernel uses shared memory".into()),
            _ => {}
        }
    }
    for e in loads {
        if let ExprKind::Load { arr, index } = &e.kind {
            if written.contains(arr) {
                own_row(e as *const Expr as usize, *arr, index.len())?;
            }
        }
    }
    Ok(written_args)
}

/// `pos[0]` exactly: coefficient 1 on the first component, 0 on the others, rest 0.
fn is_own_row(a: &Aff) -> bool {
    a.coef == [1, 0, 0, 0]
        && a.conds.is_empty()
        && constant(&a.lo) == Some(0)
        && constant(&a.hi) == Some(0)
}

/// The value of an i64 form built from constants, `+`, `-`, `*` and casts.
fn constant(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Const(Const::Int(x)) => Some(*x),
        ExprKind::Cast(x) => constant(x),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (constant(a)?, constant(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Calls `stmt` on every statement and `expr` on every expression and subexpression.
fn walk<'a>(b: &'a [Stmt], stmt: &mut dyn FnMut(&'a Stmt), expr: &mut dyn FnMut(&'a Expr)) {
    for s in b {
        stmt(s);
        let mut es: Vec<&'a Expr> = Vec::new();
        let mut blocks: Vec<&'a [Stmt]> = Vec::new();
        match &s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => es.push(value),
            StmtKind::SetLane { lane, value, .. } => es.extend([lane, value]),
            StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
                es.extend(index.iter().chain([value]))
            }
            StmtKind::If { cond, then, els } => {
                es.push(cond);
                blocks.extend([then.as_slice(), els.as_slice()]);
            }
            StmtKind::While { cond, body } => {
                es.push(cond);
                blocks.push(body);
            }
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => {
                es.extend([start, step, end]);
                blocks.push(body);
            }
            StmtKind::Assert { cond } => es.push(cond),
            StmtKind::AllocShared { dims, .. } | StmtKind::AllocLocal { dims, .. } => {
                es.extend(dims.iter())
            }
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Barrier | StmtKind::Return => {}
        }
        for e in es {
            walk_expr(e, expr);
        }
        for b in blocks {
            walk(b, stmt, expr);
        }
    }
}

fn walk_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Special(_) => {}
        ExprKind::Size { .. } | ExprKind::Numel(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Splat(a)
        | ExprKind::VecReduce(_, a) => walk_expr(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => {
            walk_expr(a, f);
            walk_expr(b, f);
        }
        ExprKind::Select(a, b, c) => {
            walk_expr(a, f);
            walk_expr(b, f);
            walk_expr(c, f);
        }
        ExprKind::Math(_, xs) | ExprKind::VecLit(xs) | ExprKind::Load { index: xs, .. } => {
            xs.iter().for_each(|x| walk_expr(x, f))
        }
    }
}
