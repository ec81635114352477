//! KIR → register program: allocates registers and flattens expressions.
//!
//! Expressions compile bottom-up into fresh temporaries; a temporary returns to a
//! free list (per scalar type) once its consumer is emitted, so a kernel needs few
//! registers. Vectors are lists of scalar registers: element-wise operations emit one
//! instruction per component and a constant lane index costs nothing. A variable whose
//! only assignment is `v = pos` (or another special; nested when all reads follow it)
//! aliases the special's registers, so `x[v]` still takes the contiguous fast path.

mod alias;
mod expr;
mod fuse;
mod index;
mod sched;
mod uniform;

pub use alias::kernel_aliases;
use alias::{count_assigns, special_aliases};

use crate::program::*;
use crate::values::KValue;
use crate::KernelError;
use blazar_kir::{ArrayTy, Bind, Expr, Kernel, Scalar, Space, Stmt, StmtKind, Ty};
use std::collections::HashMap;

pub(crate) fn compile(k: &Kernel) -> Result<Program, KernelError> {
    let mut arrays = Vec::with_capacity(k.arrays.len());
    for (i, a) in k.arrays.iter().enumerate() {
        match a.ty {
            Ty::Array(t) if (t.rank as usize) <= crate::memory::MAX_DIMS => arrays.push(t),
            t => {
                return Err(KernelError::bad_launch(format!(
                    "array @{i} has unsupported type {t}"
                )))
            }
        }
    }
    let mut c = Compiler {
        k,
        arrays,
        types: Vec::new(),
        kinds: Vec::new(),
        free: HashMap::new(),
        is_free: Vec::new(),
        consts: Vec::new(),
        const_cache: HashMap::new(),
        vars: Vec::new(),
        specials: Default::default(),
        code: Vec::new(),
        loops: 0,
        max_loops: 0,
        written: vec![false; k.arrays.len()],
        blocky: false,
        has_stencil: false,
        uni: uniform::Uniform::new(k),
    };
    let mut assigned = vec![0u32; k.vars.len()];
    count_assigns(&k.body, &mut assigned);
    let aliases = special_aliases(k, &assigned);
    for (i, v) in k.vars.iter().enumerate() {
        let regs = match (aliases.get(&(i as u32)), v.ty) {
            (Some(&sp), _) => c.special(sp, v.ty)?,
            (None, Ty::Scalar(s)) => vec![c.new_reg(s, RegKind::Var)],
            (None, Ty::Vector(s, n)) => (0..n).map(|_| c.new_reg(s, RegKind::Var)).collect(),
            (None, t) => {
                return Err(KernelError::bad_launch(format!(
                    "variable {} has type {t}",
                    v.name
                )))
            }
        };
        c.vars.push(regs);
    }
    let mut params = Vec::new();
    for p in &k.params {
        params.push(match p.bind {
            Bind::Var(v) => {
                let regs = c.vars.get(v as usize).cloned().unwrap_or_default();
                for &r in &regs {
                    c.kinds[r as usize] = RegKind::Param;
                }
                ParamBind::Var {
                    regs,
                    assigned: assigned.get(v as usize).is_some_and(|&n| n > 0),
                }
            }
            Bind::Array(a) => ParamBind::Array(a),
        });
    }
    let mut body = c.block(&k.body)?;
    fuse::fuse_block(&mut body);
    sched::mark_block(&mut body, &c.arrays);
    let blocky = c.blocky || c.arrays.iter().any(|a| a.space == Space::Shared);
    Ok(Program {
        reg_types: c.types,
        reg_kinds: c.kinds,
        consts: c.consts,
        params,
        specials: c.specials,
        arrays: c.arrays,
        written: c.written,
        outputs: k.outputs.clone(),
        body,
        blocky,
        loop_depth: c.max_loops,
        kernel_rank: k.rank as usize,
        has_stencil: c.has_stencil,
        var_names: k.vars.iter().map(|v| v.name.clone()).collect(),
        var_regs: c.vars,
        array_names: k.arrays.iter().map(|a| a.name.clone()).collect(),
    })
}

