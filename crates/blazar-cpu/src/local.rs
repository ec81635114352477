//! Per-block shared memory and per-thread dynamic memory (`zeros` inside a kernel).
//!
//! Both belong to one work item, so they are plain typed vectors. Dynamic memory follows
//! Quasar's rules: each allocation is rounded up to a power-of-two multiple of 1024
//! bytes, one allocation may not exceed 32768 bytes, and the live dynamic memory of a
//! work item may not exceed 16 MiB. A lane's storage is reused when it reallocates the
//! same array with a size that fits, so allocations inside loops do not grow the pool.

use crate::memory::MAX_DIMS;
use crate::values::{with_scalar, KValue, LaneTy, Lanes};
use crate::{KernelError, KernelErrorKind};
use blazar_kir::{Fill, Scalar};

pub(crate) const ALLOC_LIMIT: usize = 32768;
pub(crate) const TOTAL_LIMIT: usize = 16 << 20;
/// Sanity bound on one block's shared array.
const SHARED_LIMIT: usize = 256 << 20;

/// A shared array of the current block.
#[derive(Debug)]
pub(crate) struct SharedArr {
    pub data: Lanes,
    pub dims: Vec<usize>,
}

/// Dims from per-lane values, left-padded with 1s to `rank`; a negative extent is an
/// error of allocating builtin `what` (see `blazar_kir::ALLOC_BUILTINS`), as on the host.
fn padded_dims(
    vals: impl Iterator<Item = i64> + Clone,
    rank: usize,
    what: usize,
    line: u32,
) -> Result<Vec<usize>, KernelError> {
    if let Some(v) = vals.clone().find(|&v| v < 0) {
        return Err(KernelError::new(
            line,
            KernelErrorKind::BadSize,
            blazar_kir::negative_extent_message(what, v),
        ));
    }
    let k = vals.clone().count();
    let pad = rank.saturating_sub(k);
    Ok(std::iter::repeat_n(1, pad)
        .chain(vals.map(|v| v as usize))
        .collect())
}

fn numel(dims: &[usize]) -> usize {
    dims.iter().fold(1usize, |a, &d| a.saturating_mul(d))
}

impl SharedArr {
    /// Allocates (zero-filled) with the dims of the first active lane; all active lanes
    /// must agree.
    pub(crate) fn alloc(
        slot: &mut Option<SharedArr>,
        elem: Scalar,
        rank: usize,
        dims: &[&Lanes],
        mask: &[bool],
        line: u32,
        what: usize,
    ) -> Result<(), KernelError> {
        let Some(first) = mask.iter().position(|&m| m) else {
            return Ok(());
        };
        let at = |l: usize| padded_dims(dims.iter().map(move |r| r.lane_i64(l)), rank, what, line);
        let want = at(first)?;
        for l in first..mask.len() {
            if mask[l] && at(l)? != want {
                return Err(KernelError::new(
                line,
                KernelErrorKind::Divergence,
                format!("shared memory is allocated with different sizes by the threads of a block (line {line})"),
            ));
            }
        }
        let n = numel(&want);
        if n.saturating_mul(elem.size()) > SHARED_LIMIT {
            return Err(KernelError::new(
                line,
                KernelErrorKind::OutOfMemory,
                format!(
                    "shared memory: an allocation of {} bytes is too large",
                    n.saturating_mul(elem.size())
                ),
            ));
        }
        let arr = slot.get_or_insert_with(|| SharedArr {
            data: Lanes::new(elem, 0),
            dims: Vec::new(),
        });
        with_scalar!(elem, T => {
            let v = T::get_mut(&mut arr.data);
            v.clear();
            v.resize(n, T::default());
        });
        arr.dims = want;
        Ok(())
    }
}

/// The dynamic arrays of one slot, one per lane, in a shared pool.
#[derive(Debug)]
pub(crate) struct LocalArr {
    pub data: Lanes,
    pub base: Vec<usize>,
    cap: Vec<usize>,
    bytes: Vec<usize>,
    /// Per lane: `rank` extents (all 0 until the lane allocates).
    pub dims: Vec<[usize; MAX_DIMS]>,
    pub rank: usize,
}

/// All dynamic memory of a work item.
#[derive(Debug, Default)]
pub(crate) struct LocalPool {
    pub arrs: Vec<Option<LocalArr>>,
    live: usize,
}

impl LocalPool {
    /// Frees everything (start of a work item) for `width` lanes.
    pub(crate) fn reset(&mut self, width: usize) {
        self.live = 0;
        for a in self.arrs.iter_mut().flatten() {
            with_scalar!(a.data.scalar(), T => T::get_mut(&mut a.data).clear());
            for v in [&mut a.base, &mut a.cap, &mut a.bytes] {
                v.clear();
                v.resize(width, 0);
            }
            a.dims.clear();
            a.dims.resize(width, [0; MAX_DIMS]);
        }
    }

    /// `arr = zeros(dims)` (or `ones`, `uninit`) for every active lane.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn alloc(
        &mut self,
        slot: usize,
        elem: Scalar,
        rank: usize,
        dims: &[&Lanes],
        fill: Fill,
        mask: &[bool],
        line: u32,
    ) -> Result<(), KernelError> {
        let width = mask.len();
        if self.arrs.len() <= slot {
            self.arrs.resize_with(slot + 1, || None);
        }
        let a = self.arrs[slot].get_or_insert_with(|| LocalArr {
            data: Lanes::new(elem, 0),
            base: vec![0; width],
            cap: vec![0; width],
            bytes: vec![0; width],
            dims: vec![[0; MAX_DIMS]; width],
            rank,
        });
        let oom = |m: String| KernelError::new(line, KernelErrorKind::OutOfMemory, m);
        for l in (0..width).filter(|&l| mask[l]) {
            let what = match fill {
                Fill::Zero => 0,
                Fill::One => 1,
                Fill::Uninit => 2,
            };
            let d = padded_dims(dims.iter().map(|r| r.lane_i64(l)), rank, what, line)?;
            let n = numel(&d);
            let bytes = n.saturating_mul(elem.size());
            if bytes > ALLOC_LIMIT {
                return Err(oom(format!(
                    "dynamic kernel memory: an allocation of {bytes} bytes exceeds the {ALLOC_LIMIT}-byte limit"
                )));
            }
            let rounded = if bytes == 0 {
                0
            } else {
                bytes.next_power_of_two().max(1024)
            };
            self.live = self.live - a.bytes[l] + rounded;
            a.bytes[l] = rounded;
            if self.live > TOTAL_LIMIT {
                return Err(oom(format!(
                    "dynamic kernel memory: {} bytes in use exceed the {TOTAL_LIMIT}-byte limit per block",
                    self.live
                )));
            }
            with_scalar!(elem, T => {
                let v = T::get_mut(&mut a.data);
                if a.cap[l] < n {
                    a.base[l] = v.len();
                    a.cap[l] = n;
                    v.resize(v.len() + n, T::default());
                }
                let x = if fill == Fill::One { T::from_kvalue(&KValue::Int(1)) } else { T::default() };
                v[a.base[l]..a.base[l] + n].fill(x);
            });
            a.dims[l] = [0; MAX_DIMS];
            a.dims[l][..rank].copy_from_slice(&d[..rank]);
        }
        Ok(())
    }
}
