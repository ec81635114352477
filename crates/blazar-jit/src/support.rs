//! Which kernels the JIT takes. It declines (and the launch goes where it went before):
//! kernels with barriers, shared or per-thread dynamic memory; complex values anywhere;
//! bool or complex kernel outputs, and float outputs accumulated more than once per
//! thread (combining them thread by thread would add in another order than the
//! interpreter's lanes); variables holding arrays; index spaces of rank past 4; arrays
//! of rank past 8; kernels past the compiled size limits of `blazar_kir::visit`.

use blazar_kir::visit::{kernel_size, max_expr_depth, MAX_COMPILED_DEPTH, MAX_COMPILED_SIZE};
use blazar_kir::{Bind, Expr, ExprKind, Kernel, Scalar, Space, Stmt, StmtKind, Ty};

/// Why the JIT does not take kernel `k` (`None`: it does).
pub fn unsupported(k: &Kernel) -> Option<String> {
    check(k).err()
}

fn check(k: &Kernel) -> Result<(), String> {
    if !(1..=4).contains(&k.rank) {
        return Err(format!("kernel rank {}", k.rank));
    }
    if max_expr_depth(k) > MAX_COMPILED_DEPTH || kernel_size(k) > MAX_COMPILED_SIZE {
        return Err("the kernel is too large".into());
    }
    if blazar_kir::calls::has_calls(k) {
        return Err("calls of functions (recursion)".into());
    }
    for v in &k.vars {
        match v.ty {
            Ty::Array(_) => return Err("a variable holds an array".into()),
            t if t.elem().is_complex() => return Err("complex values".into()),
            _ => {}
        }
    }
    for a in &k.arrays {
        let Ty::Array(t) = a.ty else {
            return Err(format!("array slot {} is not an array", a.name));
        };
        if t.elem.is_complex() || t.elem == Scalar::Bool {
            return Err(format!("array {} of {}", a.name, t.elem.name()));
        }
        if !(1..=8).contains(&t.rank) {
            return Err(format!("array {} has rank {}", a.name, t.rank));
        }
    }
    let mut global = vec![false; k.arrays.len()];
    for p in &k.params {
        if let Bind::Array(a) = p.bind {
            *global.get_mut(a as usize).ok_or("unknown array slot")? = true;
        }
    }
    for (a, g) in k.arrays.iter().zip(&global) {
        if let Ty::Array(t) = a.ty {
            if *g && t.space != Space::Global {
                return Err(format!("array {} lives in {:?} memory", a.name, t.space));
            }
        }
    }
    for o in &k.outputs {
        if o.ty.is_complex() || o.ty == Scalar::Bool {
            return Err(format!("output {} of {}", o.name, o.ty.name()));
        }
    }
    let mut counts = vec![0usize; k.outputs.len()];
    block(k, &k.body, false, &global, &mut counts)?;
    for (o, n) in k.outputs.iter().zip(&counts) {
        if o.ty.is_float() && *n > 1 {
            return Err(format!(
                "output {} is accumulated more than once per thread",
                o.name
            ));
        }
    }
    Ok(())
}

fn block(
    k: &Kernel,
    b: &[Stmt],
    in_loop: bool,
    global: &[bool],
    counts: &mut [usize],
) -> Result<(), String> {
    for s in b {
        stmt(k, s, in_loop, global, counts)?;
    }
    Ok(())
}

fn array(global: &[bool], a: u32) -> Result<(), String> {
    match global.get(a as usize) {
        Some(true) => Ok(()),
        _ => Err("an array that is not a kernel argument".into()),
    }
}

fn stmt(
    k: &Kernel,
    s: &Stmt,
    in_loop: bool,
    global: &[bool],
    counts: &mut [usize],
) -> Result<(), String> {
    let ex = |e: &Expr| expr(e, global);
    match &s.kind {
        StmtKind::Assign { value, .. } => ex(value),
        StmtKind::SetLane { lane, value, .. } => ex(lane).and(ex(value)),
        StmtKind::Store {
            arr, index, value, ..
        }
        | StmtKind::Update {
            arr, index, value, ..
        } => {
            array(global, *arr)?;
            index.iter().try_for_each(ex)?;
            ex(value)
        }
        StmtKind::Accumulate { output, value } => {
            *counts.get_mut(*output as usize).ok_or("unknown output")? +=
                if in_loop { 2 } else { 1 };
            ex(value)
        }
        StmtKind::If { cond, then, els } => {
            ex(cond)?;
            block(k, then, in_loop, global, counts)?;
            block(k, els, in_loop, global, counts)
        }
        StmtKind::While { cond, body } => {
            ex(cond)?;
            block(k, body, true, global, counts)
        }
        StmtKind::For {
            start,
            step,
            end,
            body,
            ..
        } => {
            ex(start)?;
            ex(step)?;
            ex(end)?;
            block(k, body, true, global, counts)
        }
        StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return => Ok(()),
        StmtKind::Assert { cond } => ex(cond),
        StmtKind::Barrier => Err("a barrier".into()),
        StmtKind::AllocShared { .. } => Err("shared memory".into()),
        StmtKind::AllocLocal { .. } => Err("dynamic kernel memory".into()),
        StmtKind::Call { .. } => Err("calls of functions (recursion)".into()),
    }
}

fn expr(e: &Expr, global: &[bool]) -> Result<(), String> {
    if e.ty.elem().is_complex() {
        return Err("complex values".into());
    }
    let sub = |x: &Expr| expr(x, global);
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Special(_) => Ok(()),
        ExprKind::Size { arr, .. } | ExprKind::Numel(arr) => array(global, *arr),
        ExprKind::Load { arr, index, .. } => {
            array(global, *arr)?;
            index.iter().try_for_each(sub)
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(a) | ExprKind::Splat(a) => sub(a),
        ExprKind::VecReduce(_, a) => sub(a),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => sub(a).and(sub(b)),
        ExprKind::Select(c, a, b) => sub(c).and(sub(a)).and(sub(b)),
        ExprKind::Math(_, args) | ExprKind::VecLit(args) => args.iter().try_for_each(sub),
    }
}
