//! The SIMT interpreter: runs a register program over the lanes of one work item.
//!
//! A [`Scratch`] holds the registers, masks and memory of one worker; it is reused
//! across the work items that worker runs, so steady-state execution allocates
//! nothing. Statements run under an execution mask (`Vec<bool>`, one flag per lane).
//! `if` splits it; loops run while any lane is active, with per-depth `break` and
//! `continue` masks; `return` clears lanes from `live`. Pure instructions compute all
//! lanes (inactive lanes hold harmless garbage); memory operations honour the mask.

mod fail;
mod fast;
mod flow;
mod fused;
mod mem;
mod observed;
mod scratch;
mod split;
mod steps;

use fast::Span;
use scratch::all_set;
pub(crate) use scratch::{active_range, identity, partial_op};

use crate::local::{LocalPool, SharedArr};
use crate::memory::GlobalMem;
use crate::ops::{self, with_num};
use crate::program::*;
use crate::values::{with_scalar, KValue, LaneTy, Lanes};
use crate::{KernelError, KernelErrorKind};
use blazar_ops::scalar::Arith as _;
use std::mem::take;

/// Launch-wide, read-only context shared by all workers.
#[derive(Clone)]
pub(crate) struct Ctx<'a, 'o> {
    /// The observer of an observed launch (which runs serially).
    pub obs: Option<&'a std::sync::Mutex<&'o mut dyn crate::observe::Observer>>,
    /// The random schedule's context switches at memory accesses (`interleave.rs`).
    pub sched: Option<&'a crate::interleave::Baton>,
    pub prog: &'a Program,
    /// Per array slot: the global buffer it is bound to.
    pub globals: Vec<Option<&'a GlobalMem>>,
    /// Per array slot: indexing it with `pos` gives the thread's linear id.
    pub pos_contig: Vec<bool>,
    /// Extents and row-major strides of the index space, per kernel component.
    pub kdims: Vec<usize>,
    pub kstride: Vec<usize>,
    pub space: &'a crate::specials::Space,
}

/// The per-worker state of execution.
pub(crate) struct Scratch {
    pub regs: Vec<Lanes>,
    pub n: usize,
    pub width: usize,
    /// Lanes that have not returned.
    pub live: Vec<bool>,
    /// Lanes that skipped a barrier other lanes of their block waited at: they may
    /// run on to the end of the kernel, but reach no barrier again.
    skipped: Vec<bool>,
    any_skipped: bool,
    /// The lanes that failed the statement being run (filled by the failing check).
    pub(crate) fail_lanes: Vec<usize>,
    /// The failure of the lowest failing lane of the work item so far: a failing lane
    /// stops (as if it returned) and the others run on, so that the launch can report
    /// the failure of its lowest failing thread, as every tier does.
    pub(crate) failure: Option<(usize, KernelError)>,
    /// Counts the lanes stopped by failures (statements then drop them from masks).
    kills: u64,
    /// The failing lane of the last item that failed.
    failed_at: Option<usize>,
    /// Linear id of lane 0 when the lanes are consecutive threads.
    pub contiguous: Option<usize>,
    pub partials: Vec<Lanes>,
    /// Range of each `pos` component over the lanes (kernels with stencil loads).
    pub pos_lo: Vec<i64>,
    pub pos_hi: Vec<i64>,
    /// The work item whose `pos` registers are still to be filled (`skip_pos`).
    pub pos_lazy: Option<usize>,
    /// The work item being run.
    pub item: usize,
    /// The coroutine running this scratch under the random schedule.
    pub slot: usize,
    /// The random schedule's generator for splitting the threads of a block
    /// (`split.rs`), seeded per work item.
    pub split_rng: u64,
    /// Blocks entered below the kernel body (for observers).
    pub depth: usize,
    /// A statement's last step runs its effect (`steps.rs`): its hook was called.
    in_step: bool,
    /// Per lane, under the random schedule: the line of the statement where the lane
    /// waits while other threads of its block run (0: not paused; `split.rs`,
    /// `steps.rs`), for observers.
    pub(crate) paused: Vec<u32>,
    /// The mask of the statement being run has every lane set.
    full: bool,
    /// `(lane, element)` pairs of an observed access.
    seen: Vec<(u32, usize)>,
    pool: Vec<Vec<bool>>,
    brk: Vec<Vec<bool>>,
    cont: Vec<Vec<bool>>,
    emask: Vec<Vec<bool>>,
    off: Vec<usize>,
    ok: Vec<bool>,
    conv: Vec<Lanes>,
    pub(crate) shared: Vec<Option<SharedArr>>,
    local: LocalPool,
    zero_regs: Vec<Reg>,
    param_fill: Vec<(Reg, KValue)>,
}

