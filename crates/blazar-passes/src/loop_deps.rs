//! Dependence analysis of a host loop body: whether its iterations are independent,
//! and what each variable becomes in a kernel (an argument, a private value, an
//! accumulator, an array written element by element, an array updated atomically).
//!
//! The analysis is syntactic and conservative: an index is understood when it is a loop
//! variable plus a loop-invariant offset, or loop-invariant; everything else is treated
//! as data-dependent. Host code is dynamically typed, so the kernel is still compiled at
//! run time, and a body the kernel lowering rejects runs serially.

use crate::loop_body::{eligible, names_any, same_expr, Uses};
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, BinOp, Callee, Expr, ExprKind, IndexForm, Stmt, StmtKind, Var};
use std::collections::HashSet;

/// The kind of a reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedKind {
    /// `+=`, `-=`, `s = s + e`, `s = s - e`.
    Add,
    /// `*=`, `s = s * e`.
    Mul,
    Min,
    Max,
}

impl RedKind {
    pub fn word(self) -> &'static str {
        match self {
            RedKind::Add => "sum",
            RedKind::Mul => "product",
            RedKind::Min => "minimum",
            RedKind::Max => "maximum",
        }
    }
}

/// What a variable of the body becomes in the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A loop variable of a parallel level (from `pos`).
    Level,
    /// Read only: passed to the kernel.
    Input,
    /// Assigned before it is read in every iteration, and dead after the loop.
    Private,
    /// A scalar accumulator: one kernel output.
    Accum(RedKind),
    /// An array updated at loop-invariant indices only (`A[k] += e`): one output per
    /// update, folded into the element after the kernel.
    ElemAccum,
    /// An array written at an element that identifies the iteration.
    Written,
    /// An array updated with `+=`/`-=` at data-dependent indices: atomic updates.
    Atomic,
}

/// The verdict for one loop nest.
pub struct Analysis {
    /// Every variable the body mentions, in order of first mention, with its class.
    pub vars: Vec<(Var, Class)>,
    /// The element accesses of every array the kernel takes, index by index.
    pub accesses: Vec<(Var, Vec<Vec<IndexForm>>)>,
}

impl Analysis {
    pub fn class(&self, v: Var) -> Option<Class> {
        self.vars.iter().find(|(x, _)| *x == v).map(|(_, c)| *c)
    }

    pub fn has(&self, c: impl Fn(Class) -> bool) -> bool {
        self.vars.iter().any(|(_, k)| c(*k))
    }
}

pub use crate::kernel_form::Refusal;

