//! Row-level range facts: the array accesses whose indices are affine in `pos`, with
//! bounds that hold for a whole row of threads.
//!
//! Every `i32` index of a load or store into a parameter array is written, where
//! possible, as an affine form: a constant coefficient per `pos` component plus a
//! `pos`-free rest, with bounds of the rest. The rest is built from constants, array
//! sizes, parameters that are never assigned, variables assigned once at the top level
//! of the body, and the variables of counted loops with a constant positive step and
//! `pos`-free bounds (inside their body). A backend that runs threads row by row (the
//! C++ dialect) evaluates once per row whether every such index lies inside its extent
//! for all threads of the row; when it does, the row may skip the bounds checks and
//! boundary modes of those accesses, which is exact: an index that is in range reads
//! and writes the same element under every mode.
//!
//! The parts of a form are KIR expressions of type `i64` (constants, `i64` casts of
//! variables and sizes, `+`, `-` and `*` by a constant): `rest` is valid where the
//! index is; `lo`, `hi` and `conds` (conditions of type bool under which the bounds
//! hold) are valid at the start of a row, so a variable in them is always a parameter
//! (never assigned: its value is the argument's). Integer arithmetic wraps on 32 bits
//! in kernels, so the forms are exact only modulo 2^32; a backend checks that the
//! exact value of each index lies in `0..extent` and below 2^31, where the wrapped
//! `i32` and the exact value agree.

use crate::{
    BinOp, Bind, Const, Expr, ExprKind, Kernel, Scalar, Special, Stmt, StmtKind, Ty, UnOp, VarId,
};
use std::collections::{HashMap, HashSet};

/// The largest constant factor kept in a form (keeps every bound far from i64 overflow).
const MAX_FACTOR: i64 = 1 << 16;

/// The largest exact value of an `i32` index (2^31 - 1).
pub const I32_MAX: i64 = 2147483647;

const I64: Ty = Ty::Scalar(Scalar::I64);

/// An `i32` index as `Σ coef[c] · pos[c] + rest`.
#[derive(Clone, Debug, PartialEq)]
pub struct Aff {
    pub coef: [i64; 4],
    /// The exact `pos`-free part (i64), valid where the index is.
    pub rest: Expr,
    /// Bounds of `rest` (i64), valid at the start of a row.
    pub lo: Expr,
    pub hi: Expr,
    /// Row-level conditions (bool) under which the bounds hold.
    pub conds: Vec<Expr>,
}

/// An i64 constant.
pub fn int64(x: i64) -> Expr {
    Expr::new(ExprKind::Const(Const::Int(x)), I64)
}

fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty)
}

/// `e` (an i32) widened to i64.
fn widen(e: Expr) -> Expr {
    Expr::new(ExprKind::Cast(Box::new(e)), I64)
}

impl Aff {
    fn point(x: Expr) -> Aff {
        Aff {
            coef: [0; 4],
            rest: x.clone(),
            lo: x.clone(),
            hi: x,
            conds: Vec::new(),
        }
    }

    pub fn pos_free(&self) -> bool {
        self.coef.iter().all(|&c| c == 0)
    }
}

fn add(a: Aff, b: Aff, sub: bool) -> Aff {
    let mut coef = a.coef;
    for (c, x) in coef.iter_mut().zip(b.coef) {
        *c = if sub { *c - x } else { *c + x };
    }
    let (op, lo, hi) = if sub {
        (
            BinOp::Sub,
            bin(BinOp::Sub, a.lo, b.hi, I64),
            bin(BinOp::Sub, a.hi, b.lo, I64),
        )
    } else {
        (
            BinOp::Add,
            bin(BinOp::Add, a.lo, b.lo, I64),
            bin(BinOp::Add, a.hi, b.hi, I64),
        )
    };
    let mut conds = a.conds;
    conds.extend(b.conds);
    Aff {
        coef,
        rest: bin(op, a.rest, b.rest, I64),
        lo,
        hi,
        conds,
    }
}

fn scale(a: Aff, k: i64) -> Aff {
    let (lo, hi) = if k >= 0 { (a.lo, a.hi) } else { (a.hi, a.lo) };
    Aff {
        coef: a.coef.map(|c| c * k),
        rest: bin(BinOp::Mul, int64(k), a.rest, I64),
        lo: bin(BinOp::Mul, int64(k), lo, I64),
        hi: bin(BinOp::Mul, int64(k), hi, I64),
        conds: a.conds,
    }
}

fn const_int(e: &Expr) -> Option<i64> {
    match e.kind {
        ExprKind::Const(Const::Int(x)) if e.ty == Ty::I32 => Some(x),
        _ => None,
    }
}

