//! The index space of a launch and the per-lane special registers of a work item.
//!
//! A work item is either one block (lanes in row-major order within the block) or a
//! chunk of consecutive threads. `pos`, `blkpos`, `blkidx` are computed per lane with
//! running counters (no division per lane for `pos`); `blkdim`, `blkcnt` are uniform.
//! A kernel of lower rank than the plan sees the trailing dimensions (the leading ones
//! must be 1); a kernel of higher rank sees leading zeros (extent 1).

use crate::exec::Scratch;
use crate::launch::CHUNK;
use crate::program::Program;
use crate::values::LaneTy;
use crate::{KernelError, LaunchPlan};

/// The index space of one launch.
pub(crate) struct Space {
    pub rank: usize,
    pub data: [usize; 4],
    pub block: [usize; 4],
    pub cnt: [usize; 4],
    pub total: usize,
    pub blocky: bool,
    /// Lanes per work item (the most any item has).
    pub width: usize,
    pub items: usize,
    /// Rank of the kernel's specials.
    pub kr: usize,
    /// The lanes of a block are consecutive threads.
    contiguous_blocks: bool,
    /// `pos` is only used by contiguous accesses: do not compute it.
    pub skip_pos: bool,
    /// Threads per work item of a kernel without blocks ([`CHUNK`], or 1 under a
    /// random schedule).
    pub chunk: usize,
}

impl Space {
    pub(crate) fn new(plan: &LaunchPlan, kr: usize, blocky: bool) -> Result<Space, KernelError> {
        let rank = plan.rank as usize;
        if !(1..=4).contains(&rank) {
            return Err(KernelError::bad_launch(format!(
                "launch rank {rank} is outside 1..=4"
            )));
        }
        let (mut data, mut block, mut cnt) = ([1usize; 4], [1usize; 4], [1usize; 4]);
        for d in 0..rank {
            let (n, b) = (plan.data_dims[d], plan.block_dims[d]);
            if b == 0 || n % b != 0 {
                return Err(KernelError::bad_launch(format!(
                    "block size {b} does not divide data size {n} in dimension {d}"
                )));
            }
            (data[d], block[d], cnt[d]) = (n, b, n / b);
        }
        if kr < rank && data[..rank - kr].iter().any(|&n| n != 1) {
            return Err(KernelError::bad_launch(format!(
                "a rank {kr} kernel cannot run over data of size {:?}",
                &data[..rank]
            )));
        }
        let total = data[..rank]
            .iter()
            .fold(1usize, |a, &n| a.saturating_mul(n));
        let first = (0..rank)
            .find(|&d| block[d] > 1)
            .unwrap_or(rank.saturating_sub(1));
        let contiguous_blocks = (first + 1..rank).all(|d| block[d] == data[d]);
        let (width, items) = if blocky {
            let lanes: usize = block[..rank].iter().product();
            (
                lanes,
                if total == 0 {
                    0
                } else {
                    cnt[..rank].iter().product()
                },
            )
        } else {
            (CHUNK.min(total).max(1), total.div_ceil(CHUNK))
        };
        Ok(Space {
            rank,
            data,
            block,
            cnt,
            total,
            blocky,
            width,
            items,
            kr,
            contiguous_blocks,
            skip_pos: false,
            chunk: CHUNK,
        })
    }

    /// The same space with `chunk` threads per work item (kernels without blocks).
    pub(crate) fn with_chunk(mut self, chunk: usize) -> Space {
        if !self.blocky && chunk >= 1 {
            self.chunk = chunk;
            self.width = chunk.min(self.total).max(1);
            self.items = self.total.div_ceil(chunk);
        }
        self
    }

    /// The plan dimension of kernel component `c` (None: a leading padding component).
    /// The row-major linear position, in the index space, of lane `lane` of work item
    /// `item` (the order in which a launch's failures are ranked).
    pub(crate) fn linear_pos(&self, item: usize, lane: usize) -> usize {
        if !self.blocky {
            return item * CHUNK + lane;
        }
        let r = self.rank;
        let (mut b, mut t) = ([0usize; 4], [0usize; 4]);
        let (mut rb, mut rt) = (item, lane);
        for p in (0..r).rev() {
            b[p] = rb % self.cnt[p].max(1);
            rb /= self.cnt[p].max(1);
            t[p] = rt % self.block[p].max(1);
            rt /= self.block[p].max(1);
        }
        (0..r).fold(0, |a, p| a * self.data[p] + b[p] * self.block[p] + t[p])
    }

    pub(crate) fn plan_dim(&self, c: usize) -> Option<usize> {
        (c + self.rank).checked_sub(self.kr)
    }

    /// Extents of the index space as the kernel sees it (`kr` components).
    pub(crate) fn kernel_dims(&self) -> Vec<usize> {
        (0..self.kr)
            .map(|c| self.plan_dim(c).map_or(1, |p| self.data[p]))
            .collect()
    }

    /// The launch shape as an observer sees it.
    pub(crate) fn shape(&self) -> crate::observe::Shape {
        crate::observe::Shape {
            rank: self.rank,
            kernel_rank: self.kr,
            data: self.data,
            block: self.block,
            blocky: self.blocky,
            width: self.width,
            items: self.items,
            chunk: self.chunk,
        }
    }

