//! KIR → register program: allocates registers and flattens expressions.
//!
//! Expressions compile bottom-up into fresh temporaries; a temporary returns to a
//! free list (per scalar type) once its consumer is emitted, so a kernel needs few
//! registers. Vectors are lists of scalar registers: element-wise operations emit one
//! instruction per component and a constant lane index costs nothing. A variable whose
//! only assignment is `v = pos` (or another special; nested when all reads follow it)
//! aliases the special's registers, so `x[v]` still takes the contiguous fast path.

mod expr;
mod fuse;
mod index;
mod sched;
mod special;
mod stmt;
mod uniform;

use blazar_kir::alias::count_assigns;

use crate::program::*;
use crate::values::KValue;
use crate::KernelError;
use blazar_kir::{ArrayTy, Bind, Expr, Kernel, Scalar, Space, Stmt, Ty};
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
    let aliases = &k.facts().aliases;
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
