//! Lowering of one kernel function to KIR for one signature: frames, local variable
//! typing by repeated dry runs, and statements.
//!
//! Variables of kernel code get one type for their whole life: the join of every value
//! assigned to them. The lowering first runs over a body in *dry* mode (emitting into a
//! scratch buffer) until the types stop changing, then lowers it for real. Device
//! functions are inlined with their own frame.

use crate::infer::join;
use crate::lower_expr::Val;
use crate::sig::{ArgSig, Signature};
use crate::Env;
use blazar_diagnostics::{Diagnostic, Span};
use blazar_hir::{self as hir, FnId, FnKind, Ty as HTy};
use blazar_kir::{
    self as kir, ArrId, ArrayTy, Bind, Block, Expr, Scalar, Special, StmtKind, Ty, VarId,
};

/// Why lowering stopped: a user error, or (in dry runs) a type not known yet.
pub enum Fail {
    Error(Diagnostic),
    Unknown,
}

pub type LR<T> = Result<T, Fail>;

pub fn err<T>(span: Span, msg: impl Into<String>) -> LR<T> {
    Err(Fail::Error(Diagnostic::error(span, msg)))
}

/// What a local slot of the function being lowered holds.
#[derive(Clone, Debug)]
pub enum Slot {
    Unset,
    Var(VarId),
    Array(ArrId),
    List(Vec<ArrId>),
    Func(FnId, Vec<Slot>),
    Output(u32),
    Special(Special),
}

/// What the dry runs learned about a slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlotTy {
    Val(Ty),
    /// An array allocated inside the kernel (shared or dynamic memory).
    Alloc(ArrayTy),
}

pub struct Frame {
    pub func: FnId,
    pub slots: Vec<Slot>,
    pub tys: Vec<Option<SlotTy>>,
    /// For inlined functions: the KIR loop depth inside the wrapper loop that `return`
    /// leaves.
    pub ret_depth: Option<u32>,
}

pub struct Lower<'a> {
    pub env: &'a Env<'a>,
    pub k: kir::Kernel,
    pub frames: Vec<Frame>,
    pub out: Vec<Block>,
    pub loops: u32,
    pub line: u32,
    pub span: Span,
    pub dry: bool,
    pub float: Scalar,
    pub complex: Scalar,
    /// Outputs whose type widens with what is accumulated (see `Signature::outputs`).
    pub open_outputs: bool,
    /// Dims of array parameters known at the launch (`Signature::extents`).
    pub extents: std::collections::HashMap<ArrId, Vec<u32>>,
    /// The functions lowered for real calls, when the kernel may make them
    /// (`lower_rec`).
    pub calls: Option<crate::lower_rec::Table>,
}

pub fn lower_kernel(env: &Env, func: FnId, sig: &Signature) -> Result<kir::Kernel, Diagnostic> {
    let f = &env.prog.functions[func as usize];
    let (float, complex) = if env.double {
        (Scalar::F64, Scalar::C64)
    } else {
        (Scalar::F32, Scalar::C32)
    };
    let mut l = Lower {
        env,
        k: kir::Kernel {
            name: f.name.clone(),
            rank: sig.rank,
            params: vec![],
            outputs: vec![],
            vars: vec![],
            arrays: vec![],
            body: vec![],
            calls: Default::default(),
            facts: Default::default(),
        },
        frames: vec![],
        out: vec![],
        loops: 0,
        line: 0,
        span: f.span,
        dry: false,
        float,
        complex,
        open_outputs: !sig.outputs.is_empty(),
        extents: Default::default(),
        calls: f
            .params
            .iter()
            .any(|p| p.name == crate::lower_rec::ROOM_PARAM)
            .then(Default::default),
    };
    match l.kernel(func, sig) {
        Ok(()) => {
            let mut k = l.k;
            if let Some(t) = l.calls.take() {
                k.calls.funcs = std::mem::take(&mut *t.borrow_mut()).into_funcs();
                k.calls.room = k.params.iter().find_map(|p| match p.bind {
                    Bind::Var(v) if p.name == crate::lower_rec::ROOM_PARAM => Some(v),
                    _ => None,
                });
                k.calls.budget = k
                    .vars
                    .iter()
                    .position(|d| d.name == crate::lower_rec::BUDGET_VAR)
                    .map(|v| v as VarId);
            }
            Ok(k)
        }
        Err(Fail::Error(d)) => Err(d),
        Err(Fail::Unknown) => Err(Diagnostic::error(
            f.span,
            format!("cannot infer the types of kernel `{}`", f.name),
        )),
    }
}

