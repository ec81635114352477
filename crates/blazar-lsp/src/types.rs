//! The static types the checker knows, keyed by the place that assigns them: a
//! variable's declared type, else the type `blazar_hir::expr_type` gives its value (with
//! lambdas, user functions with declared outputs and typed constructors added).
//! Anything the checker cannot tell is `??`: nothing is guessed.

use blazar_hir::{Annot, Callee, Expr, ExprKind, Param, Program, Stmt, StmtKind, Ty, Var};
use std::collections::HashMap;

/// Types by the span (`lo`, `hi`) of an assignment's target or a `for` statement.
pub type TypeMap = HashMap<(u32, u32), Ty>;

/// The types of builtin calls the checker knows (`zeros(3, 3)` is a `mat`), by the
/// start of the call (its name).
pub type CallTypes = HashMap<u32, Ty>;

/// The name of builtin `id`, for `blazar_hir::expr_type_with`.
fn builtin_name(id: u32) -> Option<String> {
    Some(blazar_runtime::builtins::get(id).name.to_string())
}

/// Globals (the script's variables) are known to `expr_type` as locals from here on.
const GLOBAL: u32 = 1 << 30;

/// The slot `expr_type` knows a variable by.
fn slot(v: Var) -> u32 {
    match v {
        Var::Local(s) => s,
        Var::Global(g) => GLOBAL + g,
    }
}

/// `e` with its globals renamed to their slots from [`GLOBAL`] on, in the parts
/// `expr_type` reads.
fn localize(e: &Expr) -> Expr {
    let kind = match &e.kind {
        ExprKind::Var(v) => ExprKind::Var(Var::Local(slot(*v))),
        ExprKind::Unary(op, a) => ExprKind::Unary(*op, Box::new(localize(a))),
        ExprKind::Binary(op, a, b) => {
            ExprKind::Binary(*op, Box::new(localize(a)), Box::new(localize(b)))
        }
        ExprKind::Ternary(c, a, b) => ExprKind::Ternary(
            Box::new(localize(c)),
            Box::new(localize(a)),
            Box::new(localize(b)),
        ),
        ExprKind::Call {
            callee: callee @ Callee::Builtin(_),
            args,
        } => ExprKind::Call {
            callee: callee.clone(),
            args: args.iter().map(localize).collect(),
        },
        ExprKind::Matrix(items) => ExprKind::Matrix(items.iter().map(localize).collect()),
        other => other.clone(),
    };
    Expr { kind, span: e.span }
}

pub fn collect(p: &Program) -> (TypeMap, CallTypes) {
    let mut out = TypeMap::new();
    let mut calls = CallTypes::new();
    for f in &p.functions {
        // A function's own type, by its span.
        out.insert((f.span.lo, f.span.hi), f.ty.clone());
        // Parameters and every local with a declared type are the known variables.
        let mut known: Vec<Param> = f.params.iter().chain(&f.outputs).cloned().collect();
        declared(&f.body, &mut known);
        // A local whose assignments all have one known type is known too; that may
        // tell more types, so the walk repeats (a few times: chains are short).
        for _ in 0..4 {
            let mut w = Walk {
                p,
                known: &known,
                out: &mut out,
                by_slot: HashMap::new(),
            };
            w.block(&f.body);
            let before = known.len();
            for (slot, tys) in w.by_slot {
                let agreed = tys.iter().all(|t| *t == tys[0]) && tys[0] != Ty::Unknown;
                if agreed && !known.iter().any(|p| p.slot == slot) {
                    let ty = Annot {
                        ty: tys[0].clone(),
                        mode: None,
                        is_const: false,
                    };
                    push(&mut known, slot, &ty, f.span);
                }
            }
            if known.len() == before {
                break;
            }
        }
        // The builtin calls, with every variable type found above.
        let w = Walk {
            p,
            known: &known,
            out: &mut out,
            by_slot: HashMap::new(),
        };
        blazar_hir::visit::each_expr_in(&f.body, &mut |e: &Expr| {
            if let ExprKind::Call {
                callee: Callee::Builtin(_),
                ..
            } = e.kind
            {
                let t = w.value(e);
                if t != Ty::Unknown {
                    calls.insert(e.span.lo, t);
                }
            }
        });
    }
    (out, calls)
}

