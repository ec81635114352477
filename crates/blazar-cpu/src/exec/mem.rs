//! Memory instructions of the interpreter: loads, stores, updates and sizes per space.
//!
//! Global arrays take a contiguous fast path when the index is exactly `pos`, the
//! array has the shape of the index space and the work item's lanes are consecutive
//! threads (shared arrays: an affine index in `blkpos`, lanes being one block);
//! otherwise offsets are computed per dimension over all lanes and gathered.
//! When the buffer's element type differs from the kernel's, values go through a
//! conversion register.

use super::observed::At;
use super::{fast, Ctx, Scratch, Span};
use crate::math::cast;
use crate::memory::*;
use crate::observe::AccessKind;
use crate::program::Inst;
use crate::program::Reg;
use crate::values::{with_scalar, LaneTy, Lanes};
use crate::{KernelError, KernelErrorKind};
use blazar_kir::{AtomicOp, ReadMode, Scalar, Space, WriteMode};
use std::mem::take;

fn scalar_index(s: Scalar) -> usize {
    s as usize
}

fn store_kind(op: Option<AtomicOp>) -> AccessKind {
    match op {
        Some(_) => AccessKind::Atomic,
        None => AccessKind::Write,
    }
}

fn zero_reg(r: &mut Lanes, n: usize) {
    with_scalar!(r.scalar(), T => T::get_mut(r)[..n].fill(T::default()))
}

impl Scratch {
    pub(super) fn conv_reg(&mut self, s: Scalar) -> Lanes {
        let c = take(&mut self.conv[scalar_index(s)]);
        if c.scalar() == s && with_scalar!(s, T => T::get(&c).len()) >= self.width {
            c
        } else {
            Lanes::new(s, self.width)
        }
    }

    pub(super) fn put_conv(&mut self, c: Lanes) {
        let i = scalar_index(c.scalar());
        self.conv[i] = c;
    }

    /// The `'checked` error of the first active lane whose index is outside.
    fn check_oob(
        &mut self,
        mask: &[bool],
        shape: &[usize],
        idx: &[Reg],
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let Some(l) = (0..n).find(|&l| mask[l] && !self.ok[l]) else {
            return Ok(());
        };
        let failing = (l..n).filter(|&l| mask[l] && !self.ok[l]);
        // (`fail_lanes` is not borrowed by the filter: collect first.)
        let failing: Vec<usize> = failing.collect();
        self.note_failed(failing);
        for (d, (&size, &r)) in shape.iter().zip(idx).enumerate() {
            let i = self.regs[r as usize].lane_i64(l);
            if i < 0 || i as u64 >= size as u64 {
                return Err(KernelError::new(
                    line,
                    KernelErrorKind::OutOfBounds,
                    oob_message(i, d, size),
                ));
            }
        }
        Err(KernelError::new(
            line,
            KernelErrorKind::OutOfBounds,
            "index is out of bounds",
        ))
    }

    /// Offsets of all lanes into an array of `dims` (plus a `'checked` test).
    fn offsets_into(
        &mut self,
        dims: &[usize],
        mode: ReadMode,
        idx: &[Reg],
        mask: &[bool],
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let mut shape = [0usize; MAX_DIMS];
        index_shape(dims, idx.len(), &mut shape);
        let shape = &shape[..idx.len()];
        offsets(
            mode,
            shape,
            &self.regs,
            idx,
            &mut self.off[..n],
            &mut self.ok[..n],
        );
        if mode == ReadMode::Checked {
            self.check_oob(mask, shape, idx, line)?;
        }
        Ok(())
    }

    /// One lane's offset into its dynamic array (`Err`: message of a checked miss).
    fn local_offset(
        &self,
        dims: &[usize],
        mode: ReadMode,
        idx: &[Reg],
        l: usize,
    ) -> Result<usize, String> {
        let k = idx.len();
        let mut iv = [0i64; MAX_DIMS];
        for (v, r) in iv.iter_mut().zip(idx) {
            *v = self.regs[*r as usize].lane_i64(l);
        }
        let mut shape = [0usize; MAX_DIMS];
        index_shape(dims, k, &mut shape);
        offset_one(mode, &shape[..k], &iv[..k]).map_err(|(d, i)| oob_message(i, d, shape[d]))
    }

