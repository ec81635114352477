//! Fused instructions: `Inst::LoadBin` combines a contiguous global load with the other
//! operand of its arithmetic consumer in one lane loop. The values are exactly those of
//! the unfused load (zero outside the span) followed by the binary operation.

use super::{Ctx, Scratch, Span};
use crate::memory::{with_elem, Elem, GlobalMem};
use crate::observe::AccessKind;
use crate::ops;
use crate::program::{Inst, Reg};
use crate::values::LaneTy;
use crate::KernelError;
use blazar_kir::{BinOp, Space};
use std::mem::take;

impl Scratch {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn load_bin(
        &mut self,
        ctx: &Ctx,
        (op, d, other, load_first): (BinOp, Reg, Reg, bool),
        load: &Inst,
        mask: &[bool],
        (lo, hi): (usize, usize),
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let (d, other) = (d as usize, other as usize);
        if let Inst::Load {
            arr,
            pos,
            affine,
            uniform: false,
            ..
        } = load
        {
            let a = *arr as usize;
            let t = ctx.prog.arrays[a];
            if let (Space::Global, Some(g)) = (t.space, ctx.globals[a]) {
                let same = g.elem == t.elem && self.regs[other].scalar() == t.elem;
                if same && d != other {
                    if let Some(sp) = self.load_span(ctx, a, *pos, affine.as_deref(), mask) {
                        if ctx.obs.is_some() {
                            let (kind, at) = (AccessKind::Read, super::observed::At::Span(sp));
                            let m = self.emask.last().cloned();
                            self.observe(ctx, *arr, kind, line, m.as_deref().unwrap_or(mask), at);
                        }
                        let mut dst = take(&mut self.regs[d]);
                        let src = &self.regs[other];
                        with_elem!(g.elem, T => {
                            combine::<T>(
                                op,
                                load_first,
                                &mut T::get_mut(&mut dst)[..n],
                                &T::get(src)[..n],
                                g,
                                sp,
                            )
                        }, ());
                        self.regs[d] = dst;
                        return Ok(());
                    }
                }
            }
        }
        // Unfused: the load into its temporary, then the operation.
        self.load_inst(ctx, load, mask, line)?;
        let Inst::Load { d: t, .. } = load else {
            return Ok(());
        };
        let t = *t as usize;
        let (a, b) = if load_first { (t, other) } else { (other, t) };
        let mut dst = take(&mut self.regs[d]);
        ops::binary(op, &mut dst, &self.regs[a], &self.regs[b], lo, hi);
        self.regs[d] = dst;
        Ok(())
    }
}

/// `d[l] = o[l] op v[l]` (or `v[l] op o[l]`) where `v` is the span of `g` (zero outside).
fn combine<T: Elem>(op: BinOp, load_first: bool, d: &mut [T], o: &[T], g: &GlobalMem, sp: Span) {
    match (op, load_first) {
        (BinOp::Add, false) => run(d, o, g, sp, |x: T, v: T| x.add(v)),
        (BinOp::Add, true) => run(d, o, g, sp, |x: T, v: T| v.add(x)),
        (BinOp::Sub, false) => run(d, o, g, sp, |x: T, v: T| x.sub(v)),
        (BinOp::Sub, true) => run(d, o, g, sp, |x: T, v: T| v.sub(x)),
        (BinOp::Mul, false) => run(d, o, g, sp, |x: T, v: T| x.mul(v)),
        (BinOp::Mul, true) => run(d, o, g, sp, |x: T, v: T| v.mul(x)),
        _ => {}
    }
}

#[inline(always)]
fn run<T: Elem>(d: &mut [T], o: &[T], g: &GlobalMem, sp: Span, f: impl Fn(T, T) -> T) {
    let n = d.len();
    let lo = sp.lo.min(n);
    let hi = sp.hi.min(n).max(lo);
    let z = T::default();
    for l in (0..lo).chain(hi..n) {
        d[l] = f(o[l], z);
    }
    let (d, o) = (&mut d[lo..hi], &o[lo..hi]);
    let m = d.len();
    if !g.written {
        if let Some(v) = g.plain::<T>().get(sp.start..sp.start + m) {
            for l in 0..m {
                d[l] = f(o[l], v[l]);
            }
        }
    } else if let Some(v) = g.atoms::<T>().get(sp.start..sp.start + m) {
        for l in 0..m {
            d[l] = f(o[l], T::load(&v[l]));
        }
    }
}