/// Analyses `body` with the loop variables `levels` as the parallel dimensions.
/// `live_after(v)` says whether the value of `v` is read after the loop; `name(v)` is a
/// variable's name for messages; `forced` is `#pragma force_parallel`.
pub fn analyze(
    levels: &[Var],
    body: &[Stmt],
    span: Span,
    forced: bool,
    builtin_name: &dyn Fn(u32) -> &'static str,
    prog: &hir::Program,
    live_after: &dyn Fn(Var) -> bool,
    name: &dyn Fn(Var) -> String,
) -> Result<Analysis, Refusal> {
    eligible(body, 0, builtin_name, prog)?;
    let uses = Uses::collect(body, builtin_name);
    let modified: HashSet<Var> = uses.whole_writes.keys().copied().collect();
    let mut vars = Vec::new();
    let mut accums = HashSet::new();
    for &v in &uses.order {
        if uses.whole_writes.contains_key(&v) {
            if let Some(k) = accumulator(v, &uses, builtin_name) {
                accums.insert(v);
                vars.push((v, Class::Accum(k)));
            }
        }
    }
    let mut carried = HashSet::new();
    let mut defined: HashSet<Var> = levels.iter().copied().collect();
    let candidates: HashSet<Var> = modified.difference(&accums).copied().collect();
    definite(body, &mut defined, &candidates, &mut carried);
    let invariant = |e: &Expr| !names_any(e, levels) && !names_any_set(e, &modified);
    for &v in &uses.order {
        if accums.contains(&v) {
            continue;
        }
        let n = name(v);
        let class = if levels.contains(&v) {
            if uses.whole_writes.contains_key(&v) || uses.elem_writes.contains_key(&v) {
                return Err((
                    span,
                    format!("the loop variable `{n}` is assigned in the loop"),
                ));
            }
            Class::Level
        } else if let Some(w) = uses.whole_writes.get(&v) {
            if carried.contains(&v) {
                return Err((
                    w[0],
                    format!(
                        "`{n}` is read before it is assigned in an iteration, so its value is carried from one iteration to the next"
                    ),
                ));
            }
            if live_after(v) {
                return Err((
                    w[0],
                    format!("`{n}` is used after the loop, which needs its value from the last iteration"),
                ));
            }
            Class::Private
        } else if let Some(writes) = uses.elem_writes.get(&v) {
            let reads = uses.elem_reads.get(&v).map(Vec::as_slice).unwrap_or(&[]);
            let whole = uses.plain_reads.get(&v).copied().unwrap_or(0);
            let adds = writes
                .iter()
                .all(|w| matches!(w.op, Some(BinOp::Add | BinOp::Sub)));
            let muls = writes
                .iter()
                .all(|w| matches!(w.op, Some(BinOp::Mul | BinOp::EMul)));
            let all_invariant = writes.iter().all(|w| w.index.iter().all(&invariant));
            let first = writes[0].index;
            let dims = level_dims(first, levels, &invariant);
            let own = |x: &[Expr]| {
                dims.as_ref()
                    .is_some_and(|d| same_iteration(first, d, x, levels, &invariant))
            };
            if reads.is_empty() && whole == 0 && all_invariant && (adds || muls) {
                Class::ElemAccum
            } else if whole == 0
                && writes.iter().all(|w| own(w.index))
                && reads.iter().all(|r| own(r))
            {
                Class::Written
            } else if reads.is_empty() && whole == 0 && adds {
                Class::Atomic
            } else if forced {
                Class::Written
            } else if let Some(r) = reads.iter().find(|r| dims.is_some() && !own(r)) {
                return Err((
                    r.first().map(|e| e.span).unwrap_or(span),
                    format!(
                        "`{n}` is read at another element than the one this iteration writes, so iterations depend on each other"
                    ),
                ));
            } else if whole > 0 {
                return Err((
                    writes[0].span,
                    format!("`{n}` is used as a whole while the loop writes its elements"),
                ));
            } else {
                return Err((
                    writes[0].span,
                    format!(
                        "`{n}` is written at an index that does not identify the iteration, so two iterations may write one element"
                    ),
                ));
            }
        } else {
            Class::Input
        };
        vars.push((v, class));
    }
    // Keep first-mention order for everything.
    vars.sort_by_key(|(v, _)| uses.order.iter().position(|x| x == v));
    let literal = |e: &Expr| match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Unary(hir::UnOp::Neg, a) => match a.kind {
            ExprKind::Int(v) => Some(-v),
            _ => None,
        },
        _ => None,
    };
    let form = |e: &Expr| {
        if let Some(c) = literal(e) {
            return IndexForm::Const(c);
        }
        match affine(e, levels, &|x| literal(x).is_some()) {
            Some((level, None)) => IndexForm::Level { level, offset: 0 },
            Some((level, Some((o, neg)))) => match literal(o) {
                Some(c) => IndexForm::Level {
                    level,
                    offset: if neg { -c } else { c },
                },
                None => IndexForm::Unknown,
            },
            None => IndexForm::Unknown,
        }
    };
    let mut accesses = Vec::new();
    for (v, c) in &vars {
        if matches!(c, Class::Input | Class::Written | Class::Atomic) {
            let lists = uses.elem_reads.get(v).into_iter().flatten().copied();
            let writes = uses
                .elem_writes
                .get(v)
                .into_iter()
                .flatten()
                .map(|w| w.index);
            let all: Vec<Vec<IndexForm>> = lists
                .chain(writes)
                .map(|l| l.iter().map(form).collect())
                .collect();
            if !all.is_empty() {
                accesses.push((*v, all));
            }
        }
    }
    Ok(Analysis { vars, accesses })
}

