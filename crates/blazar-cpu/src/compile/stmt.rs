//! Statements to register code: assignments, stores, branches and loops under masks,
//! barriers, atomics and the other statements of KIR.

use super::{uniform, Compiler};
use crate::program::*;
use crate::KernelError;
use blazar_kir::alias::count_assigns;
use blazar_kir::{Space, Stmt, StmtKind};

impl Compiler<'_> {
    pub(super) fn stmt(&mut self, s: &Stmt) -> Result<CStmt, KernelError> {
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
            StmtKind::Store {
                arr, index, value, ..
            }
            | StmtKind::Update {
                arr, index, value, ..
            } => {
                let (op, at) = match &s.kind {
                    StmtKind::Update { op, at, .. } => (Some(*op), *at),
                    StmtKind::Store { at, .. } => (None, *at),
                    _ => (None, Default::default()),
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
                    at,
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
            // Calls of functions that are not inlined (`blazar_kir::calls`) run only as
            // compiled code; the host runs such a function on its own interpreter.
            StmtKind::Call { .. } => {
                return Err(KernelError::bad_launch(
                    blazar_kir::calls::NOT_COMPILED_MESSAGE,
                ))
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
}
