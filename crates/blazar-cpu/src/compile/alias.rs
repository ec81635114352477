//! Pre-passes over a kernel body: assignment counts and `v = pos` aliases.

use blazar_kir::{Bind, ExprKind, Kernel, Special, Stmt, StmtKind};
use std::collections::HashMap;

pub(super) fn count_assigns(b: &[Stmt], n: &mut [u32]) {
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
pub(super) fn special_aliases(k: &Kernel, assigned: &[u32]) -> HashMap<u32, Special> {
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
    out
}
