//! Static checks for errors `run` would report where the code runs: kernel-only
//! intrinsics in host code, and lambdas that capture a variable before it is assigned.
//! Each reports only what is certain whenever the code runs, so `check` never refuses a
//! program that runs.

use crate::hir::FnKind;
use crate::hir::{Callee, ExprKind, FnId, Function, Intrinsic, Program, Stmt, StmtKind, Var};
use crate::visit::{blocks, each_expr, each_expr_in, own_exprs};
use blazar_diagnostics::{Diagnostic, Span};
use std::collections::HashSet;

pub(crate) fn check(p: &Program, diags: &mut Vec<Diagnostic>) {
    let device = device_reachable(p);
    for (id, f) in p.functions.iter().enumerate() {
        if f.kind == FnKind::Host && !device.contains(&(id as FnId)) {
            kernel_only_intrinsics(&f.body, diags);
        }
        captured_before_assigned(f, diags);
        attributes(&f.body, diags);
    }
}

/// The arguments of the attributes that steer kernels parse to what they say: a
/// malformed value is an error, a stray `}` after the last one a warning.
fn attributes(body: &[Stmt], diags: &mut Vec<Diagnostic>) {
    for s in body {
        if let StmtKind::Attribute { name, args, .. } = &s.kind {
            if crate::attr_args::KEYED.contains(&name.as_str()) {
                match crate::attr_args::parse(args) {
                    Err(m) => diags.push(Diagnostic::error(s.span, format!("`!{name}`: {m}"))),
                    Ok(a) => {
                        if a.stray_brace {
                            diags.push(Diagnostic::warning(
                                s.span,
                                format!("`!{name}`: the `}}` after the last value is ignored"),
                            ));
                        }
                        let dims = a.get("dims");
                        if name == "kernel_tiling"
                            && dims.is_none_or(|d| crate::attr_args::extents(d).is_none())
                        {
                            diags.push(Diagnostic::error(
                                s.span,
                                format!(
                                    "`!kernel_tiling`: `dims` must be a list of positive extents, such as dims=[16, 16], not {}",
                                    dims.map_or("missing".to_string(), |d| format!("`{d}`"))
                                ),
                            ));
                        }
                    }
                }
            }
        }
        for b in blocks(s) {
            attributes(b, diags);
        }
    }
}

/// Functions that may run in kernel code: kernel and device functions, the functions
/// they refer to (transitively), and every function used as a value (it may be passed
/// to a kernel).
fn device_reachable(p: &Program) -> HashSet<FnId> {
    let mut set: HashSet<FnId> = HashSet::new();
    let mut work: Vec<FnId> = Vec::new();
    for (id, f) in p.functions.iter().enumerate() {
        let id = id as FnId;
        if f.kind != FnKind::Host {
            set.insert(id);
            work.push(id);
        }
        each_expr_in(&f.body, &mut |e| {
            if let ExprKind::Closure { func, .. } = &e.kind {
                push(*func, &mut set, &mut work);
            }
            if let ExprKind::FuncValue(c) = &e.kind {
                for g in callee_fns(p, c) {
                    push(g, &mut set, &mut work);
                }
            }
        });
    }
    while let Some(id) = work.pop() {
        let Some(f) = p.functions.get(id as usize) else {
            continue;
        };
        each_expr_in(&f.body, &mut |e| {
            if let ExprKind::Call { callee, .. } = &e.kind {
                for g in callee_fns(p, callee) {
                    push(g, &mut set, &mut work);
                }
            }
        });
    }
    set
}

fn push(id: FnId, set: &mut HashSet<FnId>, work: &mut Vec<FnId>) {
    if set.insert(id) {
        work.push(id);
    }
}

fn callee_fns(p: &Program, c: &Callee) -> Vec<FnId> {
    match c {
        Callee::Group(g) => p
            .groups
            .get(*g as usize)
            .map(|g| g.members.clone())
            .unwrap_or_default(),
        Callee::Nested { func, .. } | Callee::SelfCall(func) => vec![*func],
        _ => vec![],
    }
}

/// `syncthreads`, `shared` and `shared_zeros` in a function that never runs as kernel
/// code: `run` refuses them where they are reached.
fn kernel_only_intrinsics(body: &[Stmt], diags: &mut Vec<Diagnostic>) {
    each_expr_in(body, &mut |e| {
        let c = match &e.kind {
            ExprKind::Call { callee, .. } => callee,
            ExprKind::FuncValue(c) => c,
            _ => return,
        };
        if let Callee::Intrinsic(
            i @ (Intrinsic::Syncthreads | Intrinsic::Shared | Intrinsic::SharedZeros),
        ) = c
        {
            let name = match i {
                Intrinsic::Syncthreads => "syncthreads",
                Intrinsic::Shared => "shared",
                _ => "shared_zeros",
            };
            diags.push(Diagnostic::error(
                e.span,
                format!("`{name}` can only be used inside a kernel function (this code runs on the host)"),
            ));
        }
    });
}

/// A lambda or nested function in the straight-line part of a body (not inside a branch
/// or loop) that captures a local no earlier statement can have assigned.
fn captured_before_assigned(f: &Function, diags: &mut Vec<Diagnostic>) {
    let mut assigned: HashSet<Var> = HashSet::new();
    for p in f.params.iter() {
        assigned.insert(Var::Local(p.slot));
    }
    for &s in &f.capture_slots {
        assigned.insert(Var::Local(s));
    }
    let mut reported: HashSet<Var> = HashSet::new();
    for s in &f.body {
        for e in own_exprs(s) {
            each_expr(e, &mut |x| {
                let (captures, span): (&[Var], Span) = match &x.kind {
                    ExprKind::Closure { captures, .. } => (captures, x.span),
                    ExprKind::Call {
                        callee: Callee::Nested { captures, .. },
                        ..
                    } => (captures, x.span),
                    _ => return,
                };
                for v in captures {
                    if matches!(v, Var::Local(_)) && !assigned.contains(v) && reported.insert(*v) {
                        let name = match v {
                            Var::Local(i) => f.local_names.get(*i as usize).cloned(),
                            Var::Global(_) => None,
                        }
                        .unwrap_or_default();
                        diags.push(Diagnostic::error(
                            span,
                            format!("variable `{name}` is captured before it is assigned"),
                        ));
                    }
                }
            });
        }
        assigns(s, &mut assigned);
    }
}

/// Every variable a statement (or a block inside it) may assign.
fn assigns(s: &Stmt, out: &mut HashSet<Var>) {
    match &s.kind {
        StmtKind::Assign { target, .. } => {
            out.insert(target.var);
        }
        StmtKind::MultiAssign { targets, .. } => out.extend(targets.iter().map(|t| t.var)),
        StmtKind::ForRange { var, .. } | StmtKind::ForEach { var, .. } => {
            out.insert(*var);
        }
        // Rewritten and parallel statements come from passes that run after `check`.
        _ => {}
    }
    for b in blocks(s) {
        for t in b {
            assigns(t, out);
        }
    }
}