/// Locals whose type a declaration fixes, as parameters `expr_type` can read.
fn declared(b: &[Stmt], known: &mut Vec<Param>) {
    for s in b {
        match &s.kind {
            StmtKind::Declare { var, ty } => push(known, slot(*var), ty, s.span),
            StmtKind::Assign {
                target,
                ty: Some(ty),
                ..
            } if target.path.is_empty() => push(known, slot(target.var), ty, s.span),
            _ => each_block(s, |b| declared(b, known)),
        }
    }
}

fn push(known: &mut Vec<Param>, slot: u32, ty: &Annot, span: blazar_diagnostics::Span) {
    if !known.iter().any(|p| p.slot == slot) {
        known.push(Param {
            name: String::new(),
            slot,
            ty: Some(ty.clone()),
            default: None,
            span,
        });
    }
}

/// Calls `f` on each statement block directly inside `s`.
fn each_block(s: &Stmt, mut f: impl FnMut(&[Stmt])) {
    match &s.kind {
        StmtKind::If { arms, otherwise } => {
            arms.iter().for_each(|(_, b)| f(b));
            f(otherwise);
        }
        StmtKind::ForRange { body, .. }
        | StmtKind::ForEach { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Repeat { body, .. } => f(body),
        StmtKind::Match { arms, .. } => arms.iter().for_each(|(_, b)| f(b)),
        // A loop the parallelizer made a kernel: as written.
        StmtKind::Parallel(p) => f(std::slice::from_ref(&p.serial)),
        StmtKind::Serial(p) => f(std::slice::from_ref(&p.serial)),
        _ => {}
    }
}

struct Walk<'a> {
    p: &'a Program,
    known: &'a [Param],
    out: &'a mut TypeMap,
    /// The types assigned to each local.
    by_slot: HashMap<u32, Vec<Ty>>,
}

impl Walk<'_> {
    fn block(&mut self, b: &[Stmt]) {
        for s in b {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Assign {
                target,
                op: None,
                value,
                ty,
            } if target.path.is_empty() => {
                let t = match ty {
                    Some(a) => a.ty.clone(),
                    None => self.value(value),
                };
                self.slot_type(target.var, t.clone());
                self.out.insert((target.span.lo, target.span.hi), t);
            }
            StmtKind::ForRange {
                start, step, end, ..
            } => {
                let parts = [Some(start), step.as_ref(), Some(end)];
                let tys: Vec<Ty> = parts.iter().flatten().map(|e| self.value(e)).collect();
                let t = if tys.iter().all(|t| matches!(t, Ty::Int(_))) {
                    tys[0].clone()
                } else if tys.iter().all(|t| matches!(t, Ty::Int(_) | Ty::Scalar)) {
                    Ty::Scalar
                } else {
                    Ty::Unknown
                };
                if let StmtKind::ForRange { var, .. } = &s.kind {
                    self.slot_type(*var, t.clone());
                }
                self.out.insert((s.span.lo, s.span.hi), t);
            }
            // Other assignments make the variable's type unknown or changed.
            StmtKind::Assign {
                target,
                op: Some(_),
                value,
                ..
            } if target.path.is_empty() => {
                let t = self.value(value);
                self.slot_type(target.var, t);
            }
            StmtKind::MultiAssign { targets, .. } => {
                for t in targets.iter().filter(|t| t.path.is_empty()) {
                    self.slot_type(t.var, Ty::Unknown);
                }
            }
            StmtKind::ForEach { var, .. } => self.slot_type(*var, Ty::Unknown),
            _ => {}
        }
        each_block(s, |b| self.block(b));
    }

    fn slot_type(&mut self, v: Var, t: Ty) {
        self.by_slot.entry(slot(v)).or_default().push(t);
    }

    fn value(&self, e: &Expr) -> Ty {
        let single = |g: u32| {
            let m = &self.p.groups[g as usize].members;
            (m.len() == 1).then(|| &self.p.functions[m[0] as usize])
        };
        match &e.kind {
            ExprKind::Closure { func, .. } => self.p.functions[*func as usize].ty.clone(),
            ExprKind::FuncValue(Callee::Group(g)) => {
                single(*g).map_or(Ty::Unknown, |f| f.ty.clone())
            }
            ExprKind::Call {
                callee: Callee::TypeCtor(t),
                ..
            } => t.clone(),
            ExprKind::Call {
                callee: Callee::Group(g),
                ..
            } => single(*g)
                .filter(|f| f.outputs.len() == 1)
                .and_then(|f| f.outputs[0].ty.as_ref())
                .map_or(Ty::Unknown, |a| a.ty.clone()),
            _ => blazar_hir::expr_type_with(&localize(e), self.known, &builtin_name),
        }
    }
}
