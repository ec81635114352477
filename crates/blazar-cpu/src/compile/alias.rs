//! Pre-passes over a kernel body (assignment counts, `v = pos` aliases) and the
//! registers of specials.

use super::Compiler;
use crate::program::{Reg, RegKind};
use crate::values::KValue;
use crate::KernelError;
use blazar_kir::{Bind, ExprKind, Kernel, Scalar, Special, Stmt, StmtKind, Ty};
use std::collections::HashMap;

pub(super) fn count_assigns(b: &[Stmt], n: &mut [u32]) {
    for s in b {
        match &s.kind {
            StmtKind::Assign { var, .. } | StmtKind::SetLane { var, .. } => {
                if let Some(c) = n.get_mut(*var as usize) {
                    *c += 1;
                }
            }
            StmtKind::For { var, body, .. } => {
                if let Some(c) = n.get_mut(*var as usize) {
                    *c += 2;
                }
                count_assigns(body, n);
            }
            StmtKind::If { then, els, .. } => {
                count_assigns(then, n);
                count_assigns(els, n);
            }
            StmtKind::While { body, .. } => count_assigns(body, n),
            _ => {}
        }
    }
}

/// Variables assigned once, at top level, from a special (and not parameters).
pub(super) fn special_aliases(k: &Kernel, assigned: &[u32]) -> HashMap<u32, Special> {
    let params: Vec<u32> = k
        .params
        .iter()
        .filter_map(|p| match p.bind {
            Bind::Var(v) => Some(v),
            Bind::Array(_) => None,
        })
        .collect();
    let mut out = HashMap::new();
    for s in &k.body {
        if let StmtKind::Assign { var, value } = &s.kind {
            if let ExprKind::Special(sp) = value.kind {
                let ok = sp != Special::WarpSize
                    && assigned.get(*var as usize) == Some(&1)
                    && !params.contains(var)
                    && k.vars.get(*var as usize).is_some_and(|d| d.ty == value.ty);
                if ok {
                    out.insert(*var, sp);
                }
            }
        }
    }
    out
}

impl Compiler<'_> {
    /// The registers of a special, shaped as `ty` (I32 or an I32 vector).
    pub fn special(&mut self, sp: Special, ty: Ty) -> Result<Vec<Reg>, KernelError> {
        let slot = match sp {
            Special::Pos => 0,
            Special::BlkPos => 1,
            Special::BlkDim => 2,
            Special::BlkIdx => 3,
            Special::BlkCnt => 4,
            Special::WarpSize => return Ok(vec![self.constant(Scalar::I32, KValue::Int(32))]),
        };
        let rank = self.k.rank.max(1) as usize;
        if self.specials[slot].is_none() {
            let regs = (0..rank)
                .map(|_| self.new_reg(Scalar::I32, RegKind::Special))
                .collect();
            self.specials[slot] = Some(regs);
        }
        let regs = self.specials[slot].clone().unwrap_or_default();
        match ty {
            Ty::Scalar(Scalar::I32) if rank == 1 => Ok(regs),
            Ty::Vector(Scalar::I32, n) if n as usize == rank => Ok(regs),
            t => Err(KernelError::bad_launch(format!(
                "{sp:?} has type {t} in a rank {rank} kernel"
            ))),
        }
    }
}
