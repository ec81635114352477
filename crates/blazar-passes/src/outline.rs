//! Outlining: a host loop nest the dependence analysis accepted becomes a generated
//! `__kernel__` function and a [`ParallelLoop`] plan that launches it.
//!
//! The kernel's parameters are the start and step of each parallel level, then the host
//! variables the body uses; `pos` gives the iteration. Accumulators become kernel
//! outputs; host statements after the launch fold each output into its variable or
//! element (`total += out`, `A[k] += out`, `m = min(m, out)`).

pub use crate::loop_cache::Caching;
use crate::loop_deps::{Analysis, Class, RedKind};
use blazar_diagnostics::Span;
use blazar_hir::{
    self as hir, Annot, BinOp, Callee, Expr, ExprKind, FnId, FnKind, IntKind, LoopLevel,
    ParallelLoop, Param, Place, Stmt, StmtKind, Ty, Var,
};
use std::collections::HashMap;

/// Names and builtins the outliner needs.
pub struct Names<'a> {
    pub builtin_name: &'a dyn Fn(u32) -> &'static str,
    pub builtin_id: &'a dyn Fn(&str) -> Option<u32>,
    /// The 1-based source line of a span (kernel names and reports).
    pub line_of: &'a dyn Fn(Span) -> u32,
}

/// The generated kernel function under construction.
pub(crate) struct Kernel {
    pub(crate) slots: HashMap<Var, u32>,
    pub(crate) names: Vec<String>,
    pub(crate) params: Vec<Param>,
}

impl Kernel {
    pub(crate) fn slot(&mut self, name: &str) -> u32 {
        self.names.push(name.to_string());
        self.names.len() as u32 - 1
    }

    pub(crate) fn param(&mut self, name: &str, ty: Option<Annot>, span: Span) -> u32 {
        let slot = self.slot(name);
        self.params.push(Param {
            name: name.to_string(),
            slot,
            ty,
            default: None,
            span,
        });
        slot
    }
}

pub(crate) fn e(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

pub(crate) fn assign(target: Place, op: Option<BinOp>, value: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Assign {
            target,
            op,
            value,
            ty: None,
        },
        span,
    }
}

pub(crate) fn place(var: Var, span: Span) -> Place {
    Place {
        var,
        path: vec![],
        span,
    }
}

