//! Whether one launch may run as several launches over bands of rows (the outermost
//! dimension of its index space), one band per device, and why not when it may not.
//!
//! The analysis reads the kernel's row-level range facts ([`Kernel::ranges`]): a
//! launch splits when the kernel has no barriers, shared memory or block-dependent
//! results, its outputs (reductions) combine across devices (sums, products, minima,
//! maxima, bitwise operations: each band's partial is combined on the host), and every
//! access to an array it writes (stores, atomic updates, and loads of the same array)
//! names the thread's own row: its first index is exactly `pos[0]` (coefficient 1 on
//! `pos[0]`, none on the other components, a rest that is the constant 0), and either
//! the array's first extent is the index space's and the access has one index per
//! dimension (a row of the array per row of threads), or the array has as many
//! elements as the index space has rows and the access has one linear index (an
//! element per row: fused element-wise kernels index their arrays linearly over a
//! one-dimensional index space). Then each band writes only its own rows, and no band
//! reads a row another band writes.
//!
//! Arrays the kernel only reads may be read anywhere. Where every read of one is
//! `pos[0]` plus a constant in a known range (a stencil's neighbouring rows), the
//! analysis says how many rows below and above its own a band reads ([`Reach`]): a
//! band's device then needs only its rows and that halo of the array.

use blazar_kir::affine::Aff;
use blazar_kir::{
    AtomicOp, BinOp, Bind, Const, Expr, ExprKind, Kernel, ReadMode, Stmt, StmtKind, Ty, UnOp,
};
use std::collections::{HashMap, HashSet};

/// The rows of an array a band reads around its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Elements of the array per row of the index space.
    pub per_row: usize,
    /// Rows before the band's first and after its last that it reads.
    pub below: usize,
    pub above: usize,
    /// Reads outside the array land on rows inside it that may be far from the band
    /// (`'circular`: the rows at the other edge; `'mirror`: the rows reflected back
    /// in, as far from the edge as the read was outside): an edge band whose reads
    /// leave the array needs the whole array.
    pub wraps: bool,
}

/// How a launch splits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The arrays the kernel writes: argument index and elements per row.
    pub written: Vec<(usize, usize)>,
    /// The arrays it only reads, one entry per array: argument index and the rows a
    /// band reads through all its parameters (`None`: anywhere, so every band's device
    /// needs the whole array).
    pub reads: Vec<(usize, Option<Reach>)>,
}

/// Output operators whose partials combine across devices.
pub fn combinable(op: AtomicOp) -> bool {
    !matches!(op, AtomicOp::Div | AtomicOp::Pow)
}