pub const SPECIALS: &[(&str, Special)] = &[
    ("pos", Special::Pos),
    ("blkpos", Special::BlkPos),
    ("blkdim", Special::BlkDim),
    ("blkidx", Special::BlkIdx),
    ("blkcnt", Special::BlkCnt),
    ("warpsize", Special::WarpSize),
];

impl<'a> Lower<'a> {
    pub fn special_ty(&self, s: Special) -> Ty {
        if s == Special::WarpSize || self.k.rank == 1 {
            Ty::I32
        } else {
            Ty::Vector(Scalar::I32, self.k.rank)
        }
    }

    pub fn new_var(&mut self, name: &str, ty: Ty) -> VarId {
        self.k.vars.push(kir::VarDecl {
            name: name.to_string(),
            ty,
        });
        self.k.vars.len() as VarId - 1
    }

    pub fn new_array(&mut self, name: &str, ty: ArrayTy) -> ArrId {
        self.k.arrays.push(kir::ArrayDecl {
            name: name.to_string(),
            ty: Ty::Array(ty),
        });
        self.k.arrays.len() as ArrId - 1
    }

    pub fn emit(&mut self, kind: StmtKind) {
        let line = self.line;
        if let Some(b) = self.out.last_mut() {
            b.push(kir::Stmt { kind, line });
        }
    }

    /// Runs `f` with a fresh statement buffer and returns what it emitted; the buffer is
    /// popped even when `f` fails (dry runs fail often), keeping `out` balanced.
    pub fn capture<T>(&mut self, f: impl FnOnce(&mut Self) -> LR<T>) -> (Block, LR<T>) {
        self.out.push(Vec::new());
        let r = f(self);
        (self.out.pop().unwrap_or_default(), r)
    }

    pub fn frame(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("a frame is open while lowering")
    }

    /// Binds a signature entry to a parameter slot of the kernel.
    fn bind_param(
        &mut self,
        name: &str,
        s: &ArgSig,
        declared: Option<&hir::Annot>,
        span: Span,
    ) -> LR<(Slot, Vec<Bind>)> {
        Ok(match s {
            ArgSig::Scalar(_) | ArgSig::Vector(..) => {
                let have = match s {
                    ArgSig::Scalar(x) => Ty::Scalar(*x),
                    ArgSig::Vector(x, n) => Ty::Vector(*x, *n),
                    _ => unreachable!(),
                };
                let ty = match declared.map(|a| self.hir_ty(&a.ty, span)).transpose()? {
                    Some(Some(t)) => t,
                    _ => have,
                };
                let v = self.new_var(name, ty);
                (Slot::Var(v), vec![Bind::Var(v)])
            }
            ArgSig::Array(a) => {
                let mut a = *a;
                if let Some(ann) = declared {
                    crate::lower_math::apply_modifiers(&mut a, ann);
                }
                let id = self.new_array(name, a);
                (Slot::Array(id), vec![Bind::Array(id)])
            }
            ArgSig::ArrayList(a, n) => {
                let ids: Vec<ArrId> = (0..*n)
                    .map(|i| self.new_array(&format!("{name}[{i}]"), *a))
                    .collect();
                let binds = ids.iter().map(|i| Bind::Array(*i)).collect();
                (Slot::List(ids), binds)
            }
            ArgSig::Func(f, caps) => {
                let mut slots = Vec::new();
                let mut binds = Vec::new();
                let names = self.env.prog.functions[*f as usize].capture_names.clone();
                for (i, c) in caps.iter().enumerate() {
                    let n = names.get(i).cloned().unwrap_or_default();
                    let (s, b) = self.bind_param(&format!("{name}.{n}"), c, None, span)?;
                    slots.push(s);
                    binds.extend(b);
                }
                (Slot::Func(*f, slots), binds)
            }
        })
    }