/// Makes the kernel for the `depth` outer levels of the `for` nest `nest` (a
/// `ForRange` of host function `host`), adds it to the program, and returns the plan.
/// `var_name` names host variables; `new_host_var` makes a host variable for a result.
pub fn outline(
    prog: &mut hir::Program,
    nest: &Stmt,
    depth: usize,
    an: &Analysis,
    forced: bool,
    names: &Names,
    var_name: &dyn Fn(Var) -> String,
    new_host_var: &mut dyn FnMut(&mut hir::Program, String) -> Var,
    cache: Option<&Caching>,
) -> ParallelLoop {
    let span = nest.span;
    let line_tag = (names.line_of)(span);
    // The levels and the innermost parallel body.
    let mut levels = Vec::new();
    let mut cur = nest;
    let body = loop {
        let StmtKind::ForRange {
            var,
            start,
            step,
            end,
            body,
        } = &cur.kind
        else {
            unreachable!("the parallelizer outlines `for` nests only")
        };
        levels.push(LoopLevel {
            var: *var,
            start: start.clone(),
            step: step.clone(),
            end: end.clone(),
        });
        if levels.len() == depth {
            break body.clone();
        }
        cur = body
            .iter()
            .find(|s| matches!(s.kind, StmtKind::ForRange { .. }))
            .expect("the analysis checked the nest");
    };
    let mut k = Kernel {
        slots: HashMap::new(),
        names: vec![],
        params: vec![],
    };
    // Each level's start and step: literals, or parameters.
    let mut bounds = Vec::new();
    for (i, l) in levels.iter().enumerate() {
        bounds.push(match l.literal() {
            Some((a, s)) => (Bound::Lit(a), Bound::Lit(s)),
            None => {
                let lo = k.param(&format!("start{i}"), None, span);
                let st = k.param(&format!("step{i}"), None, span);
                (Bound::Slot(lo), Bound::Slot(st))
            }
        });
    }
    let mut args = Vec::new();
    let mut written = Vec::new();
    for (v, c) in &an.vars {
        if matches!(c, Class::Input | Class::Written | Class::Atomic) {
            let s = k.param(&var_name(*v), None, span);
            k.slots.insert(*v, s);
            args.push(*v);
            if *c != Class::Input {
                written.push(*v);
            }
        }
    }
    let pos_ty = if depth == 1 {
        Ty::Int(IntKind::I32)
    } else {
        Ty::FixedVec {
            elem: Box::new(Ty::Int(IntKind::I32)),
            len: depth as u32,
        }
    };
    let pos = k.param(
        "pos",
        Some(Annot {
            ty: pos_ty,
            mode: None,
            is_const: false,
        }),
        span,
    );
    // Outputs: one per scalar accumulator, one per element update of an ElemAccum array.
    let mut outputs = Vec::new();
    let mut out_params = Vec::new();
    let mut combine = Vec::new();
    let mut add_output = |prog: &mut hir::Program, k: &mut Kernel, name: String| {
        let slot = k.slot(&name);
        out_params.push(Param {
            name: name.clone(),
            slot,
            ty: None,
            default: None,
            span,
        });
        (slot, new_host_var(prog, format!("{name}@{line_tag}")))
    };
    for (v, c) in &an.vars {
        if let Class::Accum(kind) = c {
            let (slot, tmp) = add_output(prog, &mut k, var_name(*v));
            k.slots.insert(*v, slot);
            outputs.push((tmp, *v));
            combine.push(fold(place(*v, span), *kind, tmp, names, span));
        }
    }
    let mut body = body;
    let mut elem_outs = Vec::new();
    elem_updates(&mut body, an, &mut |target, op| {
        let kind = if matches!(op, Some(BinOp::Mul | BinOp::EMul)) {
            RedKind::Mul
        } else {
            RedKind::Add
        };
        elem_outs.push((target.clone(), kind));
    });
    let mut elem_slots = Vec::new();
    for (target, kind) in elem_outs {
        let (slot, tmp) = add_output(prog, &mut k, format!("{}[..]", var_name(target.var)));
        elem_slots.push(slot);
        outputs.push((tmp, target.var));
        combine.push(fold(target, kind, tmp, names, span));
    }
    // Rename the body into the kernel's slots; element updates to their outputs.
    let mut next = elem_slots.into_iter();
    redirect_elem_updates(&mut body, an, &mut || {
        next.next().expect("one output per update")
    });
    let mut rename = |v: Var| -> Var {
        // (Element updates already point at their outputs.)
        if let Var::Local(s) = v {
            if s >= ELEM_OUT {
                return Var::Local(s - ELEM_OUT);
            }
        }
        let slot = match k.slots.get(&v) {
            Some(s) => *s,
            None => {
                let s = k.slot(&var_name(v));
                k.slots.insert(v, s);
                s
            }
        };
        Var::Local(slot)
    };
    hir::visit::rename_stmts(&mut body, &mut rename);
    let level_vars: Vec<Var> = levels.iter().map(|l| rename(l.var)).collect();
    body.retain(|s| !matches!(s.kind, StmtKind::Attribute { .. }));
    // Prologue: each level's variable from its position.
    let mut prologue = Vec::new();
    for (i, (lv, (lo, st))) in level_vars.iter().zip(&bounds).enumerate() {
        let p = e(ExprKind::Var(Var::Local(pos)), span);
        let p = if depth == 1 {
            p
        } else {
            e(
                ExprKind::Index {
                    base: Box::new(p),
                    args: vec![e(ExprKind::Int(i as i64), span)],
                },
                span,
            )
        };
        let bound = |b: &Bound| match b {
            Bound::Lit(v) => e(ExprKind::Int(*v), span),
            Bound::Slot(s) => e(ExprKind::Var(Var::Local(*s)), span),
        };
        let scaled = match st {
            Bound::Lit(1) => p,
            st => e(
                ExprKind::Binary(BinOp::Mul, Box::new(bound(st)), Box::new(p)),
                span,
            ),
        };
        let value = match lo {
            Bound::Lit(0) => scaled,
            lo => e(
                ExprKind::Binary(BinOp::Add, Box::new(bound(lo)), Box::new(scaled)),
                span,
            ),
        };
        prologue.push(assign(place(*lv, span), None, value, span));
    }
    if let Some(c) = cache {
        let y = k.slots[&c.array];
        let (pro, epi) =
            crate::loop_cache::shared_cache(&mut k, &mut body, y, c.numel, depth, names, span);
        let mut all = pro;
        all.append(&mut prologue);
        prologue = all;
        body.extend(epi);
    }
    prologue.extend(body);
    let func = hir::Function {
        name: format!(
            "loop_line{line_tag}{}",
            if cache.is_some() { "_cached" } else { "" }
        ),
        kind: FnKind::Kernel,
        params: k.params,
        outputs: out_params,
        capture_slots: vec![],
        capture_names: vec![],
        n_locals: k.names.len() as u32,
        local_names: k.names,
        body: prologue,
        result: None,
        span,
        ty: Ty::Unknown,
    };
    prog.functions.push(func);
    let kernel = prog.functions.len() as FnId - 1;
    ParallelLoop {
        kernel,
        levels,
        args,
        written,
        outputs,
        combine,
        accesses: an.accesses.clone(),
        cached: None,
        tiling: None,
        forced,
        serial: Box::new(nest.clone()),
    }
}

