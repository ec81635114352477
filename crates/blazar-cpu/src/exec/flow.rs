//! Loops under masks: iterate while any lane is active, with `break`/`continue` masks.

use super::{Ctx, Scratch};
use crate::ops::with_num;
use crate::program::CStmt;
use crate::values::LaneTy;
use crate::{KernelError, KernelErrorKind};
use blazar_ops::scalar::Arith as _;
use std::mem::take;

impl Scratch {
    /// A loop at `depth`: `test` gives each lane's condition for the next iteration;
    /// `incr` (for loops) adds `step` to `var` on continuing lanes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn looped(
        &mut self,
        ctx: &Ctx,
        mask: &mut [bool],
        depth: usize,
        line: u32,
        test: impl Fn(&mut Self, &[bool], &mut [bool]) -> Result<(), KernelError>,
        body: &[CStmt],
        incr: Option<(usize, usize)>,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let mut cur = self.take_mask();
        cur.copy_from_slice(&mask[..n]);
        let mut done = self.take_mask();
        let mut c = self.take_mask();
        for v in [&mut self.brk[depth], &mut self.cont[depth]] {
            v.clear();
            v.resize(n, false);
        }
        let r = (|| loop {
            // A loop may never end (`while y[0] >= 0 end`): a signal stops it.
            if let Some(sig) = blazar_runtime::interrupt::pending() {
                return Err(KernelError::new(
                    line,
                    KernelErrorKind::Interrupted,
                    blazar_runtime::interrupt::message(sig),
                ));
            }
            // A failing condition stops its lanes; the others test again (the test is
            // the condition's code: no effect yet).
            loop {
                match test(self, &cur, &mut c) {
                    Ok(()) => break,
                    Err(e) if !e.stops_one_thread() => return Err(e),
                    Err(e) => {
                        if !self.stop_failed(e, &mut cur) {
                            c[..n].fill(false);
                            break;
                        }
                    }
                }
            }
            if self.failure.is_some() {
                for (cu, &l) in cur[..n].iter_mut().zip(&self.live[..n]) {
                    *cu &= l;
                }
            }
            // Branch-free, so that it vectorises.
            let mut any = false;
            for ((cu, d), &t) in cur[..n].iter_mut().zip(&mut done[..n]).zip(&c[..n]) {
                let a = *cu;
                *d |= a & !t;
                *cu = a & t;
                any |= a & t;
            }
            if !any {
                return Ok(());
            }
            self.block(ctx, body, &mut cur)?;
            let cont = &mut self.cont[depth];
            for (cu, co) in cur[..n].iter_mut().zip(&mut cont[..n]) {
                *cu |= *co;
                *co = false;
            }
            if let Some((var, step)) = incr {
                let mut v = take(&mut self.regs[var]);
                with_num!(v.scalar(), T => {
                    let (vv, st) = (&mut T::get_mut(&mut v)[..n], &T::get(&self.regs[step])[..n]);
                    for ((x, &s), &c) in vv.iter_mut().zip(st).zip(&cur[..n]) {
                        *x = if c { x.add(s) } else { *x };
                    }
                }, ());
                self.regs[var] = v;
            }
        })();
        let brk = &self.brk[depth];
        for l in 0..n {
            mask[l] = done[l] | brk[l];
        }
        self.pool.push(cur);
        self.pool.push(done);
        self.pool.push(c);
        r
    }
}