    fn kernel(&mut self, func: FnId, sig: &Signature) -> LR<()> {
        let f = &self.env.prog.functions[func as usize];
        if f.kind != FnKind::Kernel {
            return err(
                f.span,
                format!(
                    "`{}` is not a kernel function (declare it `__kernel__`)",
                    f.name
                ),
            );
        }
        let mut slots = vec![Slot::Unset; f.n_locals as usize];
        let mut ordinary = Vec::new();
        for p in &f.params {
            if let Some((_, s)) = SPECIALS.iter().find(|(n, _)| *n == p.name) {
                if let Some(a) = &p.ty {
                    self.check_special(*s, &a.ty, p.span)?;
                }
                slots[p.slot as usize] = Slot::Special(*s);
            } else {
                ordinary.push(p);
            }
        }
        if ordinary.len() != sig.args.len() {
            return err(
                f.span,
                format!(
                    "kernel `{}` takes {} arguments, but {} were given",
                    f.name,
                    ordinary.len(),
                    sig.args.len()
                ),
            );
        }
        for (i, (p, s)) in ordinary.iter().zip(&sig.args).enumerate() {
            let (slot, binds) = self.bind_param(&p.name, s, p.ty.as_ref(), p.span)?;
            if let (Slot::Array(id), Some(d)) = (&slot, sig.extents.get(i)) {
                if !d.is_empty() {
                    self.extents.insert(*id, d.clone());
                }
            }
            slots[p.slot as usize] = slot;
            for b in binds {
                self.k.params.push(kir::Param {
                    name: p.name.clone(),
                    bind: b,
                });
            }
        }
        for (i, (slot, s)) in f.capture_slots.iter().zip(&sig.captures).enumerate() {
            let name = f.capture_names.get(i).cloned().unwrap_or_default();
            let (sl, binds) = self.bind_param(&name, s, None, f.span)?;
            slots[*slot as usize] = sl;
            for b in binds {
                self.k.params.push(kir::Param {
                    name: name.clone(),
                    bind: b,
                });
            }
        }
        for (i, o) in f.outputs.iter().enumerate() {
            let ty = match &o.ty {
                Some(a) => match self.hir_ty(&a.ty, o.span)? {
                    Some(Ty::Scalar(s)) => s,
                    _ => return err(o.span, "a kernel output must be a scalar"),
                },
                None => sig.outputs.get(i).copied().unwrap_or(self.float),
            };
            self.k.outputs.push(kir::Output {
                name: o.name.clone(),
                ty,
                op: kir::AtomicOp::Add,
            });
            slots[o.slot as usize] = Slot::Output(i as u32);
        }
        let tys = vec![None; slots.len()];
        self.frames.push(Frame {
            func,
            slots,
            tys,
            ret_depth: None,
        });
        let body = self.lower_body(&f.body)?;
        self.k.body = body;
        Ok(())
    }

    fn check_special(&self, s: Special, t: &HTy, span: Span) -> LR<()> {
        let want = self.special_ty(s);
        let ok = match (t, want) {
            (HTy::Int(_), Ty::Scalar(_)) => true,
            (HTy::FixedVec { len, .. }, Ty::Vector(_, n)) => *len as u8 == n,
            (HTy::Unknown, _) => true,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            err(span, format!("this kernel runs over a {}-dimensional index space, so this parameter must be {}", self.k.rank, if want == Ty::I32 { "int".to_string() } else { format!("ivec{}", self.k.rank) }))
        }
    }

    /// Infers the types of the current frame's slots, then lowers `body` for real.
    pub fn lower_body(&mut self, body: &'a [hir::Stmt]) -> LR<Block> {
        let was_dry = self.dry;
        let initial_slots = self.frame().slots.clone();
        // Rounds until nothing changes: each round gives a slot whose type became known
        // its variable, so a chain of N dependent locals takes N rounds (issue 32: a
        // fixed 32 refused longer chains). Types only widen (`note_type` joins), so the
        // rounds are bounded by the slots and outputs times the height of the type
        // lattice; the bound only guards against a bug.
        let bound = (initial_slots.len() + self.k.outputs.len() + 1) * 16;
        for _ in 0..bound {
            let before = self.frame().tys.clone();
            let outputs_before: Vec<Scalar> = self.k.outputs.iter().map(|o| o.ty).collect();
            let (nv, na) = (self.k.vars.len(), self.k.arrays.len());
            let loops = self.loops;
            self.dry = true;
            self.materialize();
            self.out.push(Vec::new());
            for s in body {
                // User errors are reported by the real lowering below.
                let _ = self.dry_stmt(s);
            }
            self.out.pop();
            self.k.vars.truncate(nv);
            self.k.arrays.truncate(na);
            self.loops = loops;
            self.frame().slots = initial_slots.clone();
            let outputs_now: Vec<Scalar> = self.k.outputs.iter().map(|o| o.ty).collect();
            if self.frame().tys == before && outputs_now == outputs_before {
                break;
            }
        }
        self.dry = was_dry;
        self.materialize();
        let (out, r) = self.capture(|l| {
            for s in body {
                l.stmt(s)?;
            }
            Ok(())
        });
        r.map(|()| out)
    }

