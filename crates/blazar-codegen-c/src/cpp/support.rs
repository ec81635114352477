//! Which kernels the native tier runs, and the layout facts the generator needs.
//!
//! A kernel is supported when its arrays are global parameters, per-thread dynamic
//! memory or (with barriers) per-block shared memory, of rank 1 to 8, and its
//! floating-point outputs are accumulated at most once per thread (so that combining
//! them thread by thread adds in the executor's order). Kernels with barriers or shared
//! memory ("blocky": one block per work item) are run by loop fission (`emit::fission`)
//! when they have no `return`, no dynamic memory, no `break`/`continue` out of a loop
//! that holds a barrier, and no counted loop holding a barrier that assigns its own
//! variable. Anything else is unsupported and falls back to the interpreter.

use blazar_kir::{Bind, Const, ExprKind, Kernel, Scalar, Space, Stmt, StmtKind, Ty};

/// How an array slot gets its memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// A global array bound to a kernel parameter.
    Global,
    /// Per-thread dynamic memory (`zeros` inside a kernel).
    Local,
    /// Per-block shared memory.
    Shared,
    /// Never bound nor allocated.
    Unused,
}

/// What the generator and the launcher need to know about a supported kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub slots: Vec<SlotKind>,
    /// Byte offset of each variable parameter in the parameter block (0 for arrays).
    pub param_offsets: Vec<usize>,
    pub params_size: usize,
    /// One block per work item, run by loop fission.
    pub blocky: bool,
}

/// `s` is or holds a barrier or a shared allocation (a fission point).
pub(crate) fn has_barrier(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Barrier | StmtKind::AllocShared { .. } => true,
        StmtKind::If { then, els, .. } => then.iter().chain(els).any(has_barrier),
        StmtKind::While { body, .. } | StmtKind::For { body, .. } => body.iter().any(has_barrier),
        _ => false,
    }
}

/// The body of `while true { body; break }` (how calls to device functions are
/// inlined) when nothing else leaves or continues the loop: it runs exactly once.
pub(crate) fn once_body(s: &Stmt) -> Option<&[Stmt]> {
    let StmtKind::While { cond, body } = &s.kind else {
        return None;
    };
    if !matches!(cond.kind, ExprKind::Const(Const::Bool(true))) {
        return None;
    }
    let (last, rest) = body.split_last()?;
    if !matches!(last.kind, StmtKind::Break(0)) || targets(rest, 0) {
        return None;
    }
    Some(rest)
}

/// Some `break`/`continue` in `b` (inside `depth` loops of it) leaves the enclosing loop
/// (or goes further out).
fn targets(b: &[Stmt], depth: u32) -> bool {
    b.iter().any(|s| match &s.kind {
        StmtKind::Break(n) | StmtKind::Continue(n) => *n >= depth,
        StmtKind::If { then, els, .. } => targets(then, depth) || targets(els, depth),
        StmtKind::While { body, .. } | StmtKind::For { body, .. } => targets(body, depth + 1),
        _ => false,
    })
}

