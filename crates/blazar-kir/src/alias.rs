//! Aliases of specials: variables assigned a special once (`v = pos`) and read only
//! after that assignment, so every backend may read the special in their place (the
//! CPU executor aliases the special's registers, the native tier reads its own thread
//! counters). Also the assignment counts the analysis rests on.

use crate::{Bind, Expr, ExprKind, Kernel, Special, Stmt, StmtKind, Ty};
use std::collections::HashMap;

/// The variables of `k` that always hold a special when read (`v = pos` assigned once,
/// every read after it in its block), with that special: other backends may read the
/// special instead (the native CPU tier does).
pub fn kernel_aliases(k: &Kernel) -> HashMap<u32, Special> {
    let mut assigned = vec![0u32; k.vars.len()];
    count_assigns(&k.body, &mut assigned);
    special_aliases(k, &assigned)
}

/// How many times each variable is assigned (`for` counts twice), by variable.
pub fn count_assigns(b: &[Stmt], n: &mut [u32]) {
    for s in b {
        match &s.kind {
            StmtKind::Assign { var, .. } | StmtKind::SetLane { var, .. } => {
                if let Some(c) = n.get_mut(*var as usize) {
                    *c += 1;
                }
            }
            StmtKind::For { var, body, .. } => {
                if let Some(c) = n.get_mut(*var as usize) {
                    *c += 2;
                }
                count_assigns(body, n);
            }
            StmtKind::Call { outs, .. } => {
                for v in outs {
                    if let Some(c) = n.get_mut(*v as usize) {
                        *c += 2;
                    }
                }
            }
            StmtKind::If { then, els, .. } => {
                count_assigns(then, n);
                count_assigns(els, n);
            }
            StmtKind::While { body, .. } => count_assigns(body, n),
            _ => {}
        }
    }
}

/// Variables assigned once, at top level, from a special (and not parameters).
fn special_aliases(k: &Kernel, assigned: &[u32]) -> HashMap<u32, Special> {
    let params: Vec<u32> = k
        .params
        .iter()
        .filter_map(|p| match p.bind {
            Bind::Var(v) => Some(v),
            Bind::Array(_) => None,
        })
        .collect();
    let mut out = HashMap::new();
    for s in &k.body {
        if let StmtKind::Assign { var, value } = &s.kind {
            if let ExprKind::Special(sp) = value.kind {
                let ok = sp != Special::WarpSize
                    && assigned.get(*var as usize) == Some(&1)
                    && !params.contains(var)
                    && k.vars.get(*var as usize).is_some_and(|d| d.ty == value.ty);
                if ok {
                    out.insert(*var, sp);
                }
            }
        }
    }
    // A nested `v = special`, when every read of `v` follows it in its block (so each
    // read sees the assignment of the same pass through that block).
    let mut nested = Vec::new();
    nested_specials(&k.body, &mut nested);
    for (var, sp, ty, rest) in nested {
        let ok = sp != Special::WarpSize
            && !out.contains_key(&var)
            && assigned.get(var as usize) == Some(&1)
            && !params.contains(&var)
            && k.vars.get(var as usize).is_some_and(|d| d.ty == ty)
            && stmt_reads(&k.body, var) == stmt_reads(rest, var);
        if ok {
            out.insert(var, sp);
        }
    }
    out
}

/// Every `v = special` below the top level, with the statements after it in its block.
fn nested_specials<'a>(b: &'a [Stmt], out: &mut Vec<(u32, Special, Ty, &'a [Stmt])>) {
    for s in b {
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                nested_block(then, out);
                nested_block(els, out);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => nested_block(body, out),
            _ => {}
        }
    }
}

fn nested_block<'a>(b: &'a [Stmt], out: &mut Vec<(u32, Special, Ty, &'a [Stmt])>) {
    for (i, s) in b.iter().enumerate() {
        if let StmtKind::Assign { var, value } = &s.kind {
            if let ExprKind::Special(sp) = value.kind {
                out.push((*var, sp, value.ty, &b[i + 1..]));
            }
        }
    }
    nested_specials(b, out);
}

/// How many times the statements read variable `v`.
fn stmt_reads(b: &[Stmt], v: u32) -> usize {
    let ex = |es: &[&Expr]| es.iter().map(|e| expr_reads(e, v)).sum::<usize>();
    b.iter()
        .map(|s| match &s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => ex(&[value]),
            StmtKind::SetLane { lane, value, .. } => ex(&[lane, value]) + 1,
            StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
                index.iter().map(|e| expr_reads(e, v)).sum::<usize>() + ex(&[value])
            }
            StmtKind::If { cond, then, els } => {
                ex(&[cond]) + stmt_reads(then, v) + stmt_reads(els, v)
            }
            StmtKind::While { cond, body } => ex(&[cond]) + stmt_reads(body, v),
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => ex(&[start, step, end]) + stmt_reads(body, v),
            StmtKind::Assert { cond } => ex(&[cond]),
            StmtKind::AllocShared { dims, .. } | StmtKind::AllocLocal { dims, .. } => {
                dims.iter().map(|e| expr_reads(e, v)).sum()
            }
            StmtKind::Call { args, .. } => args.iter().map(|e| expr_reads(e, v)).sum(),
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Barrier | StmtKind::Return => 0,
        })
        .sum()
}

fn expr_reads(e: &Expr, v: u32) -> usize {
    match &e.kind {
        ExprKind::Var(x) => usize::from(*x == v),
        ExprKind::Const(_) | ExprKind::Special(_) | ExprKind::Size { .. } | ExprKind::Numel(_) => 0,
        ExprKind::Load { index, .. } => index.iter().map(|x| expr_reads(x, v)).sum(),
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Splat(a)
        | ExprKind::VecReduce(_, a) => expr_reads(a, v),
        ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => expr_reads(a, v) + expr_reads(b, v),
        ExprKind::Select(c, a, b) => expr_reads(c, v) + expr_reads(a, v) + expr_reads(b, v),
        ExprKind::Math(_, args) | ExprKind::VecLit(args) => {
            args.iter().map(|x| expr_reads(x, v)).sum()
        }
    }
}