    /// Creates KIR variables and arrays for every slot whose type is known.
    fn materialize(&mut self) {
        let func = self.frame().func;
        let names = self.env.prog.functions[func as usize].local_names.clone();
        let n = self.frame().slots.len();
        for i in 0..n {
            if !matches!(self.frame().slots[i], Slot::Unset) {
                continue;
            }
            let name = names.get(i).cloned().unwrap_or_default();
            match self.frame().tys[i] {
                Some(SlotTy::Val(t)) => {
                    let v = self.new_var(&name, t);
                    self.frame().slots[i] = Slot::Var(v);
                }
                Some(SlotTy::Alloc(a)) => {
                    let id = self.new_array(&name, a);
                    self.frame().slots[i] = Slot::Array(id);
                }
                None => {}
            }
        }
    }

    /// Records that slot `s` holds values of type `t`.
    pub fn note_type(&mut self, s: u32, t: SlotTy, span: Span) -> LR<()> {
        let cur = self.frame().tys[s as usize];
        let new = match (cur, t) {
            (None, t) => t,
            (Some(SlotTy::Val(a)), SlotTy::Val(b)) => match join(a, b) {
                Some(j) => SlotTy::Val(j),
                None => {
                    return err(
                        span,
                        format!("a variable cannot hold both {a} and {b} in kernel code"),
                    )
                }
            },
            (Some(SlotTy::Alloc(a)), SlotTy::Alloc(b))
                if a.elem == b.elem && a.rank == b.rank && a.space == b.space =>
            {
                SlotTy::Alloc(a)
            }
            (Some(_), _) => {
                return err(
                    span,
                    "a variable cannot hold both an array and a value in kernel code",
                )
            }
        };
        self.frame().tys[s as usize] = Some(new);
        Ok(())
    }

    /// The KIR type of a written scalar or vector type (`None` for `??`).
    pub fn hir_ty(&self, t: &HTy, span: Span) -> LR<Option<Ty>> {
        let s = |t: &HTy| -> LR<Option<Scalar>> {
            Ok(match t {
                HTy::Scalar => Some(self.float),
                HTy::CScalar => Some(self.complex),
                HTy::Int(k) => Some(crate::lower_math::int_scalar(*k)),
                HTy::Unknown => None,
                _ => return err(span, format!("type {t} cannot be used here in kernel code")),
            })
        };
        Ok(match t {
            HTy::FixedVec { elem, len } => s(elem)?.map(|e| Ty::Vector(e, *len as u8)),
            HTy::Array { .. } | HTy::Func { .. } | HTy::Union(_) => None,
            t => s(t)?.map(Ty::Scalar),
        })
    }

    /// Where the element access written at `span` is (its line and column).
    pub fn loc(&self, span: Span) -> kir::Loc {
        kir::Loc::new((self.env.line_of)(span), (self.env.col_of)(span))
    }

    pub fn set_line(&mut self, span: Span) {
        self.span = span;
        self.line = (self.env.line_of)(span);
    }
}

pub fn expr_of(v: Val, span: Span) -> LR<Expr> {
    match v {
        Val::E(e) => Ok(e),
        Val::Arr(_) | Val::List(_) => err(
            span,
            "an array cannot be used as a value here in kernel code",
        ),
        Val::Func(..) => err(
            span,
            "a function cannot be used as a value here in kernel code",
        ),
        Val::Alloc { .. } => err(
            span,
            "shared and dynamic memory must be assigned to a variable",
        ),
    }
}