/// Checks the fission rules on `b`; `loops` says, per enclosing loop, whether it holds
/// a barrier.
fn fission_ok(b: &[Stmt], loops: &mut Vec<bool>) -> Result<(), String> {
    for s in b {
        match &s.kind {
            StmtKind::Return => return Err("return in a kernel with barriers".into()),
            StmtKind::AllocLocal { .. } => {
                return Err("dynamic memory in a kernel with barriers".into())
            }
            StmtKind::Break(n) | StmtKind::Continue(n) => {
                let target = loops.len().checked_sub(*n as usize + 1);
                if target.is_none_or(|t| loops[t..].iter().any(|&x| x)) {
                    return Err("break or continue out of a loop with a barrier".into());
                }
            }
            StmtKind::If { then, els, .. } => {
                fission_ok(then, loops)?;
                fission_ok(els, loops)?;
            }
            StmtKind::While { .. } if once_body(s).is_some() => {
                fission_ok(once_body(s).unwrap_or_default(), loops)?;
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => {
                let barrier = body.iter().any(has_barrier);
                if let StmtKind::For { var, .. } = &s.kind {
                    if barrier && blazar_kir::props::assigns(body, *var) {
                        return Err("a loop with a barrier assigns its variable".into());
                    }
                }
                loops.push(barrier);
                let r = fission_ok(body, loops);
                loops.pop();
                r?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// Most per-thread dynamic arrays (each takes a 32 KiB buffer on the worker's stack).
const MAX_LOCAL_SLOTS: usize = 16;

fn walk<'a>(b: &'a [Stmt], in_loop: bool, f: &mut dyn FnMut(&'a Stmt, bool)) {
    for s in b {
        f(s, in_loop);
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                walk(then, in_loop, f);
                walk(els, in_loop, f);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => walk(body, true, f),
            _ => {}
        }
    }
}

/// Bytes of one value of type `t` in the parameter block.
pub(crate) fn value_size(t: Ty) -> usize {
    match t {
        Ty::Scalar(s) => s.size(),
        Ty::Vector(s, n) => s.size() * n as usize,
        Ty::Array(_) => 0,
    }
}

/// The plan of `k`, or why the native tier does not run it.
pub fn plan(k: &Kernel) -> Result<Plan, String> {
    if !(1..=4).contains(&k.rank) {
        return Err(format!("kernel rank {}", k.rank));
    }
    if k.vars.iter().any(|v| matches!(v.ty, Ty::Array(_))) {
        return Err("a variable holds an array".into());
    }
    let depth = blazar_kir::visit::max_expr_depth(k);
    if depth > blazar_kir::visit::MAX_COMPILED_DEPTH {
        return Err(format!(
            "an expression nests {depth} levels deep (the C++ compiler takes only {})",
            blazar_kir::visit::MAX_COMPILED_DEPTH
        ));
    }
    let size = blazar_kir::visit::kernel_size(k);
    if size > blazar_kir::visit::MAX_COMPILED_SIZE {
        return Err(format!(
            "the kernel has {size} operations (the C++ compiler would take minutes past {})",
            blazar_kir::visit::MAX_COMPILED_SIZE
        ));
    }
    if blazar_kir::calls::has_calls(k) {
        calls_ok(k)?;
    }
    let mut slots = vec![SlotKind::Unused; k.arrays.len()];
    for p in &k.params {
        if let Bind::Array(a) = p.bind {
            let s = slots.get_mut(a as usize).ok_or("unknown array slot")?;
            *s = SlotKind::Global;
        }
    }
    let mut problem: Option<String> = None;
    let mut accumulates = vec![0usize; k.outputs.len()];
    let blocky = k.body.iter().any(has_barrier)
        || k.arrays
            .iter()
            .any(|a| matches!(a.ty, Ty::Array(t) if t.space == Space::Shared));
    if blocky {
        fission_ok(&k.body, &mut Vec::new())?;
        if let Some(line) = blazar_kir::uniform::barrier_in_varying_loop(k) {
            return Err(format!(
                "the barrier at line {line} is in a loop whose iterations depend on the thread"
            ));
        }
    }
    walk(&k.body, false, &mut |s, in_loop| match &s.kind {
        StmtKind::AllocShared { arr, .. } => match slots.get_mut(*arr as usize) {
            Some(s @ (SlotKind::Unused | SlotKind::Shared)) => *s = SlotKind::Shared,
            _ => problem = Some("shared memory in a parameter slot".into()),
        },
        StmtKind::AllocLocal { arr, .. } => match slots.get_mut(*arr as usize) {
            Some(s @ (SlotKind::Unused | SlotKind::Local)) => *s = SlotKind::Local,
            _ => problem = Some("dynamic memory in a parameter slot".into()),
        },
        StmtKind::Accumulate { output, .. } => {
            if let Some(n) = accumulates.get_mut(*output as usize) {
                *n += if in_loop { 2 } else { 1 };
            }
        }
        _ => {}
    });
    if let Some(p) = problem {
        return Err(p);
    }
    for (o, n) in k.outputs.iter().zip(&accumulates) {
        let exact = o.ty.is_int() || o.ty == Scalar::Bool;
        if !exact && *n > 1 {
            return Err(format!(
                "output {} is accumulated more than once per thread",
                o.name
            ));
        }
    }
    for (a, slot) in k.arrays.iter().zip(&slots) {
        let Ty::Array(t) = a.ty else {
            return Err(format!("array slot {} is not an array", a.name));
        };
        if !(1..=8).contains(&t.rank) {
            return Err(format!("array {} has rank {}", a.name, t.rank));
        }
        let want = match slot {
            SlotKind::Global => Space::Global,
            SlotKind::Local => Space::Local,
            SlotKind::Shared => Space::Shared,
            SlotKind::Unused => continue,
        };
        if t.space != want {
            return Err(format!("array {} lives in {:?} memory", a.name, t.space));
        }
    }
    if slots.iter().filter(|s| **s == SlotKind::Local).count() > MAX_LOCAL_SLOTS {
        return Err("too many dynamic arrays".into());
    }
    let mut param_offsets = Vec::with_capacity(k.params.len());
    let mut size = 0usize;
    for p in &k.params {
        match p.bind {
            Bind::Var(v) => {
                let t = k.vars.get(v as usize).ok_or("unknown variable")?.ty;
                param_offsets.push(size);
                size += value_size(t).div_ceil(16) * 16;
            }
            Bind::Array(_) => param_offsets.push(0),
        }
    }
    Ok(Plan {
        slots,
        param_offsets,
        params_size: size,
        blocky,
    })
}

/// The rules on a kernel that calls functions (`blazar_kir::calls`): no barriers or
/// shared memory around the calls, and functions of plain values (no arrays, kernel
/// outputs, specials or dynamic memory) that the generator can print.
fn calls_ok(k: &Kernel) -> Result<(), String> {
    if k.body.iter().any(has_barrier) {
        return Err("calls of functions in a kernel with barriers".into());
    }
    for f in &k.calls.funcs {
        let fk = &f.kernel;
        if !fk.arrays.is_empty() || !fk.outputs.is_empty() || !fk.params.is_empty() {
            return Err(format!(
                "function {} uses arrays or kernel outputs",
                fk.name
            ));
        }
        if fk.vars.iter().any(|v| matches!(v.ty, Ty::Array(_))) {
            return Err(format!("a variable of function {} holds an array", fk.name));
        }
        let mut bad = None;
        walk(&fk.body, false, &mut |s, _| {
            if matches!(
                s.kind,
                StmtKind::Barrier
                    | StmtKind::AllocShared { .. }
                    | StmtKind::AllocLocal { .. }
                    | StmtKind::Accumulate { .. }
            ) {
                bad = Some(s.line);
            }
            let mut special = false;
            blazar_kir::visit::stmt_exprs(s, &mut |e| {
                blazar_kir::visit::walk_expr(e, &mut |x| {
                    special |= matches!(x.kind, ExprKind::Special(_));
                })
            });
            if special {
                bad = Some(s.line);
            }
        });
        if let Some(line) = bad {
            return Err(format!(
                "function {} (line {line}) holds what only a kernel can",
                fk.name
            ));
        }
        if blazar_kir::visit::max_expr_depth(fk) > blazar_kir::visit::MAX_COMPILED_DEPTH {
            return Err(format!("function {} nests too deeply", fk.name));
        }
    }
    Ok(())
}