    fn stride(dims: &[usize; 4], rank: usize, p: usize) -> usize {
        dims[p + 1..rank].iter().product()
    }
}

/// Writes `(start + l) / stride % extent + add` for lanes `l`, in constant runs (or
/// increasing runs when `stride` is 1) so that the inner loops vectorise.
fn odometer(out: &mut [i32], start: usize, stride: usize, extent: usize, add: usize) {
    let (n, extent) = (out.len(), extent.max(1));
    let (mut v, mut rem, mut l) = ((start / stride) % extent, start % stride, 0);
    while l < n {
        if stride == 1 {
            let run = (extent - v).min(n - l);
            let first = (v + add) as i32;
            for (k, x) in out[l..l + run].iter_mut().enumerate() {
                *x = first + k as i32;
            }
            l += run;
            v = 0;
        } else {
            let run = (stride - rem).min(n - l);
            out[l..l + run].fill((v + add) as i32);
            l += run;
            rem = 0;
            v += 1;
            if v == extent {
                v = 0;
            }
        }
    }
}

/// Range `(lo, hi)` of `(t / stride) % extent` over threads `t` in `start..start + n`.
fn digit_range(start: usize, n: usize, stride: usize, extent: usize) -> (i64, i64) {
    let (stride, extent) = (stride.max(1), extent.max(1));
    let (q0, q1) = (start / stride, (start + n.max(1) - 1) / stride);
    let (v0, v1) = (q0 % extent, q1 % extent);
    if q1 - q0 >= extent || v0 > v1 {
        (0, extent as i64 - 1)
    } else {
        (v0 as i64, v1 as i64)
    }
}

/// Starts work item `item` in `s`: lane count, contiguity and special registers
/// (`pos` is left for [`fill_pos`] when `skip_pos`).
pub(crate) fn fill_specials(prog: &Program, sp: &Space, s: &mut Scratch, item: usize) -> usize {
    let r = sp.rank;
    let (n, bidx) = if sp.blocky {
        let mut bidx = [0usize; 4];
        let mut rest = item;
        for p in (0..r).rev() {
            bidx[p] = rest % sp.cnt[p];
            rest /= sp.cnt[p];
        }
        (sp.width, bidx)
    } else {
        (sp.chunk.min(sp.total - item * sp.chunk), [0; 4])
    };
    s.begin(prog, n);
    s.contiguous = if !sp.blocky {
        Some(item * sp.chunk)
    } else if sp.contiguous_blocks {
        Some((0..r).fold(0, |a, p| a * sp.data[p] + bidx[p] * sp.block[p]))
    } else {
        None
    };
    s.pos_lazy = None;
    for kind in 0..prog.specials.len() {
        if kind == 0 && sp.skip_pos {
            s.pos_lazy = Some(item);
            continue;
        }
        fill_kind(prog, sp, s, item, kind, n, &bidx);
    }
    if prog.has_stencil {
        if let (Some(base), Some(regs)) = (s.contiguous, &prog.specials[0]) {
            for c in 0..regs.len() {
                (s.pos_lo[c], s.pos_hi[c]) = match sp.plan_dim(c) {
                    Some(p) => digit_range(base, n, Space::stride(&sp.data, r, p), sp.data[p]),
                    None => (0, 0),
                };
            }
        }
    }
    n
}

/// Fills the `pos` registers of a chunk whose `pos` was skipped (`pos_lazy`).
pub(crate) fn fill_pos(prog: &Program, sp: &Space, s: &mut Scratch) {
    if let Some(item) = s.pos_lazy.take() {
        let n = s.n;
        fill_kind(prog, sp, s, item, 0, n, &[0; 4]);
    }
}

/// Fills the registers of special `kind` (`pos`, `blkpos`, ...) for work item `item`.
fn fill_kind(
    prog: &Program,
    sp: &Space,
    s: &mut Scratch,
    item: usize,
    kind: usize,
    n: usize,
    bidx: &[usize; 4],
) {
    let r = sp.rank;
    let Some(regs) = &prog.specials[kind] else {
        return;
    };
    for (c, &reg) in regs.iter().enumerate() {
        let out = &mut i32::get_mut(&mut s.regs[reg as usize])[..n];
        let Some(p) = sp.plan_dim(c) else {
            out.fill(if kind == 2 || kind == 4 { 1 } else { 0 });
            continue;
        };
        let (bd, cn) = (sp.block[p], sp.cnt[p]);
        match kind {
            2 => out.fill(bd as i32),
            4 => out.fill(cn as i32),
            _ if sp.blocky => {
                // Lane l is blkpos l (row-major in the block) of block `bidx`.
                let add = if kind == 0 { bidx[p] * bd } else { 0 };
                if kind == 3 {
                    out.fill(bidx[p] as i32);
                } else {
                    odometer(out, 0, Space::stride(&sp.block, r, p), bd, add);
                }
            }
            _ => {
                odometer(
                    out,
                    item * sp.chunk,
                    Space::stride(&sp.data, r, p),
                    sp.data[p],
                    0,
                );
                match kind {
                    1 => out.iter_mut().for_each(|x| *x %= bd as i32),
                    3 => out.iter_mut().for_each(|x| *x /= bd as i32),
                    _ => {}
                }
            }
        }
    }
}