/// A level's start or step in the kernel.
enum Bound {
    Lit(i64),
    Slot(u32),
}

/// Slots at or above this mark are outputs already chosen (see `redirect_elem_updates`).
const ELEM_OUT: u32 = 1 << 30;

/// The host statement that folds output `tmp` into `target`.
fn fold(target: Place, kind: RedKind, tmp: Var, names: &Names, span: Span) -> Stmt {
    let t = e(ExprKind::Var(tmp), span);
    match kind {
        RedKind::Add => assign(target, Some(BinOp::Add), t, span),
        RedKind::Mul => assign(target, Some(BinOp::Mul), t, span),
        RedKind::Min | RedKind::Max => {
            let name = if kind == RedKind::Min { "min" } else { "max" };
            let id = (names.builtin_id)(name).expect("min and max are builtins");
            let cur = e(ExprKind::Var(target.var), span);
            let value = e(
                ExprKind::Call {
                    callee: Callee::Builtin(id),
                    args: vec![cur, t],
                },
                span,
            );
            assign(target, None, value, span)
        }
    }
}

/// Visits every element update of an `ElemAccum` array, in order.
fn elem_updates(body: &mut [Stmt], an: &Analysis, f: &mut dyn FnMut(&Place, Option<BinOp>)) {
    hir::visit::each_stmt_mut(body, &mut |s| {
        if let StmtKind::Assign { target, op, .. } = &s.kind {
            if !target.path.is_empty() && an.class(target.var) == Some(Class::ElemAccum) {
                f(target, *op);
            }
        }
    });
}

/// Points every element update of an `ElemAccum` array at its output (marked with
/// [`ELEM_OUT`] so that renaming keeps it), and scalar accumulations `s = s + e` in
/// the in-place form `s += e` that kernel outputs take.
fn redirect_elem_updates(body: &mut [Stmt], an: &Analysis, next: &mut dyn FnMut() -> u32) {
    hir::visit::each_stmt_mut(body, &mut |s| {
        if let StmtKind::Assign { target, op, .. } = &mut s.kind {
            if !target.path.is_empty() && an.class(target.var) == Some(Class::ElemAccum) {
                target.var = Var::Local(next() + ELEM_OUT);
                target.path.clear();
                if *op == Some(BinOp::EMul) {
                    *op = Some(BinOp::Mul);
                }
            }
        }
        in_place_form(s, an);
    });
}

/// `s = s + e` → `s += e`, `s = e * s` → `s *= e`, `s = s - e` → `s -= e` for a scalar
/// accumulator `s` (min and max keep their call form, which the kernel lowering knows).
fn in_place_form(s: &mut Stmt, an: &Analysis) {
    let StmtKind::Assign {
        target, op, value, ..
    } = &mut s.kind
    else {
        return;
    };
    let v = target.var;
    if op.is_some() || !target.path.is_empty() || !matches!(an.class(v), Some(Class::Accum(_))) {
        return;
    }
    let is_v = |x: &Expr| matches!(x.kind, ExprKind::Var(y) if y == v);
    let (new_op, other) = match &value.kind {
        ExprKind::Binary(o @ (BinOp::Add | BinOp::Mul | BinOp::EMul), a, b) if is_v(a) => {
            (*o, (**b).clone())
        }
        ExprKind::Binary(o @ (BinOp::Add | BinOp::Mul | BinOp::EMul), a, b) if is_v(b) => {
            (*o, (**a).clone())
        }
        ExprKind::Binary(BinOp::Sub, a, b) if is_v(a) => (BinOp::Sub, (**b).clone()),
        _ => return,
    };
    *op = Some(if new_op == BinOp::EMul {
        BinOp::Mul
    } else {
        new_op
    });
    *value = other;
}
