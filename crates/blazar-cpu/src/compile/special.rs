//! The registers of specials (`pos`, `blkpos`, ...), made on first use.

use super::Compiler;
use crate::program::{Reg, RegKind};
use crate::values::KValue;
use crate::KernelError;
use blazar_kir::{Scalar, Special, Ty};

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
