//! Fast paths for uniform control and indices: loops whose active lanes all iterate
//! together run with a scalar counter, uniform loads read one element, and affine
//! loads (`pos + uniform offset`) copy a contiguous run after one bounds check.

use super::{all_set, Ctx, Scratch};
use crate::math::cast;
use crate::memory::{index_shape, offset_one, oob_message, with_elem, Elem, MAX_DIMS};
use crate::ops::with_num;
use crate::program::{CStmt, Reg, Term};
use crate::values::{with_scalar, LaneTy};
use crate::{KernelError, KernelErrorKind};
use blazar_kir::{ReadMode, Space};
use blazar_ops::scalar::Arith as _;
use std::mem::take;

/// Lanes `lo..hi` of a work item access elements `start..` of an array contiguously;
/// the other lanes' elements are outside the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub lo: usize,
    pub hi: usize,
}

impl Span {
    pub(super) const EMPTY: Span = Span {
        start: 0,
        lo: 0,
        hi: 0,
    };

    /// Whether the lanes outside the span may be served as outside the array under
    /// `mode` (zero on loads, skipped on stores), given the active lanes.
    pub(super) fn usable(self, n: usize, mode: ReadMode, mask: &[bool]) -> bool {
        if self.lo == 0 && self.hi == n {
            return true;
        }
        match mode {
            ReadMode::Zero | ReadMode::Unchecked => true,
            ReadMode::Checked => !mask[..self.lo].iter().chain(&mask[self.hi..n]).any(|&m| m),
            _ => false,
        }
    }
}

/// The first lane set in `mask`.
pub(super) fn first_active(mask: &[bool]) -> Option<usize> {
    mask.iter().position(|&m| m)
}

impl Scratch {
    /// The contiguous run of an affine access, when the lanes are consecutive threads,
    /// the array has the shape of the index space and every `pos`-free component
    /// names the same element on all lanes; `l0` is an active lane (uniform offsets are
    /// read there). Lanes whose element is outside the array form a prefix and a
    /// suffix of the work item (or all of it), left out of the [`Span`].
    pub(super) fn affine_base(
        &self,
        ctx: &Ctx,
        a: usize,
        terms: &[Term],
        l0: Option<usize>,
    ) -> Option<Span> {
        if ctx.prog.arrays[a].space == Space::Shared {
            return self.shared_base(ctx, a, terms, l0);
        }
        let base = self.contiguous?;
        if !ctx.pos_contig[a] {
            return None;
        }
        let (b64, nl) = (base as i64, self.n as i64);
        let (mut la, mut lb) = (0i64, nl);
        let mut lin = b64;
        // Every component before the current one is the same on all lanes.
        let mut slower_const = true;
        for (c, t) in terms.iter().enumerate() {
            let u = match t.u {
                Some(r) => self.regs[r as usize].lane_i64(l0?),
                None => 0,
            };
            let off = t.d + u;
            let (lo, hi, n) = (self.pos_lo[c], self.pos_hi[c], ctx.kdims[c] as i64);
            let s = ctx.kstride[c] as i64;
            if t.pos {
                if lo + off < 0 || hi + off >= n {
                    if !slower_const {
                        return None;
                    }
                    // pos[c] of lane l is lo + (base + l) / s - base / s: the lanes
                    // with lo + q + off inside 0..n have q in qa..=qb.
                    let (qa, qb) = (Ord::max(-off - lo, 0), Ord::min(n - 1 - off - lo, hi - lo));
                    if qa > qb {
                        return Some(Span::EMPTY);
                    }
                    let q0 = b64 / s;
                    la = Ord::max(la, (qa + q0) * s - b64);
                    lb = Ord::min(lb, (qb + 1 + q0) * s - b64);
                }
                lin += off * s;
            } else {
                if lo != hi {
                    return None;
                }
                if off < 0 || off >= n {
                    return Some(Span::EMPTY);
                }
                lin += (off - lo) * s;
            }
            slower_const &= lo == hi;
        }
        if la >= lb {
            return Some(Span::EMPTY);
        }
        Some(Span {
            start: usize::try_from(lin + la).ok()?,
            lo: la as usize,
            hi: lb as usize,
        })
    }

