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
        })
    }

    /// The plan dimension of kernel component `c` (None: a leading padding component).
    fn plan_dim(&self, c: usize) -> Option<usize> {
        (c + self.rank).checked_sub(self.kr)
    }

    /// Extents of the index space as the kernel sees it (`kr` components).
    pub(crate) fn kernel_dims(&self) -> Vec<usize> {
        (0..self.kr)
            .map(|c| self.plan_dim(c).map_or(1, |p| self.data[p]))
            .collect()
    }

    fn stride(dims: &[usize; 4], rank: usize, p: usize) -> usize {
        dims[p + 1..rank].iter().product()
    }
}

/// Writes `(start / stride) % extent` for `start, start+1, ...` into `out`.
fn odometer(out: &mut [i32], start: usize, stride: usize, extent: usize, add: usize) {
    let (mut v, mut rem) = ((start / stride) % extent.max(1), start % stride);
    for x in out {
        *x = (v + add) as i32;
        rem += 1;
        if rem == stride {
            rem = 0;
            v += 1;
            if v == extent {
                v = 0;
            }
        }
    }
}

/// Starts work item `item` in `s`: lane count, contiguity and special registers.
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
        (CHUNK.min(sp.total - item * CHUNK), [0; 4])
    };
    s.begin(prog, n);
    s.contiguous = if !sp.blocky {
        Some(item * CHUNK)
    } else if sp.contiguous_blocks {
        Some((0..r).fold(0, |a, p| a * sp.data[p] + bidx[p] * sp.block[p]))
    } else {
        None
    };
    for (kind, regs) in prog.specials.iter().enumerate() {
        let Some(regs) = regs else { continue };
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
                        item * CHUNK,
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
    n
}
