//! Fast paths for uniform control and indices: loops whose active lanes all iterate
//! together run with a scalar counter, uniform loads read one element, and affine
//! loads (`pos + uniform offset`) copy a contiguous run after one bounds check.

use super::{all_set, Ctx, Scratch};
use crate::math::cast;
use crate::memory::{index_shape, offset_one, oob_message, with_elem, Elem, MAX_DIMS};
use crate::ops::{with_num, Arith};
use crate::program::{CStmt, Reg, Term};
use crate::values::{with_scalar, LaneTy};
use crate::{KernelError, KernelErrorKind};
use blazar_kir::{ReadMode, Space};
use std::mem::take;

/// The first lane set in `mask`.
pub(super) fn first_active(mask: &[bool]) -> Option<usize> {
    mask.iter().position(|&m| m)
}

impl Scratch {
    /// The linear id of lane 0's element for an affine load, when the lanes are
    /// consecutive threads, the array has the shape of the index space, every
    /// `pos`-free component names the same element on all lanes and every lane's
    /// element is inside; `l0` is an active lane (uniform offsets are read there).
    pub(super) fn affine_base(
        &self,
        ctx: &Ctx,
        a: usize,
        terms: &[Term],
        l0: Option<usize>,
    ) -> Option<usize> {
        let base = self.contiguous?;
        if !ctx.pos_contig[a] {
            return None;
        }
        let mut lin = base as i64;
        for (c, t) in terms.iter().enumerate() {
            let u = match t.u {
                Some(r) => self.regs[r as usize].lane_i64(l0?),
                None => 0,
            };
            let off = t.d + u;
            let (lo, hi, n) = (self.pos_lo[c], self.pos_hi[c], ctx.kdims[c] as i64);
            let shift = if t.pos {
                if lo + off < 0 || hi + off >= n {
                    return None;
                }
                off
            } else {
                if lo != hi || off < 0 || off >= n {
                    return None;
                }
                off - lo
            };
            lin += shift * ctx.kstride[c] as i64;
        }
        usize::try_from(lin).ok()
    }

    /// `d = arr[idx]` for an index that is the same on all active lanes of `mask`.
    pub(super) fn uniform_load(
        &mut self,
        ctx: &Ctx,
        arr: u32,
        d: Reg,
        idx: &[Reg],
        mask: &[bool],
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let (a, d) = (arr as usize, d as usize);
        let t = ctx.prog.arrays[a];
        let Some(l0) = first_active(&mask[..n]) else {
            return Ok(());
        };
        let k = idx.len();
        let mut iv = [0i64; MAX_DIMS];
        for (v, r) in iv.iter_mut().zip(idx) {
            *v = self.regs[*r as usize].lane_i64(l0);
        }
        let dims: &[usize] = match t.space {
            Space::Global => match ctx.globals[a] {
                Some(g) => &g.dims,
                None => &[],
            },
            Space::Shared => self.shared[a].as_ref().map_or(&[], |s| &s.dims),
            Space::Local => &[],
        };
        let off = if dims.is_empty() {
            None
        } else {
            let mut shape = [0usize; MAX_DIMS];
            index_shape(dims, k, &mut shape);
            match offset_one(t.read, &shape[..k], &iv[..k]) {
                Ok(o) => Some(o),
                Err((dim, i)) if t.read == ReadMode::Checked => {
                    return Err(KernelError::new(
                        line,
                        KernelErrorKind::OutOfBounds,
                        oob_message(i, dim, shape[dim]),
                    ))
                }
                Err(_) => None,
            }
        };
        match (t.space, ctx.globals[a]) {
            (Space::Global, Some(g)) if g.elem != t.elem => {
                let mut tmp = self.conv_reg(g.elem);
                with_elem!(g.elem, T => {
                    let v = off.map_or(T::default(), |o| read_global::<T>(g, o));
                    T::get_mut(&mut tmp)[..n].fill(v);
                }, ());
                let mut dst = take(&mut self.regs[d]);
                cast(&mut dst, &tmp, n);
                self.regs[d] = dst;
                self.put_conv(tmp);
            }
            (Space::Global, Some(g)) => {
                let mut dst = take(&mut self.regs[d]);
                with_elem!(g.elem, T => {
                    let v = off.map_or(T::default(), |o| read_global::<T>(g, o));
                    T::get_mut(&mut dst)[..n].fill(v);
                }, ());
                self.regs[d] = dst;
            }
            _ => {
                let mut dst = take(&mut self.regs[d]);
                with_scalar!(t.elem, T => {
                    let v = match (&self.shared[a], off) {
                        (Some(s), Some(o)) if t.space == Space::Shared => {
                            T::get(&s.data).get(o).copied().unwrap_or_default()
                        }
                        _ => T::default(),
                    };
                    T::get_mut(&mut dst)[..n].fill(v);
                });
                self.regs[d] = dst;
            }
        }
        Ok(())
    }

    /// A `for` loop whose active lanes all iterate together (see `CKind::For`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn uniform_for(
        &mut self,
        ctx: &Ctx,
        mask: &mut Vec<bool>,
        var: Reg,
        start: Reg,
        step: Reg,
        end: Reg,
        body: &[CStmt],
    ) -> Result<(), KernelError> {
        let n = self.n;
        let Some(l0) = first_active(&mask[..n]) else {
            return Ok(());
        };
        let exits = body.iter().any(|s| s.exits);
        let mut full = self.full;
        let (var, start, step, end) = (var as usize, start as usize, step as usize, end as usize);
        with_num!(self.regs[var].scalar(), T => {
            let (mut v, st, en) = (
                T::get(&self.regs[start])[l0],
                T::get(&self.regs[step])[l0],
                T::get(&self.regs[end])[l0],
            );
            let up = T::default().lt(st);
            loop {
                let vr = &mut T::get_mut(&mut self.regs[var])[..n];
                if full {
                    vr.fill(v);
                } else {
                    for l in 0..n {
                        if mask[l] {
                            vr[l] = v;
                        }
                    }
                }
                if !(if up { v.le(en) } else { en.le(v) }) {
                    break;
                }
                self.block_with(ctx, body, mask, full)?;
                if exits {
                    if !mask[..n].iter().any(|&m| m) {
                        break;
                    }
                    full = all_set(&mask[..n]);
                }
                v = v.add(st);
            }
        }, ());
        Ok(())
    }
}

/// Element `o` of a global buffer (0 outside).
fn read_global<T: Elem>(g: &crate::memory::GlobalMem, o: usize) -> T {
    if g.written {
        g.atoms::<T>().get(o).map_or(T::default(), T::load)
    } else {
        g.plain::<T>().get(o).copied().unwrap_or_default()
    }
}