pub(crate) struct Compiler<'k> {
    pub k: &'k Kernel,
    pub arrays: Vec<ArrayTy>,
    pub types: Vec<Scalar>,
    pub kinds: Vec<RegKind>,
    free: HashMap<Scalar, Vec<Reg>>,
    is_free: Vec<bool>,
    consts: Vec<(Reg, KValue)>,
    const_cache: HashMap<(Scalar, String), Reg>,
    pub vars: Vec<Vec<Reg>>,
    specials: [Option<Vec<Reg>>; SPECIAL_KINDS],
    /// Instructions of the statement being compiled.
    pub code: Vec<Inst>,
    loops: usize,
    max_loops: usize,
    written: Vec<bool>,
    blocky: bool,
    pub has_stencil: bool,
    pub uni: uniform::Uniform<'k>,
}

impl Compiler<'_> {
    pub fn new_reg(&mut self, s: Scalar, kind: RegKind) -> Reg {
        self.types.push(s);
        self.kinds.push(kind);
        self.is_free.push(false);
        (self.types.len() - 1) as Reg
    }

    /// A temporary of type `s`, reused from the free list when possible.
    pub fn temp(&mut self, s: Scalar) -> Reg {
        if let Some(r) = self.free.get_mut(&s).and_then(Vec::pop) {
            self.is_free[r as usize] = false;
            return r;
        }
        self.new_reg(s, RegKind::Temp)
    }

    /// Returns the temporaries among `regs` to the free list.
    pub fn release(&mut self, regs: &[Reg]) {
        for &r in regs {
            let i = r as usize;
            if self.kinds[i] == RegKind::Temp && !self.is_free[i] {
                self.is_free[i] = true;
                self.free.entry(self.types[i]).or_default().push(r);
            }
        }
    }

    pub fn constant(&mut self, s: Scalar, v: KValue) -> Reg {
        let key = (s, format!("{v:?}"));
        if let Some(&r) = self.const_cache.get(&key) {
            return r;
        }
        let r = self.new_reg(s, RegKind::Const);
        self.consts.push((r, v));
        self.const_cache.insert(key, r);
        r
    }

    pub fn is_pos(&self, idx: &[Reg]) -> bool {
        self.specials[0].as_deref() == Some(idx)
    }

    pub fn array(&self, a: u32) -> Result<ArrayTy, KernelError> {
        self.arrays
            .get(a as usize)
            .copied()
            .ok_or_else(|| KernelError::bad_launch(format!("unknown array @{a}")))
    }

    fn take_code(&mut self) -> Vec<Inst> {
        std::mem::take(&mut self.code)
    }

    fn block(&mut self, b: &[Stmt]) -> Result<Vec<CStmt>, KernelError> {
        b.iter().map(|s| self.stmt(s)).collect()
    }

    /// Compiles a scalar expression into one register.
    fn scalar(&mut self, e: &Expr) -> Result<Reg, KernelError> {
        let r = self.expr(e)?;
        match r.as_slice() {
            [x] => Ok(*x),
            _ => Err(KernelError::bad_launch(format!(
                "expected a scalar, found {}",
                e.ty
            ))),
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<CStmt, KernelError> {
        let bad = |m: String| KernelError::new(s.line, crate::KernelErrorKind::BadLaunch, m);
        let mut exits = false;
        let kind = match &s.kind {
            StmtKind::Assign { var, value } => {
                let dst = self
                    .vars
                    .get(*var as usize)
                    .cloned()
                    .ok_or_else(|| bad(format!("unknown %{var}")))?;
                if dst
                    .first()
                    .is_some_and(|r| self.kinds[*r as usize] == RegKind::Special)
                {
                    // An aliased `v = pos`: the special registers already hold it.
                    CKind::Assign {
                        code: vec![],
                        dst: vec![],
                        src: vec![],
                        swap: vec![],
                    }
                } else {
                    let src = self.expr(value)?;
                    if src.len() != dst.len()
                        || src
                            .iter()
                            .zip(&dst)
                            .any(|(a, b)| self.types[*a as usize] != self.types[*b as usize])
                    {
                        return Err(bad(format!("assigning {} to %{var}", value.ty)));
                    }
                    let swap = src
                        .iter()
                        .map(|r| {
                            self.kinds[*r as usize] == RegKind::Temp
                                && src.iter().filter(|x| *x == r).count() == 1
                        })
                        .collect();
                    self.release(&src);
                    CKind::Assign {
                        code: self.take_code(),
                        dst,
                        src,
                        swap,
                    }
                }
            }
            StmtKind::SetLane { var, lane, value } => {
                let dst = self
                    .vars
                    .get(*var as usize)
                    .cloned()
                    .ok_or_else(|| bad(format!("unknown %{var}")))?;
                let lane = self.scalar(lane)?;
                let val = self.scalar(value)?;
                if dst
                    .iter()
                    .any(|r| self.types[*r as usize] != self.types[val as usize])
                {
                    return Err(bad(format!("setting a lane of %{var} to {}", value.ty)));
                }
                self.release(&[lane, val]);
                CKind::SetLane {
                    code: self.take_code(),
                    dst,
                    lane,
                    val,
                }
            }
            StmtKind::Store { arr, index, value }
            | StmtKind::Update {
                arr, index, value, ..
            } => {
                let op = match &s.kind {
                    StmtKind::Update { op, .. } => Some(*op),
                    _ => None,
                };
                let t = self.array(*arr)?;
                let affine = if op.is_none() {
                    self.affine_index(index, t.space)?
                } else {
                    None
                };
                let outer = affine.as_ref().map(|_| self.take_code());
                let idx = self.scalars_of(index)?;
                if idx.is_empty() || idx.len() > crate::memory::MAX_DIMS {
                    return Err(bad(format!("@{arr} indexed with {} indices", idx.len())));
                }
                let slow = match outer {
                    Some(outer) => std::mem::replace(&mut self.code, outer),
                    None => vec![],
                };
                let terms: Vec<Reg> = affine.iter().flatten().filter_map(|t| t.u).collect();
                // An affine index holds no loads, so evaluating the value before it
                // (the slow code runs last) cannot reorder errors.
                let val = self.scalar(value)?;
                if self.types[val as usize] != t.elem {
                    return Err(bad(format!(
                        "storing {} into an array of {}",
                        value.ty,
                        t.elem.name()
                    )));
                }
                self.written[*arr as usize] = true;
                let pos = self.is_pos(&idx);
                self.release(&idx);
                self.release(&[val]);
                self.release(&terms);
                CKind::Store {
                    code: self.take_code(),
                    arr: *arr,
                    idx: idx.into(),
                    pos,
                    val,
                    op,
                    affine: affine.map(Into::into),
                    slow,
                }
            }
            StmtKind::Accumulate { output, value } => {
                let o = self
                    .k
                    .outputs
                    .get(*output as usize)
                    .ok_or_else(|| bad(format!("unknown output {output}")))?;
                let val = self.scalar(value)?;
                if self.types[val as usize] != o.ty {
                    return Err(bad(format!(
                        "accumulating {} into {}",
                        value.ty,
                        o.ty.name()
                    )));
                }
                self.release(&[val]);
                CKind::Accumulate {
                    code: self.take_code(),
                    out: *output,
                    val,
                }
            }
            StmtKind::If { cond, then, els } => {
                let cond = self.scalar(cond)?;
                self.need_bool(cond, s.line)?;
                self.release(&[cond]);
                let code = self.take_code();
                let then = self.block(then)?;
                let els = self.block(els)?;
                exits = then.iter().chain(&els).any(|s| s.exits);
                CKind::If {
                    code,
                    cond,
                    then,
                    els,
                }
            }
            StmtKind::While { cond, body } => {
                let cond = self.scalar(cond)?;
                self.need_bool(cond, s.line)?;
                self.release(&[cond]);
                let code = self.take_code();
                let depth = self.loops;
                let body = self.loop_body(body)?;
                exits = body.iter().any(|s| s.exits);
                CKind::While {
                    code,
                    cond,
                    body,
                    depth,
                }
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                let uniform = [start, step, end].iter().all(|e| self.uni.expr(e))
                    && !uniform::exits_to(body, 0)
                    && {
                        let mut n = vec![0u32; self.k.vars.len()];
                        count_assigns(body, &mut n);
                        n.get(*var as usize) == Some(&0)
                    };
                let var_regs = self.vars.get(*var as usize).cloned().unwrap_or_default();
                let [var_reg] = var_regs[..] else {
                    return Err(bad(format!("for variable %{var} is not a scalar")));
                };
                let start = self.scalar(start)?;
                let step = self.scalar(step)?;
                let end = self.scalar(end)?;
                let ty = self.types[var_reg as usize];
                if [start, step, end]
                    .iter()
                    .any(|r| self.types[*r as usize] != ty)
                    || !(ty.is_int() || ty.is_float())
                {
                    return Err(bad(format!("for loop over %{var} of type {}", ty.name())));
                }
                // `step` and `end` stay pinned for the whole loop.
                self.release(&[start]);
                let code = self.take_code();
                let depth = self.loops;
                let body = self.loop_body(body)?;
                self.release(&[step, end]);
                exits = body.iter().any(|s| s.exits);
                CKind::For {
                    code,
                    var: var_reg,
                    start,
                    step,
                    end,
                    body,
                    depth,
                    uniform,
                }
            }
            StmtKind::Break(n) | StmtKind::Continue(n) => {
                let n = *n as usize;
                if n >= self.loops {
                    return Err(bad(format!(
                        "break/continue {n} outside {} loops",
                        self.loops
                    )));
                }
                exits = true;
                let target = self.loops - 1 - n;
                if matches!(s.kind, StmtKind::Break(_)) {
                    CKind::Break(target)
                } else {
                    CKind::Continue(target)
                }
            }
            StmtKind::Barrier => {
                self.blocky = true;
                CKind::Barrier
            }
            StmtKind::Assert { cond } => {
                let cond = self.scalar(cond)?;
                self.need_bool(cond, s.line)?;
                self.release(&[cond]);
                CKind::Assert {
                    code: self.take_code(),
                    cond,
                }
            }
            StmtKind::Return => {
                exits = true;
                CKind::Return
            }
            StmtKind::AllocShared { arr, dims, .. } | StmtKind::AllocLocal { arr, dims, .. } => {
                let t = self.array(*arr)?;
                let dims = self.scalars_of(dims)?;
                if dims.is_empty() || dims.len() > crate::memory::MAX_DIMS {
                    return Err(bad(format!("allocating @{arr} with {} dims", dims.len())));
                }
                self.release(&dims);
                let code = self.take_code();
                match &s.kind {
                    StmtKind::AllocLocal { fill, .. } if t.space == Space::Local => {
                        CKind::AllocLocal {
                            code,
                            arr: *arr,
                            dims,
                            fill: *fill,
                        }
                    }
                    StmtKind::AllocShared { zero, .. } if t.space == Space::Shared => {
                        self.blocky = true;
                        CKind::AllocShared {
                            code,
                            arr: *arr,
                            dims,
                            zero: *zero,
                        }
                    }
                    _ => return Err(bad(format!("allocating @{arr} in the wrong space"))),
                }
            }
        };
        Ok(CStmt {
            kind,
            line: s.line,
            exits,
            touches: false,
            fence: false,
        })
    }

    fn need_bool(&self, r: Reg, line: u32) -> Result<(), KernelError> {
        if self.types[r as usize] == Scalar::Bool {
            Ok(())
        } else {
            Err(KernelError::new(
                line,
                crate::KernelErrorKind::BadLaunch,
                "condition is not bool",
            ))
        }
    }

    fn loop_body(&mut self, b: &[Stmt]) -> Result<Vec<CStmt>, KernelError> {
        self.loops += 1;
        self.max_loops = self.max_loops.max(self.loops);
        let r = self.block(b);
        self.loops -= 1;
        r
    }
}
