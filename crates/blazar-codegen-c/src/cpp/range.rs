//! Row-level bounds proofs: which array accesses are in range for a whole row of threads.
//!
//! Before the generator emits a kernel without barriers, this pass writes every `i32`
//! index of every load and store it can as an affine form: a constant coefficient per
//! `pos` component plus a `pos`-free rest, with row-level bounds of the rest. The rest
//! is built from constants, sizes, parameters that are never assigned, variables
//! assigned once at the top level of the body, and the variables of counted loops with
//! a constant positive step and `pos`-free bounds (inside their body). The generator
//! then evaluates, once per row of threads, whether every such index lies inside its
//! extent for all threads of the row (`guard`); when it does, the row runs a copy of
//! the body where those accesses skip their bounds checks and boundary modes, which is
//! exact: an index that is in range reads and writes the same element under every mode.
//!
//! Integer arithmetic wraps on 32 bits in kernels, so the forms are exact only modulo
//! 2^32; the guard checks that the exact value of each index lies in `0..extent` and
//! below 2^31, where the wrapped `i32` and the exact value agree.

use crate::cpp::support::SlotKind;
use blazar_kir::{
    BinOp, Bind, Const, Expr, ExprKind, Kernel, Scalar, Special, Stmt, StmtKind, Ty, UnOp,
};
use std::collections::{HashMap, HashSet};

/// The largest constant factor kept in a form (keeps every bound far from i64 overflow).
const MAX_FACTOR: i64 = 1 << 16;

/// An `i32` index as `Σ coef[c] · pos[c] + rest`.
#[derive(Clone, Debug)]
pub(crate) struct Aff {
    pub coef: [i64; 4],
    /// The exact `pos`-free part: an i64 C expression valid where the index is.
    pub rest: String,
    /// Bounds of `rest`: i64 C expressions valid at the start of a row.
    pub lo: String,
    pub hi: String,
    /// Row-level conditions under which the bounds hold.
    pub conds: Vec<String>,
}

impl Aff {
    fn point(x: String) -> Aff {
        Aff {
            coef: [0; 4],
            rest: x.clone(),
            lo: x.clone(),
            hi: x,
            conds: Vec::new(),
        }
    }

    fn pos_free(&self) -> bool {
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
            "-",
            format!("({} - {})", a.lo, b.hi),
            format!("({} - {})", a.hi, b.lo),
        )
    } else {
        (
            "+",
            format!("({} + {})", a.lo, b.lo),
            format!("({} + {})", a.hi, b.hi),
        )
    };
    let mut conds = a.conds;
    conds.extend(b.conds);
    Aff {
        coef,
        rest: format!("({} {op} {})", a.rest, b.rest),
        lo,
        hi,
        conds,
    }
}

fn scale(a: Aff, k: i64) -> Aff {
    let (lo, hi) = if k >= 0 {
        (&a.lo, &a.hi)
    } else {
        (&a.hi, &a.lo)
    };
    Aff {
        coef: a.coef.map(|c| c * k),
        rest: format!("({k}ll * {})", a.rest),
        lo: format!("({k}ll * {lo})"),
        hi: format!("({k}ll * {hi})"),
        conds: a.conds,
    }
}

fn const_int(e: &Expr) -> Option<i64> {
    match e.kind {
        ExprKind::Const(Const::Int(x)) if e.ty == Ty::I32 => Some(x),
        _ => None,
    }
}

/// What the analysis found: the forms of the indices of each proven access, keyed by
/// the address of the `Load` expression or of the `Store`/`Update` statement.
#[derive(Default)]
pub(crate) struct Proofs {
    pub accesses: HashMap<usize, (u32, Vec<Aff>)>,
    /// Counted loops (by statement address) whose bounds are the same for every thread
    /// and whose variable has a form inside their body.
    pub uniform_for: HashSet<usize>,
}

struct Walker<'a> {
    k: &'a Kernel,
    aliases: &'a HashMap<u32, Special>,
    slots: &'a [SlotKind],
    names: &'a dyn Fn(u32) -> String,
    assigned: Vec<usize>,
    out: Proofs,
}