impl Scratch {
    /// Runs the kernel body over the current work item.
    pub(crate) fn run(&mut self, ctx: &Ctx) -> Result<(), KernelError> {
        let mut mask = self.take_mask();
        mask.fill(true);
        self.depth = 0;
        let full = all_set(&mask);
        let r = self.block_with(ctx, &ctx.prog.body, &mut mask, full);
        self.pool.push(mask);
        // An error no lane owns (a barrier a skipping thread reaches) is the item's.
        self.failed_at = Some(0);
        r?;
        match self.failure.take() {
            Some((l, e)) => {
                self.failed_at = Some(l);
                Err(e)
            }
            None => Ok(()),
        }
    }

    fn take_mask(&mut self) -> Vec<bool> {
        let mut m = self.pool.pop().unwrap_or_default();
        m.clear();
        m.resize(self.n, false);
        m
    }

    pub(super) fn block(
        &mut self,
        ctx: &Ctx,
        b: &[CStmt],
        mask: &mut Vec<bool>,
    ) -> Result<(), KernelError> {
        let full = all_set(mask);
        self.depth += 1;
        let r = self.block_with(ctx, b, mask, full);
        self.depth -= 1;
        r
    }

    /// `block` when whether `mask` is full is already known.
    fn block_with(
        &mut self,
        ctx: &Ctx,
        b: &[CStmt],
        mask: &mut Vec<bool>,
        full: bool,
    ) -> Result<(), KernelError> {
        if ctx.sched.is_some() && self.n > 1 {
            // The random schedule: the block's threads may part at memory accesses.
            return self.block_split(ctx, b, mask, full);
        }
        self.block_plain(ctx, b, mask, full)
    }

    /// `block_with` in lock step. Not inlined, so that `stmt` keeps a single caller
    /// (the random schedule's `block_split` runs its statements through here too).
    #[inline(never)]
    fn block_plain(
        &mut self,
        ctx: &Ctx,
        b: &[CStmt],
        mask: &mut Vec<bool>,
        mut full: bool,
    ) -> Result<(), KernelError> {
        for s in b {
            self.full = full;
            if let Some(o) = ctx.obs {
                if !self.in_step {
                    let view = crate::view::ItemView {
                        scratch: self,
                        ctx,
                        item: self.item,
                        line: s.line,
                        depth: self.depth,
                        mask: &mask[..self.n],
                        part: 0,
                    };
                    o.lock().unwrap_or_else(|e| e.into_inner()).stmt(&view);
                }
            }
            let kills = self.kills;
            loop {
                match self.stmt(ctx, s, mask) {
                    Ok(()) => break,
                    Err(e) if !e.stops_one_thread() => return Err(e),
                    Err(e) => {
                        // The failing check ran before the statement's effect: run it
                        // again for the lanes that did not fail.
                        if !self.stop_failed(e, mask) {
                            break;
                        }
                        self.full = false;
                    }
                }
            }
            if self.kills != kills {
                // Lanes stopped inside this statement (or a nested one) run no further.
                for (m, &l) in mask.iter_mut().zip(&self.live) {
                    *m &= l;
                }
                if !mask.iter().any(|&m| m) {
                    break;
                }
                full = all_set(mask);
            } else if s.exits {
                if !mask.iter().any(|&m| m) {
                    break;
                }
                full = all_set(mask);
            }
        }
        Ok(())
    }

    fn code(
        &mut self,
        ctx: &Ctx,
        code: &[Inst],
        mask: &[bool],
        line: u32,
    ) -> Result<(), KernelError> {
        if code.is_empty() {
            return Ok(());
        }
        // Pure instructions compute only the lanes from the first to the last active
        // one (the others hold garbage anyway); with no active lane nothing runs.
        let n = self.n;
        let Some((lo, hi)) = scratch::active_range(&mask[..n]) else {
            return Ok(());
        };
        for i in code {
            self.inst(ctx, i, mask, (lo, hi), line)?;
        }
        Ok(())
    }