    /// A `Load` instruction: uniform, contiguous (affine) or gathered.
    pub(super) fn load_inst(
        &mut self,
        ctx: &Ctx,
        i: &Inst,
        mask: &[bool],
        line: u32,
    ) -> Result<(), KernelError> {
        let Inst::Load {
            arr,
            d,
            idx,
            pos,
            affine,
            uniform,
            slow,
            at,
        } = i
        else {
            return Ok(());
        };
        let a = *arr as usize;
        if *uniform {
            let m = self.emask.pop();
            let res = self.uniform_load(ctx, *arr, *d, idx, m.as_deref().unwrap_or(mask), line);
            if let Some(m) = m {
                self.emask.push(m);
            }
            return res.map_err(|e| e.at_access(*at));
        }
        let fast = self.load_span(ctx, a, *pos, affine.as_deref(), mask);
        if fast.is_none() {
            if self.pos_lazy.is_some() {
                crate::specials::fill_pos(ctx.prog, ctx.space, self);
            }
            self.code(ctx, slow, mask, line)?;
        }
        let m = self.emask.pop();
        let res = self.load(ctx, *arr, *d, idx, fast, m.as_deref().unwrap_or(mask), line);
        if let Some(m) = m {
            self.emask.push(m);
        }
        res.map_err(|e| e.at_access(*at))
    }

