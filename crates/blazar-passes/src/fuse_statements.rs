//! Fusion across statements: a HIR → HIR analysis, run after the loop passes, that
//! finds runs of consecutive whole-array assignments in one block whose intermediate
//! variables need not exist as arrays, and records them as [`FusedGroup`]s
//! (`Program::fused`). The interpreter evaluates such a group into one AIR region
//! (`blazar_interp`'s `fuse/group.rs`): `y = 255*(x/255).^0.45; t = y > 128;
//! e = sum(t .* y)` is one kernel reading `x` once, with no array for `y` or `t`.
//!
//! A statement joins a group when it is a plain assignment `v = e` (no index path, no
//! operator, no declared type) of an expression the interpreter may fuse (an operator,
//! a builtin call, an index, a matrix literal) that calls no user function or closure
//! (so evaluating it cannot write an array or keep a reference to one). Every target
//! but the last of a group is an intermediate: a local (or, in the script, a global no
//! other function names) that is no parameter, output or captured slot, is mentioned
//! nowhere in its function outside the group, is assigned once there (by its own
//! statement, whose value does not read it) and read by a later statement of the group.
//! It is therefore dead after the group, even in a loop (the next iteration assigns it
//! before reading it), and nothing can alias it: `b = a`, a store through an index or
//! field, a call and a print all end a group or keep a variable live. Liveness is thus
//! conservative (any mention outside the group keeps a variable live); a live variable
//! ends the group at its statement, whose value the kernel materialises.

use blazar_hir::visit::{blocks, each_expr, own_exprs};
use blazar_hir::{
    Callee, Expr, ExprKind, FnKind, Function, FusedGroup, FusedGroups, Program, Stmt, StmtKind, Var,
};
use std::collections::{HashMap, HashSet};

/// Finds the fused statement groups of every host function of `prog`.
pub fn fuse_statements(prog: &mut Program) {
    // Globals another function names are live everywhere.
    let mut shared: HashSet<Var> = HashSet::new();
    for (id, f) in prog.functions.iter().enumerate() {
        if id as u32 != prog.script {
            let mut c = HashMap::new();
            count_function(f, &mut c);
            shared.extend(c.into_keys().filter(|v| matches!(v, Var::Global(_))));
        }
    }
    let mut groups = FusedGroups::new();
    for f in &prog.functions {
        if f.kind != FnKind::Host {
            continue;
        }
        let mut mentions = HashMap::new();
        count_function(f, &mut mentions);
        let mut fixed: HashSet<Var> = shared.clone();
        let slots = f.params.iter().chain(&f.outputs).map(|p| p.slot);
        fixed.extend(slots.chain(f.capture_slots.iter().copied()).map(Var::Local));
        let live = Live {
            mentions: &mentions,
            fixed: &fixed,
        };
        scan_block(&f.body, &live, &mut groups);
    }
    prog.fused = groups;
}

/// What decides liveness in one function.
struct Live<'a> {
    /// Mentions of each variable in the whole function (reads, writes, captures).
    mentions: &'a HashMap<Var, u32>,
    /// Variables never intermediates (parameters, outputs, captured slots, shared
    /// globals).
    fixed: &'a HashSet<Var>,
}

fn scan_block(body: &[Stmt], live: &Live, groups: &mut FusedGroups) {
    let mut i = 0;
    while i < body.len() {
        if target(&body[i]).is_none() {
            i += 1;
            continue;
        }
        // The run of consecutive candidates body[i..end].
        let mut end = i;
        while end < body.len() && target(&body[end]).is_some() {
            end += 1;
        }
        group_run(&body[i..end], live, groups);
        i = end;
    }
    for s in body {
        for b in blocks(s) {
            scan_block(b, live, groups);
        }
    }
}

/// Splits a run of candidate statements into groups.
fn group_run(run: &[Stmt], live: &Live, groups: &mut FusedGroups) {
    // Per statement: its target's last reader in the run, when the target may be an
    // intermediate of a group reaching that far.
    let last_use: Vec<Option<usize>> = (0..run.len()).map(|k| local_until(run, k, live)).collect();
    let mut start = 0;
    while start < run.len() {
        // The group grows while statements assign intermediates; the first other
        // statement is its last. An intermediate read after the last statement would
        // be live there: the group shrinks until none is.
        let mut end = start;
        while end + 1 < run.len() && last_use[end].is_some() {
            end += 1;
        }
        while end > start && !(start..end).all(|k| last_use[k].is_some_and(|u| u <= end)) {
            end -= 1;
        }
        if end > start {
            let dead = (start..end)
                .map(|k| target(&run[k]).expect("a candidate"))
                .collect();
            groups.insert(
                run[start].span,
                FusedGroup {
                    len: (end - start + 1) as u32,
                    last: run[end].span,
                    dead,
                },
            );
        }
        start = end + 1;
    }
}