fn names_any_set(e: &Expr, set: &HashSet<Var>) -> bool {
    let mut hit = false;
    hir::visit::each_expr(e, &mut |x| {
        if let ExprKind::Var(v) = x.kind {
            hit |= set.contains(&v);
        }
    });
    hit
}

/// The level whose variable `e` is plus a loop-invariant offset (`i`, `i + c`, `c + i`,
/// `i - c`), with the offset and whether it is subtracted.
fn affine<'e>(
    e: &'e Expr,
    levels: &[Var],
    invariant: &dyn Fn(&Expr) -> bool,
) -> Option<(usize, Option<(&'e Expr, bool)>)> {
    match &e.kind {
        ExprKind::Var(v) => levels.iter().position(|l| l == v).map(|k| (k, None)),
        ExprKind::Binary(BinOp::Add, a, b) => match &a.kind {
            ExprKind::Var(v) if levels.contains(v) && invariant(b) => {
                Some((levels.iter().position(|l| l == v)?, Some((&**b, false))))
            }
            _ => match &b.kind {
                ExprKind::Var(v) if levels.contains(v) && invariant(a) => {
                    Some((levels.iter().position(|l| l == v)?, Some((&**a, false))))
                }
                _ => None,
            },
        },
        ExprKind::Binary(BinOp::Sub, a, b) if invariant(b) => match &a.kind {
            ExprKind::Var(v) => Some((levels.iter().position(|l| l == v)?, Some((&**b, true)))),
            _ => None,
        },
        _ => None,
    }
}

/// For each level, the first index of `index` that is that level plus an offset; `None`
/// unless every level has one. Two iterations then never index the same element.
fn level_dims(
    index: &[Expr],
    levels: &[Var],
    invariant: &dyn Fn(&Expr) -> bool,
) -> Option<Vec<usize>> {
    (0..levels.len())
        .map(|k| {
            index
                .iter()
                .position(|e| affine(e, levels, invariant).is_some_and(|(l, _)| l == k))
        })
        .collect()
}

/// Whether `other` indexes an element of the same iteration as `write` does: at each
/// level's index of the write, the same level with the same offset.
fn same_iteration(
    write: &[Expr],
    dims: &[usize],
    other: &[Expr],
    levels: &[Var],
    invariant: &dyn Fn(&Expr) -> bool,
) -> bool {
    other.len() == write.len()
        && dims.iter().all(|&d| {
            match (
                affine(&write[d], levels, invariant),
                affine(&other[d], levels, invariant),
            ) {
                (Some((k1, o1)), Some((k2, o2))) => {
                    k1 == k2
                        && match (o1, o2) {
                            (None, None) => true,
                            (Some((a, n1)), Some((b, n2))) => n1 == n2 && same_expr(a, b),
                            _ => false,
                        }
                }
                _ => false,
            }
        })
}

/// The reduction `v` takes part in, when every assignment of `v` in the body
/// accumulates into it and nothing else reads it.
fn accumulator(v: Var, uses: &Uses, builtin_name: &dyn Fn(u32) -> &'static str) -> Option<RedKind> {
    if uses.elem_writes.contains_key(&v) || uses.elem_reads.contains_key(&v) {
        return None;
    }
    let mut kind = None;
    let mut pattern_reads = 0;
    for s in uses.whole_stmts.get(&v)? {
        let (k, reads) = accumulation(s, v, builtin_name)?;
        if kind.is_some_and(|x| x != k) {
            return None;
        }
        kind = Some(k);
        pattern_reads += reads;
    }
    (uses.plain_reads.get(&v).copied().unwrap_or(0) == pattern_reads).then_some(kind?)
}

/// Whether statement `s` accumulates into `v`: its kind and how many times it reads `v`.
pub fn accumulation(
    s: &Stmt,
    v: Var,
    builtin_name: &dyn Fn(u32) -> &'static str,
) -> Option<(RedKind, usize)> {
    let StmtKind::Assign {
        target,
        op,
        value,
        ty,
    } = &s.kind
    else {
        return None;
    };
    // A declared type converts every step (`s : int8 = 0` then `s += e`). Real and
    // complex ones convert as a kernel output accumulates; an int one refuses a
    // non-integral value on the host, which a kernel output cannot (issue 32).
    if ty
        .as_ref()
        .is_some_and(|a| !matches!(a.ty, blazar_hir::Ty::Scalar | blazar_hir::Ty::CScalar))
    {
        return None;
    }
    if target.var != v || !target.path.is_empty() || names_any(value, &[v]) && op.is_some() {
        return None;
    }
    let is_v = |e: &Expr| matches!(e.kind, ExprKind::Var(x) if x == v);
    match op {
        Some(BinOp::Add | BinOp::Sub) => Some((RedKind::Add, 0)),
        Some(BinOp::Mul | BinOp::EMul) => Some((RedKind::Mul, 0)),
        Some(_) => None,
        None => {
            let (k, other) = match &value.kind {
                ExprKind::Binary(BinOp::Add, a, b) if is_v(a) => (RedKind::Add, &**b),
                ExprKind::Binary(BinOp::Add, a, b) if is_v(b) => (RedKind::Add, &**a),
                ExprKind::Binary(BinOp::Sub, a, b) if is_v(a) => (RedKind::Add, &**b),
                ExprKind::Binary(BinOp::Mul | BinOp::EMul, a, b) if is_v(a) => (RedKind::Mul, &**b),
                ExprKind::Binary(BinOp::Mul | BinOp::EMul, a, b) if is_v(b) => (RedKind::Mul, &**a),
                ExprKind::Call {
                    callee: Callee::Builtin(id),
                    args,
                } if args.len() == 2 => {
                    let k = match builtin_name(*id) {
                        "min" => RedKind::Min,
                        "max" => RedKind::Max,
                        _ => return None,
                    };
                    if is_v(&args[0]) {
                        (k, &args[1])
                    } else if is_v(&args[1]) {
                        (k, &args[0])
                    } else {
                        return None;
                    }
                }
                _ => return None,
            };
            (!names_any(other, &[v])).then_some((k, 1))
        }
    }
}

/// Definite assignment: records in `carried` every variable of `candidates` read before
/// an assignment of it in the same iteration.
fn definite(
    stmts: &[Stmt],
    defined: &mut HashSet<Var>,
    candidates: &HashSet<Var>,
    carried: &mut HashSet<Var>,
) {
    for s in stmts {
        for e in hir::visit::own_exprs(s) {
            hir::visit::each_expr(e, &mut |x| {
                if let ExprKind::Var(v) = x.kind {
                    if candidates.contains(&v) && !defined.contains(&v) {
                        carried.insert(v);
                    }
                }
            });
        }
        match &s.kind {
            StmtKind::Assign { target, op, .. } => {
                let v = target.var;
                if (op.is_some() || !target.path.is_empty())
                    && candidates.contains(&v)
                    && !defined.contains(&v)
                {
                    carried.insert(v);
                }
                if op.is_none() && target.path.is_empty() {
                    defined.insert(v);
                }
            }
            StmtKind::ForRange { var, body, .. } => {
                let mut d = defined.clone();
                d.insert(*var);
                definite(body, &mut d, candidates, carried);
            }
            _ => {
                for b in hir::visit::blocks(s) {
                    let mut d = defined.clone();
                    definite(b, &mut d, candidates, carried);
                }
            }
        }
    }
}