    /// The contiguous run of a (non-uniform) load from array `a`, if it takes the fast
    /// path under the current mask.
    pub(super) fn load_span(
        &self,
        ctx: &Ctx,
        a: usize,
        pos: bool,
        affine: Option<&[crate::program::Term]>,
        mask: &[bool],
    ) -> Option<Span> {
        let n = self.n;
        let top: &[bool] = self.emask.last().map_or(mask, |v| v);
        match affine {
            Some(t) => self
                .affine_base(ctx, a, t, fast::first_active(&top[..n]))
                .filter(|s| s.usable(n, ctx.prog.arrays[a].read, top)),
            None => self
                .contiguous
                .filter(|_| pos && ctx.pos_contig[a])
                .map(|start| Span {
                    start,
                    lo: 0,
                    hi: n,
                }),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn load(
        &mut self,
        ctx: &Ctx,
        arr: u32,
        d: Reg,
        idx: &[Reg],
        fast: Option<Span>,
        mask: &[bool],
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let (a, d) = (arr as usize, d as usize);
        let t = ctx.prog.arrays[a];
        match t.space {
            Space::Global => {
                let Some(g) = ctx.globals[a] else {
                    zero_reg(&mut self.regs[d], n);
                    return Ok(());
                };
                let base = fast;
                if base.is_none() {
                    self.offsets_into(&g.dims, t.read, idx, mask, line)?;
                }
                if ctx.obs.is_some() {
                    let at = base.map_or(At::Gather, At::Span);
                    self.observe(ctx, arr, AccessKind::Read, line, mask, at);
                }
                let same = g.elem == t.elem;
                let mut tmp = if same {
                    take(&mut self.regs[d])
                } else {
                    self.conv_reg(g.elem)
                };
                with_elem!(g.elem, T => {
                    let dv = &mut T::get_mut(&mut tmp)[..n];
                    match base {
                        Some(sp) => {
                            let (lo, hi) = (sp.lo.min(n), sp.hi.min(n));
                            dv[..lo].fill(T::default());
                            gather_contiguous(g, &mut dv[lo..hi.max(lo)], sp.start);
                            dv[hi.max(lo)..].fill(T::default());
                        }
                        None => gather_global(g, dv, &self.off[..n], &self.ok[..n]),
                    }
                }, ());
                if same {
                    self.regs[d] = tmp;
                } else {
                    let mut dst = take(&mut self.regs[d]);
                    cast(&mut dst, &tmp, 0, n);
                    self.regs[d] = dst;
                    self.put_conv(tmp);
                }
            }
            Space::Shared => {
                let dims = match &self.shared[a] {
                    Some(s) if !s.dims.is_empty() => s.dims.clone(),
                    _ => {
                        zero_reg(&mut self.regs[d], n);
                        return Ok(());
                    }
                };
                if fast.is_none() {
                    self.offsets_into(&dims, t.read, idx, mask, line)?;
                }
                if ctx.obs.is_some() {
                    let at = fast.map_or(At::Gather, At::Span);
                    self.observe(ctx, arr, AccessKind::Read, line, mask, at);
                }
                let mut dst = take(&mut self.regs[d]);
                if let Some(s) = &self.shared[a] {
                    with_scalar!(t.elem, T => {
                        let (src, dv) = (T::get(&s.data), &mut T::get_mut(&mut dst)[..n]);
                        match fast {
                            Some(sp) => copy_span(src, dv, sp),
                            None => gather_plain(src, dv, &self.off[..n], &self.ok[..n]),
                        }
                    });
                }
                self.regs[d] = dst;
            }
            Space::Local => {
                let mut dst = take(&mut self.regs[d]);
                let mut err = None;
                let mut failing = Vec::new();
                if let Some(Some(la)) = self.local.arrs.get(a) {
                    with_scalar!(t.elem, T => {
                        let (data, dv) = (T::get(&la.data), &mut T::get_mut(&mut dst)[..n]);
                        for l in 0..n {
                            dv[l] = match self.local_offset(&la.dims[l][..la.rank], t.read, idx, l) {
                                Ok(o) => data.get(la.base[l] + o).copied().unwrap_or_default(),
                                Err(m) => {
                                    if t.read == ReadMode::Checked && mask[l] {
                                        failing.push(l);
                                        if err.is_none() {
                                            err = Some(m);
                                        }
                                    }
                                    T::default()
                                }
                            };
                        }
                    });
                } else {
                    zero_reg(&mut dst, n);
                }
                self.regs[d] = dst;
                self.note_failed(failing);
                if let Some(m) = err {
                    return Err(KernelError::new(line, KernelErrorKind::OutOfBounds, m));
                }
            }
        }
        Ok(())
    }

    /// Names the lanes that failed the current check (see `Scratch::stop_failed`).
    fn note_failed(&mut self, lanes: Vec<usize>) {
        self.fail_lanes.extend(lanes);
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        ctx: &Ctx,
        arr: u32,
        idx: &[Reg],
        (pos, aff): (bool, Option<Span>),
        val: Reg,
        op: Option<AtomicOp>,
        mask: &[bool],
        full: bool,
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let (a, val) = (arr as usize, val as usize);
        let t = ctx.prog.arrays[a];
        let mode = if t.write == WriteMode::Checked {
            ReadMode::Checked
        } else {
            ReadMode::Zero
        };
        match t.space {
            Space::Global => {
                let Some(g) = ctx.globals[a] else {
                    return Ok(());
                };
                let base = aff.or(self
                    .contiguous
                    .filter(|_| pos && op.is_none() && ctx.pos_contig[a])
                    .map(|start| Span {
                        start,
                        lo: 0,
                        hi: n,
                    }));
                if base.is_none() {
                    self.offsets_into(&g.dims, mode, idx, mask, line)?;
                }
                if ctx.obs.is_some() {
                    let at = base.map_or(At::Gather, At::Span);
                    self.observe(ctx, arr, store_kind(op), line, mask, at);
                }
                let conv = (g.elem != t.elem).then(|| {
                    let mut c = self.conv_reg(g.elem);
                    cast(&mut c, &self.regs[val], 0, n);
                    c
                });
                let src = conv.as_ref().unwrap_or(&self.regs[val]);
                with_elem!(g.elem, T => {
                    let v = &T::get(src)[..n];
                    match base {
                        Some(sp) => {
                            let (lo, hi) = (sp.lo.min(n), sp.hi.min(n).max(sp.lo.min(n)));
                            let full = full && lo == 0 && hi == n;
                            scatter_contiguous(g, &v[lo..hi], sp.start, &mask[lo..hi], full)
                        }
                        None => scatter_global(g, v, &self.off[..n], &self.ok[..n], &mask[..n], op),
                    }
                }, ());
                if let Some(c) = conv {
                    self.put_conv(c);
                }
            }
            Space::Shared => {
                let dims = match &self.shared[a] {
                    Some(s) if !s.dims.is_empty() => s.dims.clone(),
                    _ => return Ok(()),
                };
                let span = aff.filter(|_| op.is_none());
                if span.is_none() {
                    self.offsets_into(&dims, mode, idx, mask, line)?;
                }
                if ctx.obs.is_some() {
                    let at = span.map_or(At::Gather, At::Span);
                    self.observe(ctx, arr, store_kind(op), line, mask, at);
                }
                let Some(s) = &mut self.shared[a] else {
                    return Ok(());
                };
                let (off, ok, v) = (&self.off[..n], &self.ok[..n], &self.regs[val]);
                match op {
                    None if span.is_some() => with_scalar!(t.elem, T => {
                        store_span(T::get_mut(&mut s.data), &T::get(v)[..n], span.unwrap_or(Span::EMPTY), &mask[..n], full)
                    }),
                    None => with_scalar!(t.elem, T => {
                        scatter_plain(T::get_mut(&mut s.data), &T::get(v)[..n], off, ok, &mask[..n], |_, x| x)
                    }),
                    Some(op) => with_elem!(t.elem, T => {
                        scatter_plain(T::get_mut(&mut s.data), &T::get(v)[..n], off, ok, &mask[..n], |a, x| T::combine(op, a, x))
                    }, ()),
                }
            }
            Space::Local => {
                let Some(Some(mut la)) = self.local.arrs.get_mut(a).map(Option::take) else {
                    return Ok(());
                };
                let v = &self.regs[val];
                let err = match op {
                    None => {
                        with_scalar!(t.elem, T => self.local_store::<T>(&mut la, v, mode, idx, mask, |_, x| x))
                    }
                    Some(op) => with_elem!(t.elem, T => {
                        self.local_store::<T>(&mut la, v, mode, idx, mask, |a, x| T::combine(op, a, x))
                    }, None),
                };
                self.local.arrs[a] = Some(la);
                if let Some((lanes, m)) = err {
                    self.note_failed(lanes);
                    return Err(KernelError::new(line, KernelErrorKind::OutOfBounds, m));
                }
            }
        }
        Ok(())
    }

    /// Stores (`f(old, new)`) into the lanes' dynamic arrays; returns a checked miss.
    fn local_store<T: LaneTy>(
        &self,
        la: &mut crate::local::LocalArr,
        v: &Lanes,
        mode: ReadMode,
        idx: &[Reg],
        mask: &[bool],
        f: impl Fn(T, T) -> T,
    ) -> Option<(Vec<usize>, String)> {
        let v = &T::get(v)[..self.n];
        if mode == ReadMode::Checked {
            // Every lane's index is checked before any lane stores, so that a failing
            // lane leaves the statement without effect and it can run again without it.
            let failing: Vec<usize> = (0..self.n)
                .filter(|&l| mask[l])
                .filter(|&l| {
                    self.local_offset(&la.dims[l][..la.rank], mode, idx, l)
                        .is_err()
                })
                .collect();
            if let Some(&l) = failing.first() {
                let m = self
                    .local_offset(&la.dims[l][..la.rank], mode, idx, l)
                    .err();
                return Some((failing, m.unwrap_or_default()));
            }
        }
        for l in (0..self.n).filter(|&l| mask[l]) {
            if let Ok(o) = self.local_offset(&la.dims[l][..la.rank], mode, idx, l) {
                let b = la.base[l];
                if let Some(x) = T::get_mut(&mut la.data).get_mut(b + o) {
                    *x = f(*x, v[l]);
                }
            }
        }
        None
    }

    /// `size(arr, dim)` (dims past the rank are 1) or `numel(arr)` into `d`.
    pub(super) fn size(&mut self, ctx: &Ctx, arr: u32, dim: Option<usize>, d: Reg) {
        let n = self.n;
        let a = arr as usize;
        let f = |dims: &[usize]| -> i32 {
            match dim {
                Some(k) => dims.get(k).copied().unwrap_or(1) as i32,
                None if dims.is_empty() => 0,
                None => dims.iter().product::<usize>() as i32,
            }
        };
        let mut dst = take(&mut self.regs[d as usize]);
        let dv = &mut i32::get_mut(&mut dst)[..n];
        match ctx.prog.arrays[a].space {
            Space::Global => dv.fill(ctx.globals[a].map_or(0, |g| f(&g.dims))),
            Space::Shared => dv.fill(self.shared[a].as_ref().map_or(0, |s| f(&s.dims))),
            Space::Local => match self.local.arrs.get(a) {
                Some(Some(la)) => {
                    for (l, x) in dv.iter_mut().enumerate() {
                        *x = f(&la.dims[l][..la.rank]);
                    }
                }
                _ => dv.fill(0),
            },
        }
        self.regs[d as usize] = dst;
    }
}

/// Lanes `sp.lo..sp.hi` of `dv` from `src[sp.start..]`; the other lanes are zero.
fn copy_span<T: Copy + Default>(src: &[T], dv: &mut [T], sp: Span) {
    let n = dv.len();
    let (lo, hi) = (sp.lo.min(n), sp.hi.min(n).max(sp.lo.min(n)));
    dv[..lo].fill(T::default());
    dv[hi..].fill(T::default());
    match src.get(sp.start..sp.start + (hi - lo)) {
        Some(s) => dv[lo..hi].copy_from_slice(s),
        None => dv[lo..hi].fill(T::default()),
    }
}

/// `dst[sp.start + l - sp.lo] = v[l]` for the active lanes `l` of the span.
fn store_span<T: Copy>(dst: &mut [T], v: &[T], sp: Span, mask: &[bool], full: bool) {
    let n = v.len();
    let (lo, hi) = (sp.lo.min(n), sp.hi.min(n).max(sp.lo.min(n)));
    let Some(d) = dst.get_mut(sp.start..sp.start + (hi - lo)) else {
        return;
    };
    if full && lo == 0 && hi == n {
        d.copy_from_slice(&v[lo..hi]);
    } else {
        for ((x, &y), &m) in d.iter_mut().zip(&v[lo..hi]).zip(&mask[lo..hi]) {
            if m {
                *x = y;
            }
        }
    }
}