/// When the target of `run[k]` may be an intermediate: the index of its last reader in
/// the run. Every mention of it in the function is then its assignment here and reads in
/// later statements of the run (at least one).
fn local_until(run: &[Stmt], k: usize, live: &Live) -> Option<usize> {
    let v = target(&run[k])?;
    if live.fixed.contains(&v) {
        return None;
    }
    let total = live.mentions.get(&v).copied().unwrap_or(0);
    let mut own = HashMap::new();
    count_stmt(&run[k], &mut own);
    if own.get(&v).copied() != Some(1) {
        // Read by its own statement (`y = y + 1`): the old value is live.
        return None;
    }
    let mut seen = 1;
    let mut last = None;
    for (j, s) in run.iter().enumerate().skip(k + 1) {
        if target(s) == Some(v) {
            return None;
        }
        let mut c = HashMap::new();
        count_stmt(s, &mut c);
        if let Some(n) = c.get(&v) {
            seen += n;
            last = Some(j);
        }
    }
    (seen == total).then_some(last).flatten()
}

/// The target of a statement that may join a group: `v = e` with a pure whole-array `e`.
fn target(s: &Stmt) -> Option<Var> {
    let StmtKind::Assign {
        target,
        op: None,
        value,
        ty: None,
    } = &s.kind
    else {
        return None;
    };
    let array_expr = matches!(
        value.kind,
        ExprKind::Binary(..)
            | ExprKind::Unary(..)
            | ExprKind::Index { .. }
            | ExprKind::Matrix(_)
            | ExprKind::Call {
                callee: Callee::Builtin(_),
                ..
            }
    );
    (target.path.is_empty() && array_expr && pure(value)).then_some(target.var)
}

/// Whether `e` calls no user function, closure or method (operators, literals,
/// variables, indices and builtins only).
fn pure(e: &Expr) -> bool {
    let mut ok = true;
    each_expr(e, &mut |x| {
        ok &= match &x.kind {
            ExprKind::Call { callee, .. } => matches!(callee, Callee::Builtin(_)),
            ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::Var(_)
            | ExprKind::Colon
            | ExprKind::Unary(..)
            | ExprKind::Binary(..)
            | ExprKind::Range { .. }
            | ExprKind::Index { .. }
            | ExprKind::Matrix(_) => true,
            _ => false,
        }
    });
    ok
}

fn count_function(f: &Function, c: &mut HashMap<Var, u32>) {
    for s in &f.body {
        count_stmt(s, c);
    }
    if let Some(r) = &f.result {
        count_expr(r, c);
    }
}

/// Counts every mention of a variable in a statement and its nested blocks.
fn count_stmt(s: &Stmt, c: &mut HashMap<Var, u32>) {
    let mut add = |v: Var| *c.entry(v).or_insert(0) += 1;
    match &s.kind {
        StmtKind::Assign { target, .. } => add(target.var),
        StmtKind::MultiAssign { targets, .. } => targets.iter().for_each(|t| add(t.var)),
        StmtKind::Declare { var, .. }
        | StmtKind::ForRange { var, .. }
        | StmtKind::ForEach { var, .. } => add(*var),
        StmtKind::Parallel(p) => {
            let outs = p.outputs.iter().flat_map(|(a, b)| [*a, *b]);
            p.args
                .iter()
                .chain(&p.written)
                .copied()
                .chain(outs)
                .for_each(add);
            for s in &p.combine {
                count_stmt(s, c);
            }
        }
        StmtKind::Serial(p) => {
            p.args
                .iter()
                .chain(&p.outputs)
                .chain(&p.temps)
                .copied()
                .for_each(add);
        }
        StmtKind::Rewritten(r) => {
            for (e, _) in &r.checks {
                count_expr(e, c);
            }
            if let Some(e) = &r.cond {
                count_expr(e, c);
            }
        }
        _ => {}
    }
    for e in own_exprs(s) {
        count_expr(e, c);
    }
    for b in blocks(s) {
        for s in b {
            count_stmt(s, c);
        }
    }
}

fn count_expr(e: &Expr, c: &mut HashMap<Var, u32>) {
    each_expr(e, &mut |x| {
        let vars: &[Var] = match &x.kind {
            ExprKind::Var(v) => std::slice::from_ref(v),
            ExprKind::Closure { captures, .. }
            | ExprKind::FuncValue(Callee::Nested { captures, .. })
            | ExprKind::Call {
                callee: Callee::Nested { captures, .. },
                ..
            } => captures,
            _ => &[],
        };
        for v in vars {
            *c.entry(*v).or_insert(0) += 1;
        }
    });
}