    fn inst(
        &mut self,
        ctx: &Ctx,
        i: &Inst,
        mask: &[bool],
        (lo, hi): (usize, usize),
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let r = |x: &Reg| *x as usize;
        match i {
            Inst::Unary { op, d, a } => {
                let mut dst = take(&mut self.regs[r(d)]);
                ops::unary(*op, &mut dst, &self.regs[r(a)], lo, hi);
                self.regs[r(d)] = dst;
            }
            Inst::Binary { op, d, a, b } => {
                let mut dst = take(&mut self.regs[r(d)]);
                ops::binary(*op, &mut dst, &self.regs[r(a)], &self.regs[r(b)], lo, hi);
                self.regs[r(d)] = dst;
            }
            Inst::Cast { d, a } => {
                let mut dst = take(&mut self.regs[r(d)]);
                crate::math::cast(&mut dst, &self.regs[r(a)], lo, hi);
                self.regs[r(d)] = dst;
            }
            Inst::Select { d, c, a, b } => {
                let mut dst = take(&mut self.regs[r(d)]);
                ops::select(
                    &mut dst,
                    &self.regs[r(c)],
                    &self.regs[r(a)],
                    &self.regs[r(b)],
                    lo,
                    hi,
                );
                self.regs[r(d)] = dst;
            }
            Inst::Math { f, d, a, b } => {
                let mut dst = take(&mut self.regs[r(d)]);
                let b = b.map(|b| &self.regs[b as usize]);
                crate::math::math(*f, &mut dst, &self.regs[r(a)], b, lo, hi);
                self.regs[r(d)] = dst;
            }
            Inst::LaneDyn { d, srcs, idx } => {
                let mut dst = take(&mut self.regs[r(d)]);
                with_scalar!(dst.scalar(), T => {
                    let dv = &mut T::get_mut(&mut dst)[..n];
                    dv.fill(T::default());
                    for (k, s) in srcs.iter().enumerate() {
                        let sv = T::get(&self.regs[r(s)]);
                        let ix = &self.regs[r(idx)];
                        for l in 0..n {
                            if ix.lane_i64(l) == k as i64 {
                                dv[l] = sv[l];
                            }
                        }
                    }
                });
                self.regs[r(d)] = dst;
            }
            Inst::MaskPush { cond, neg } => {
                let mut m = self.take_mask();
                let top: &[bool] = self.emask.last().map_or(mask, |v| v);
                let c = bool::get(&self.regs[r(cond)]);
                for l in 0..n {
                    m[l] = top[l] && (c[l] != *neg);
                }
                self.emask.push(m);
            }
            Inst::MaskPop => {
                if let Some(m) = self.emask.pop() {
                    self.pool.push(m);
                }
            }
            Inst::Load { .. } => self.load_inst(ctx, i, mask, line)?,
            Inst::LoadBin {
                op,
                d,
                other,
                load_first,
                load,
            } => self.load_bin(
                ctx,
                (*op, *d, *other, *load_first),
                load,
                mask,
                (lo, hi),
                line,
            )?,
            Inst::Size { arr, dim, d } => self.size(ctx, *arr, Some(*dim as usize), *d),
            Inst::Numel { arr, d } => self.size(ctx, *arr, None, *d),
        }
        Ok(())
    }