/// The range facts of a kernel: the forms of the indices of each access that has them,
/// keyed by the address of the `Load` expression or of the `Store`/`Update` statement
/// (addresses inside the kernel the facts belong to).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ranges {
    pub accesses: HashMap<usize, (u32, Vec<Aff>)>,
    /// Counted loops (by statement address) whose bounds are the same for every thread
    /// and whose variable has a form inside their body.
    pub uniform_for: HashSet<usize>,
}

impl Ranges {
    /// The forms of the access at `key` (see [`Ranges::accesses`]), if it has them.
    pub fn forms(&self, key: usize) -> Option<&[Aff]> {
        self.accesses.get(&key).map(|(_, f)| f.as_slice())
    }
}

/// The array slots bound to a parameter of `k` (global arrays: only they have
/// row-level extents).
fn param_arrays(k: &Kernel) -> Vec<bool> {
    let mut global = vec![false; k.arrays.len()];
    for p in &k.params {
        if let Bind::Array(a) = p.bind {
            if let Some(g) = global.get_mut(a as usize) {
                *g = true;
            }
        }
    }
    global
}

struct Walker<'a> {
    k: &'a Kernel,
    aliases: &'a HashMap<VarId, Special>,
    global: Vec<bool>,
    assigned: Vec<usize>,
    out: Ranges,
}

/// The range facts of kernel `k`, whose variables `aliases` always hold a special.
pub fn ranges(k: &Kernel, aliases: &HashMap<VarId, Special>) -> Ranges {
    let mut assigned = vec![0usize; k.vars.len()];
    count_assigned(&k.body, &mut assigned);
    let mut env: HashMap<VarId, Aff> = HashMap::new();
    for p in &k.params {
        if let Bind::Var(v) = p.bind {
            if assigned.get(v as usize) == Some(&0) && k.vars[v as usize].ty == Ty::I32 {
                env.insert(v, Aff::point(widen(Expr::new(ExprKind::Var(v), Ty::I32))));
            }
        }
    }
    let mut w = Walker {
        k,
        aliases,
        global: param_arrays(k),
        assigned,
        out: Ranges::default(),
    };
    w.block(&k.body, &mut env, true);
    w.out
}

fn count_assigned(b: &[Stmt], n: &mut [usize]) {
    crate::visit::walk_stmts(b, &mut |s| match &s.kind {
        StmtKind::Assign { var, .. }
        | StmtKind::SetLane { var, .. }
        | StmtKind::For { var, .. } => n[*var as usize] += 1,
        StmtKind::Call { outs, .. } => outs.iter().for_each(|v| n[*v as usize] += 2),
        _ => {}
    });
}