/// The proofs of kernel `k` (whose arrays get their memory as `slots` says; only global
/// arrays have row-level extents); `var` names variable `%v` in the generated C.
pub(crate) fn analyse(
    k: &Kernel,
    slots: &[SlotKind],
    aliases: &HashMap<u32, Special>,
    var: &dyn Fn(u32) -> String,
) -> Proofs {
    let mut assigned = vec![0usize; k.vars.len()];
    count_assigned(&k.body, &mut assigned);
    let mut env: HashMap<u32, Aff> = HashMap::new();
    for (i, p) in k.params.iter().enumerate() {
        if let Bind::Var(v) = p.bind {
            if assigned.get(v as usize) == Some(&0) && k.vars[v as usize].ty == Ty::I32 {
                env.insert(v, Aff::point(format!("(i64)bz_p{i}")));
            }
        }
    }
    let mut w = Walker {
        k,
        aliases,
        slots,
        names: var,
        assigned,
        out: Proofs::default(),
    };
    w.block(&k.body, &mut env, true);
    w.out
}

fn count_assigned(b: &[Stmt], n: &mut [usize]) {
    for s in b {
        match &s.kind {
            StmtKind::Assign { var, .. } | StmtKind::SetLane { var, .. } => n[*var as usize] += 1,
            StmtKind::For { var, body, .. } => {
                n[*var as usize] += 1;
                count_assigned(body, n);
            }
            StmtKind::If { then, els, .. } => {
                count_assigned(then, n);
                count_assigned(els, n);
            }
            StmtKind::While { body, .. } => count_assigned(body, n),
            _ => {}
        }
    }
}

impl Walker<'_> {
    fn block(&mut self, b: &[Stmt], env: &mut HashMap<u32, Aff>, top: bool) {
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

    fn stmt(&mut self, s: &Stmt, env: &mut HashMap<u32, Aff>) {
        let mut exprs: Vec<&Expr> = Vec::new();
        match &s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => {
                exprs.push(value)
            }
            StmtKind::SetLane { lane, value, .. } => exprs.extend([lane, value]),
            StmtKind::Store { arr, index, value }
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
                        conds.push(format!("{} + {st}ll <= 2147483647ll", b.hi));
                        self.out.uniform_for.insert(s as *const Stmt as usize);
                        let name = (self.names)(*var);
                        inner.insert(
                            *var,
                            Aff {
                                coef: [0; 4],
                                rest: format!("(i64){name}"),
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
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return | StmtKind::Barrier => {}
        }
        self.exprs(&exprs, env);
    }

    /// Records the loads inside `es`.
    fn exprs(&mut self, es: &[&Expr], env: &HashMap<u32, Aff>) {
        for e in es {
            super::expr::visit(e, &mut |x| {
                if let ExprKind::Load { arr, index } = &x.kind {
                    self.access(x as *const Expr as usize, *arr, index, env);
                }
            });
        }
    }

    fn access(&mut self, key: usize, arr: u32, index: &[Expr], env: &HashMap<u32, Aff>) {
        if index.is_empty() || self.slots.get(arr as usize) != Some(&SlotKind::Global) {
            return;
        }
        let forms: Option<Vec<Aff>> = index.iter().map(|e| self.aff(e, None, env)).collect();
        if let Some(f) = forms {
            self.out.accesses.insert(key, (arr, f));
        }
    }

    /// The form of `e` (of lane `lane` when `e` is a vector), if it has one.
    fn aff(&self, e: &Expr, lane: Option<usize>, env: &HashMap<u32, Aff>) -> Option<Aff> {
        let elem_ok = match (e.ty, lane) {
            (Ty::Scalar(Scalar::I32), None) => true,
            (Ty::Vector(Scalar::I32, n), Some(l)) => l < n as usize,
            _ => false,
        };
        if !elem_ok {
            return None;
        }
        match &e.kind {
            ExprKind::Const(Const::Int(x)) => Some(Aff::point(format!("{x}ll"))),
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
                let mut a = Aff::point("0ll".into());
                a.coef[c] = 1;
                Some(a)
            }
            ExprKind::Size { arr, dim }
                if lane.is_none() && self.slots.get(*arr as usize) == Some(&SlotKind::Global) =>
            {
                let Ty::Array(t) = self.k.arrays.get(*arr as usize)?.ty else {
                    return None;
                };
                if *dim >= t.rank {
                    return Some(Aff::point("1ll".into()));
                }
                let name = super::arr_ident(self.k, *arr);
                Some(Aff::point(format!("(i64)(i32){name}_d{dim}")))
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