    fn stmt(&mut self, ctx: &Ctx, s: &CStmt, mask: &mut Vec<bool>) -> Result<(), KernelError> {
        let n = self.n;
        let line = s.line;
        match &s.kind {
            CKind::Assign {
                code,
                dst,
                src,
                swap,
            } => {
                self.code(ctx, code, mask, line)?;
                let full = self.full;
                for k in 0..dst.len() {
                    let (d, x) = (dst[k] as usize, src[k] as usize);
                    if d == x {
                        continue;
                    }
                    if full && swap[k] {
                        self.regs.swap(d, x);
                    } else {
                        let mut dl = take(&mut self.regs[d]);
                        dl.copy_masked(&self.regs[x], mask, full);
                        self.regs[d] = dl;
                    }
                }
            }
            CKind::SetLane {
                code,
                dst,
                lane,
                val,
            } => {
                self.code(ctx, code, mask, line)?;
                for (k, &d) in dst.iter().enumerate() {
                    if d == *val {
                        continue;
                    }
                    let mut dl = take(&mut self.regs[d as usize]);
                    let (lv, vv) = (&self.regs[*lane as usize], &self.regs[*val as usize]);
                    with_scalar!(dl.scalar(), T => {
                        let (dv, vv) = (T::get_mut(&mut dl), T::get(vv));
                        for l in 0..n {
                            if mask[l] && lv.lane_i64(l) == k as i64 {
                                dv[l] = vv[l];
                            }
                        }
                    });
                    self.regs[d as usize] = dl;
                }
            }
            CKind::Store {
                code,
                arr,
                idx,
                pos,
                val,
                op,
                affine,
                slow,
                at,
            } => {
                self.code(ctx, code, mask, line)?;
                let full = self.full;
                let aff = affine.as_ref().and_then(|t| {
                    let mode = match ctx.prog.arrays[*arr as usize].write {
                        blazar_kir::WriteMode::Checked => blazar_kir::ReadMode::Checked,
                        _ => blazar_kir::ReadMode::Zero,
                    };
                    self.affine_base(ctx, *arr as usize, t, fast::first_active(&mask[..n]))
                        .filter(|s| s.usable(n, mode, mask))
                });
                if aff.is_none() && !slow.is_empty() {
                    if self.pos_lazy.is_some() {
                        crate::specials::fill_pos(ctx.prog, ctx.space, self);
                    }
                    self.code(ctx, slow, mask, line)?;
                }
                self.store(ctx, *arr, idx, (*pos, aff), *val, *op, mask, full, line)
                    .map_err(|e| e.at_access(*at))?;
            }
            CKind::Accumulate { code, out, val } => {
                self.code(ctx, code, mask, line)?;
                let o = &ctx.prog.outputs[*out as usize];
                let op = partial_op(o.op);
                let (p, v) = (&mut self.partials[*out as usize], &self.regs[*val as usize]);
                crate::memory::with_elem!(o.ty, T => {
                    let v = &T::get(v)[..n];
                    let mut acc = T::get(p)[0];
                    for l in 0..n {
                        if mask[l] {
                            acc = <T as crate::memory::Elem>::combine(op, acc, v[l]);
                        }
                    }
                    T::get_mut(p)[0] = acc;
                }, ());
            }
            CKind::If {
                code,
                cond,
                then,
                els,
            } => {
                self.code(ctx, code, mask, line)?;
                let (mut tm, mut em) = (self.take_mask(), self.take_mask());
                let (mut ta, mut ea) = (false, false);
                let c = &bool::get(&self.regs[*cond as usize])[..n];
                let (t, e, m) = (&mut tm[..n], &mut em[..n], &mask[..n]);
                for l in 0..n {
                    t[l] = m[l] & c[l];
                    e[l] = m[l] & !c[l];
                    ta |= t[l];
                    ea |= e[l];
                }
                let r = (|| {
                    if ta {
                        self.block(ctx, then, &mut tm)?;
                    }
                    if ea {
                        self.block(ctx, els, &mut em)?;
                    }
                    Ok(())
                })();
                if s.exits {
                    for ((m, t), e) in mask[..n].iter_mut().zip(&tm[..n]).zip(&em[..n]) {
                        *m = *t | *e;
                    }
                }
                self.pool.push(tm);
                self.pool.push(em);
                r?;
            }
            CKind::While {
                code,
                cond,
                body,
                depth,
            } => {
                self.looped(
                    ctx,
                    mask,
                    *depth,
                    line,
                    |me, cur, out| {
                        me.code(ctx, code, cur, line)?;
                        out.copy_from_slice(&bool::get(&me.regs[*cond as usize])[..n]);
                        Ok(())
                    },
                    body,
                    None,
                )?;
            }
            CKind::For {
                code,
                var,
                start,
                step,
                end,
                body,
                depth,
                uniform,
            } => {
                self.code(ctx, code, mask, line)?;
                if *uniform {
                    return self.uniform_for(ctx, mask, *var, *start, *step, *end, body);
                }
                if start != var {
                    // (`for i = i..n` starts where the variable is: nothing to copy.)
                    let mut v = take(&mut self.regs[*var as usize]);
                    v.copy_masked(&self.regs[*start as usize], mask, false);
                    self.regs[*var as usize] = v;
                }
                let (var, step, end) = (*var as usize, *step as usize, *end as usize);
                self.looped(
                    ctx,
                    mask,
                    *depth,
                    line,
                    |me, _cur, out| {
                        let (v, st, en) = (&me.regs[var], &me.regs[step], &me.regs[end]);
                        with_num!(v.scalar(), T => {
                        let (v, st, en) = (&T::get(v)[..n], &T::get(st)[..n], &T::get(en)[..n]);
                        let z = T::default();
                        for (((o, &v), &st), &en) in out[..n].iter_mut().zip(v).zip(st).zip(en) {
                            *o = if z.lt(st) { v.le(en) } else { en.le(v) };
                        }
                    }, out.fill(false));
                        Ok(())
                    },
                    body,
                    Some((var, step)),
                )?;
            }
            CKind::Break(t) | CKind::Continue(t) => {
                let target = if matches!(s.kind, CKind::Break(_)) {
                    &mut self.brk[*t]
                } else {
                    &mut self.cont[*t]
                };
                for l in 0..n {
                    target[l] |= mask[l];
                    mask[l] = false;
                }
            }
            CKind::Return => {
                for l in 0..n {
                    self.live[l] &= !mask[l];
                    mask[l] = false;
                }
            }
            CKind::Barrier => {
                // A barrier waits for the lanes of the block that have not finished and
                // reach it; live lanes outside the mask skip it, and must not wait at a
                // barrier later (on a GPU they would meet another barrier's threads).
                // Branch-free over the lanes so that it vectorises; a full mask with no
                // lane that skipped before passes.
                if !self.full || self.any_skipped {
                    let (mut late, mut skip) = (false, false);
                    let lanes = mask[..n].iter().zip(&self.live[..n]);
                    for ((&m, &live), skipped) in lanes.zip(&mut self.skipped[..n]) {
                        late |= m & *skipped;
                        let s = live & !m;
                        skip |= s;
                        *skipped |= s;
                    }
                    self.any_skipped |= skip;
                    if late {
                        return Err(KernelError::new(
                            line,
                            KernelErrorKind::Divergence,
                            blazar_kir::uniform::skipped_barrier_message(line),
                        ));
                    }
                }
                if let Some(o) = ctx.obs {
                    o.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .barrier(self.item, line);
                }
            }
            CKind::Assert { code, cond } => {
                self.code(ctx, code, mask, line)?;
                let c = bool::get(&self.regs[*cond as usize]);
                if (0..n).any(|l| mask[l] && !c[l]) {
                    self.fail_lanes.extend((0..n).filter(|&l| mask[l] && !c[l]));
                    return Err(KernelError::new(
                        line,
                        KernelErrorKind::AssertFailed,
                        "assertion failed",
                    ));
                }
            }
            CKind::AllocShared {
                code,
                arr,
                dims,
                zero,
            } => {
                self.code(ctx, code, mask, line)?;
                let t = ctx.prog.arrays[*arr as usize];
                let d: Vec<&Lanes> = dims.iter().map(|r| &self.regs[*r as usize]).collect();
                SharedArr::alloc(
                    &mut self.shared[*arr as usize],
                    t.elem,
                    t.rank as usize,
                    &d,
                    mask,
                    line,
                    if *zero { 4 } else { 3 },
                )?;
            }
            CKind::AllocLocal {
                code,
                arr,
                dims,
                fill,
            } => {
                self.code(ctx, code, mask, line)?;
                let t = ctx.prog.arrays[*arr as usize];
                let d: Vec<&Lanes> = dims.iter().map(|r| &self.regs[*r as usize]).collect();
                self.local.alloc(
                    *arr as usize,
                    t.elem,
                    t.rank as usize,
                    &d,
                    *fill,
                    &mask[..n],
                    line,
                )?;
            }
        }
        Ok(())
    }
}