impl Walker<'_> {
    fn block(&mut self, b: &[Stmt], env: &mut HashMap<VarId, Aff>, top: bool) {
        for s in b {
            self.stmt(s, env);
            if let StmtKind::Assign { var, value } = &s.kind {
                let ty = self.k.vars.get(*var as usize).map(|d| d.ty);
                if top
                    && self.assigned[*var as usize] == 1
                    && ty == Some(Ty::I32)
                    && value.ty == Ty::I32
                {
                    if let Some(a) = self.aff(value, None, env) {
                        env.insert(*var, a);
                    }
                }
            }
        }
    }

    fn stmt(&mut self, s: &Stmt, env: &mut HashMap<VarId, Aff>) {
        let mut exprs: Vec<&Expr> = Vec::new();
        match &s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => {
                exprs.push(value)
            }
            StmtKind::SetLane { lane, value, .. } => exprs.extend([lane, value]),
            StmtKind::Store {
                arr, index, value, ..
            }
            | StmtKind::Update {
                arr, index, value, ..
            } => {
                self.access(s as *const Stmt as usize, *arr, index, env);
                exprs.extend(index.iter().chain([value]));
            }
            StmtKind::If { cond, then, els } => {
                self.exprs(&[cond], env);
                self.block(then, &mut env.clone(), false);
                self.block(els, &mut env.clone(), false);
            }
            StmtKind::While { cond, body } => {
                self.exprs(&[cond], env);
                self.block(body, &mut env.clone(), false);
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                self.exprs(&[start, step, end], env);
                let mut inner = env.clone();
                inner.remove(var);
                let (a, b) = (self.aff(start, None, env), self.aff(end, None, env));
                if let (Some(a), Some(b), Some(st)) = (a, b, const_int(step)) {
                    if st > 0 && a.pos_free() && b.pos_free() && self.assigned[*var as usize] == 1 {
                        let mut conds = a.conds;
                        conds.extend(b.conds);
                        // The loop variable never passes 2^31 - 1 (no wrap).
                        let last = bin(BinOp::Add, b.hi.clone(), int64(st), I64);
                        conds.push(bin(BinOp::Le, last, int64(I32_MAX), Ty::BOOL));
                        self.out.uniform_for.insert(s as *const Stmt as usize);
                        inner.insert(
                            *var,
                            Aff {
                                coef: [0; 4],
                                rest: widen(Expr::new(ExprKind::Var(*var), Ty::I32)),
                                lo: a.lo,
                                hi: b.hi,
                                conds,
                            },
                        );
                    }
                }
                self.block(body, &mut inner, false);
            }
            StmtKind::Assert { cond } => exprs.push(cond),
            StmtKind::AllocLocal { dims, .. } | StmtKind::AllocShared { dims, .. } => {
                exprs.extend(dims)
            }
            StmtKind::Call { args, outs, .. } => {
                exprs.extend(args);
                for v in outs {
                    env.remove(v);
                }
            }
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return | StmtKind::Barrier => {}
        }
        self.exprs(&exprs, env);
    }

    /// Records the loads inside `es`.
    fn exprs(&mut self, es: &[&Expr], env: &HashMap<VarId, Aff>) {
        for e in es {
            crate::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Load { arr, index, .. } = &x.kind {
                    self.access(x as *const Expr as usize, *arr, index, env);
                }
            });
        }
    }

    fn access(&mut self, key: usize, arr: u32, index: &[Expr], env: &HashMap<VarId, Aff>) {
        if index.is_empty() || self.global.get(arr as usize) != Some(&true) {
            return;
        }
        let forms: Option<Vec<Aff>> = index.iter().map(|e| self.aff(e, None, env)).collect();
        if let Some(f) = forms {
            self.out.accesses.insert(key, (arr, f));
        }
    }

    /// The form of `e` (of lane `lane` when `e` is a vector), if it has one.
    fn aff(&self, e: &Expr, lane: Option<usize>, env: &HashMap<VarId, Aff>) -> Option<Aff> {
        let elem_ok = match (e.ty, lane) {
            (Ty::Scalar(Scalar::I32), None) => true,
            (Ty::Vector(Scalar::I32, n), Some(l)) => l < n as usize,
            _ => false,
        };
        if !elem_ok {
            return None;
        }
        match &e.kind {
            ExprKind::Const(Const::Int(x)) => Some(Aff::point(int64(*x))),
            ExprKind::Var(v) if self.aliases.contains_key(v) => {
                let sp = ExprKind::Special(self.aliases[v]);
                self.aff(&Expr::new(sp, e.ty), lane, env)
            }
            ExprKind::Var(v) if lane.is_none() => env.get(v).cloned(),
            ExprKind::Special(Special::Pos) => {
                let c = lane.unwrap_or(0);
                if c >= self.k.rank as usize {
                    return None;
                }
                let mut a = Aff::point(int64(0));
                a.coef[c] = 1;
                Some(a)
            }
            ExprKind::Size { arr, dim }
                if lane.is_none() && self.global.get(*arr as usize) == Some(&true) =>
            {
                let Ty::Array(t) = self.k.arrays.get(*arr as usize)?.ty else {
                    return None;
                };
                if *dim >= t.rank {
                    return Some(Aff::point(int64(1)));
                }
                Some(Aff::point(widen(e.clone())))
            }
            ExprKind::Unary(UnOp::Neg, a) => Some(scale(self.aff(a, lane, env)?, -1)),
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (x, y) = (self.aff(a, lane, env)?, self.aff(b, lane, env)?);
                Some(add(x, y, *op == BinOp::Sub))
            }
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let (x, c) = match (self.constant(a, lane), self.constant(b, lane)) {
                    (_, Some(c)) => (a, c),
                    (Some(c), None) => (b, c),
                    _ => return None,
                };
                if c.abs() > MAX_FACTOR {
                    return None;
                }
                Some(scale(self.aff(x, lane, env)?, c))
            }
            ExprKind::Lane(v, i) => {
                let k = usize::try_from(const_int(i)?).ok()?;
                if lane.is_some() {
                    return None;
                }
                self.aff(v, Some(k), env)
            }
            ExprKind::VecLit(es) => self.aff(es.get(lane?)?, None, env),
            ExprKind::Splat(a) => self.aff(a, None, env),
            _ => None,
        }
    }

    /// `e` (lane `lane`) as a constant integer.
    fn constant(&self, e: &Expr, lane: Option<usize>) -> Option<i64> {
        match (&e.kind, lane) {
            (ExprKind::Const(Const::Int(x)), _) => Some(*x),
            (ExprKind::VecLit(es), Some(l)) => self.constant(es.get(l)?, None),
            (ExprKind::Splat(a), _) => self.constant(a, None),
            _ => None,
        }
    }
}