/// Why a kernel cannot be split, or how it splits. `arg_dims[i]` are the dims of
/// `ArgVal::Array(i)`; `params[p]` is the array argument of parameter `p`, if any.
pub fn analyse(
    k: &Kernel,
    arg_dims: &[Vec<usize>],
    rows: usize,
    params: &[Option<usize>],
) -> Result<Split, String> {
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
    if k.outputs.iter().any(|o| !combinable(o.op)) {
        return Err("a kernel output whose partials do not combine (`/=`, `^=`)".into());
    }
    let slot_arg = |slot: u32| -> Option<usize> {
        k.params
            .iter()
            .position(|p| p.bind == Bind::Array(slot))
            .and_then(|i| params.get(i).copied().flatten())
    };
    // The array slots written (arrays local to a thread are no concern of the split).
    let mut written = HashSet::new();
    for (slot, w) in f.written.iter().enumerate() {
        if *w && slot_arg(slot as u32).is_some() {
            written.insert(slot as u32);
        }
    }
    // An argument passed to two parameters (`f(x, x)`) is written through both: a read
    // through the other one must stay in the thread's own row too (a band's device holds
    // only its own rows of a written array).
    let written_args_set: HashSet<usize> = written.iter().filter_map(|&s| slot_arg(s)).collect();
    for slot in 0..k.arrays.len() as u32 {
        if slot_arg(slot).is_some_and(|a| written_args_set.contains(&a)) {
            written.insert(slot);
        }
    }
    // Per array slot bound to an argument: how many indices a row-local access has,
    // and the argument's elements per row (`None`: its rows are not the index space's).
    let shape = |slot: u32| -> Option<(usize, usize)> {
        let dims = &arg_dims[slot_arg(slot)?];
        let numel: usize = dims.iter().product();
        if dims.first() == Some(&rows) {
            Some((dims.len(), numel / rows))
        } else if numel == rows {
            Some((1, 1))
        } else {
            None
        }
    };
    let mut written_args = Vec::new();
    let mut sorted: Vec<u32> = written.iter().copied().collect();
    sorted.sort_unstable();
    for &slot in &sorted {
        let Some((_, per_row)) = shape(slot) else {
            return Err(format!(
                "it writes `{}`, whose rows are not the index space's",
                k.arrays[slot as usize].name
            ));
        };
        let arg = slot_arg(slot).expect("bound");
        if !written_args.iter().any(|&(a, _)| a == arg) {
            written_args.push((arg, per_row));
        }
    }
    let ranges = k.ranges();
    let own_row = |key: usize, slot: u32, n_index: usize| -> Result<(), String> {
        let name = &k.arrays[slot as usize].name;
        let want = shape(slot).map_or(0, |s| s.0);
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
    // Per array only read: the rows its reads reach (`None`: anywhere).
    let mut reach: HashMap<u32, Option<Reach>> = HashMap::new();
    for e in loads {
        let ExprKind::Load { arr, index, .. } = &e.kind else {
            continue;
        };
        if written.contains(arr) {
            own_row(e as *const Expr as usize, *arr, index.len())?;
            continue;
        }
        if slot_arg(*arr).is_none() {
            continue;
        }
        let wraps = matches!(
            k.arrays[*arr as usize].ty,
            Ty::Array(a) if matches!(a.read, ReadMode::Circular | ReadMode::Mirror)
        );
        let this = shape(*arr).and_then(|(n_index, per_row)| {
            let forms = ranges.forms(e as *const Expr as usize)?;
            if forms.len() != n_index || index.len() != n_index {
                return None;
            }
            let (lo, hi) = row_offsets(&forms[0])?;
            Some(Reach {
                per_row,
                below: (-lo).max(0) as usize,
                above: hi.max(0) as usize,
                wraps,
            })
        });
        let entry = reach.entry(*arr).or_insert(this);
        *entry = match (*entry, this) {
            (Some(a), Some(b)) => Some(Reach {
                below: a.below.max(b.below),
                above: a.above.max(b.above),
                ..a
            }),
            _ => None,
        };
    }
    let mut reads = Vec::new();
    for (slot, _) in k.arrays.iter().enumerate() {
        let slot = slot as u32;
        if written.contains(&slot) {
            continue;
        }
        let Some(arg) = slot_arg(slot) else {
            continue;
        };
        // An array passed but never loaded (only its size read) needs its own rows at most.
        let r = match reach.get(&slot) {
            Some(r) => *r,
            None => shape(slot).map(|(_, per_row)| Reach {
                per_row,
                below: 0,
                above: 0,
                wraps: false,
            }),
        };
        // An array passed to two parameters (`f(x, x)`) needs what both read.
        match reads.iter_mut().find(|(a, _)| *a == arg) {
            Some((_, have)) => *have = merge(*have, r),
            None => reads.push((arg, r)),
        }
    }
    Ok(Split {
        written: written_args,
        reads,
    })
}

/// The rows of an array that two reads of it reach together (`None`: anywhere).
fn merge(a: Option<Reach>, b: Option<Reach>) -> Option<Reach> {
    let (a, b) = (a?, b?);
    Some(Reach {
        per_row: a.per_row,
        below: a.below.max(b.below),
        above: a.above.max(b.above),
        wraps: a.wraps || b.wraps,
    })
}

/// The constant offsets from `pos[0]` a first index reaches: coefficient 1 on `pos[0]`,
/// 0 on the others, constant bounds of the rest (and no conditions on them).
fn row_offsets(a: &Aff) -> Option<(i64, i64)> {
    if a.coef != [1, 0, 0, 0] || !a.conds.iter().all(holds) {
        return None;
    }
    let (lo, hi) = (constant(&a.lo)?, constant(&a.hi)?);
    (lo <= hi && lo > -(1 << 20) && hi < 1 << 20).then_some((lo, hi))
}

/// `pos[0]` exactly: coefficient 1 on the first component, 0 on the others, rest 0.
fn is_own_row(a: &Aff) -> bool {
    a.coef == [1, 0, 0, 0]
        && a.conds.is_empty()
        && constant(&a.lo) == Some(0)
        && constant(&a.hi) == Some(0)
}

/// Whether a condition of a form is a comparison of constants that holds (a counted
/// loop's "its variable does not wrap").
fn holds(c: &Expr) -> bool {
    let ExprKind::Binary(op, a, b) = &c.kind else {
        return false;
    };
    let (Some(a), Some(b)) = (constant(a), constant(b)) else {
        return false;
    };
    match op {
        BinOp::Le => a <= b,
        BinOp::Lt => a < b,
        BinOp::Ge => a >= b,
        BinOp::Gt => a > b,
        BinOp::Eq => a == b,
        _ => false,
    }
}

/// The value of an i64 form built from constants, `+`, `-`, `*`, negation and casts.
fn constant(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Const(Const::Int(x)) => Some(*x),
        ExprKind::Cast(x) => constant(x),
        ExprKind::Unary(UnOp::Neg, x) => constant(x)?.checked_neg(),
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
            StmtKind::Call { args, .. } => es.extend(args.iter()),
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