    /// The contiguous run of an affine (`blkpos + ...`) access to shared array `a` in a
    /// work item of one block (lane `l` is `blkpos` `l` in row-major order): every
    /// component wider than one thread must step like the block, and only when one
    /// component is wider than a thread may its elements leave the array.
    fn shared_base(&self, ctx: &Ctx, a: usize, terms: &[Term], l0: Option<usize>) -> Option<Span> {
        let sp = ctx.space;
        let s = self.shared[a].as_ref()?;
        let k = terms.len();
        if !sp.blocky || s.dims.is_empty() || k > MAX_DIMS || k != sp.kr {
            return None;
        }
        // Plan dimensions that no kernel component sees must be one thread wide.
        if (0..sp.rank.saturating_sub(sp.kr)).any(|p| sp.block[p] != 1) {
            return None;
        }
        let bd: [usize; MAX_DIMS] = std::array::from_fn(|c| {
            if c < k {
                sp.plan_dim(c).map_or(1, |p| sp.block[p])
            } else {
                1
            }
        });
        if bd[..k].iter().product::<usize>() != self.n {
            return None;
        }
        let mut shape = [0usize; MAX_DIMS];
        index_shape(&s.dims, k, &mut shape);
        let wide = bd[..k].iter().filter(|&&b| b > 1).count();
        let nl = self.n as i64;
        let (mut la, mut lb, mut lin) = (0i64, nl, 0i64);
        for (c, t) in terms.iter().enumerate() {
            let u = match t.u {
                Some(r) => self.regs[r as usize].lane_i64(l0?),
                None => 0,
            };
            let off = t.d + u;
            let ext = shape[c] as i64;
            let sstride: usize = shape[c + 1..k].iter().product();
            if bd[c] > 1 {
                let bstride: usize = bd[c + 1..k].iter().product();
                if !t.pos || sstride != bstride {
                    return None;
                }
                if off < 0 || bd[c] as i64 - 1 + off >= ext {
                    if wide > 1 {
                        return None;
                    }
                    // The only wide component: blkpos[c] is the lane.
                    (la, lb) = (Ord::max(la, -off), Ord::min(lb, ext - off));
                }
            } else if off < 0 || off >= ext {
                return Some(Span::EMPTY);
            }
            lin += off * sstride as i64;
        }
        if la >= lb {
            return Some(Span::EMPTY);
        }
        let (start, len) = (usize::try_from(lin + la).ok()?, (lb - la) as usize);
        let have = with_scalar!(s.data.scalar(), T => T::get(&s.data).len());
        (start.checked_add(len)? <= have).then_some(Span {
            start,
            lo: la as usize,
            hi: lb as usize,
        })
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
                    // The same index on every active lane: they all fail.
                    let failing: Vec<usize> = (l0..n).filter(|&l| mask[l]).collect();
                    self.fail_lanes.extend(failing);
                    return Err(KernelError::new(
                        line,
                        KernelErrorKind::OutOfBounds,
                        oob_message(i, dim, shape[dim]),
                    ));
                }
                Err(_) => None,
            }
        };
        if ctx.obs.is_some() {
            let kind = crate::observe::AccessKind::Read;
            self.observe(ctx, arr, kind, line, mask, super::observed::At::One(off));
        }
        match (t.space, ctx.globals[a]) {
            (Space::Global, Some(g)) if g.elem != t.elem => {
                let mut tmp = self.conv_reg(g.elem);
                with_elem!(g.elem, T => {
                    let v = off.map_or(T::default(), |o| read_global::<T>(g, o));
                    T::get_mut(&mut tmp)[..n].fill(v);
                }, ());
                let mut dst = take(&mut self.regs[d]);
                cast(&mut dst, &tmp, 0, n);
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
