//! The observation contract of the SIMT interpreter: hooks at statements, memory accesses and barriers.
//!
//! An [`Observer`] given to [`launch_observed`] (or [`launch_scheduled`], under the
//! random schedule's interleaving) sees every work item start and end, every
//! statement a work item runs (with its execution mask), every shared- and
//! global-memory access (per lane: the element's linear offset in the array's
//! buffer) and every barrier. Observed launches run their work items one after the
//! other on the calling thread, in work-item order; under the random schedule up to 8
//! work items are under way on coroutine threads, one running at a time, so hooks of
//! several work items interleave (each access and hook names its work item). Either
//! way the observer is called by one thread at a time, needs no locking of its own and
//! sees the same sequence on every run (of one seed). Without an observer the
//! executor pays one predictable branch per statement and memory instruction.
//!
//! Thread identity: a work item is one block for kernels with barriers or shared
//! memory (`Shape::blocky`), else a chunk of [`crate::launch::CHUNK`] consecutive
//! threads; lane `l` of item `i` is one thread. [`Shape::thread`] turns the pair into
//! the thread's `pos`, `blkpos` and `blkidx`.

pub use crate::view::{ArrayData, ItemView};
use crate::{ArgVal, ArrayArg, KernelError, LaunchPlan};
use blazar_kir::Kernel;

/// The memory an access touches (per-thread dynamic memory is private: not observed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemSpace {
    Global,
    Shared,
}

/// What an access does to its element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AccessKind {
    Read,
    Write,
    /// A read-modify-write by an atomic operation (`+=` and friends on an array).
    Atomic,
}

/// One memory instruction of one work item: the lanes that took part, each with the
/// linear offset of its element.
#[derive(Debug)]
pub struct Access<'a> {
    /// The kernel's array slot (`Kernel::arrays` index).
    pub slot: u32,
    pub space: MemSpace,
    pub kind: AccessKind,
    /// Source line of the statement.
    pub line: u32,
    pub item: usize,
    /// The array's dimensions (for printing elements).
    pub dims: &'a [usize],
    /// `(lane, linear element)` of each active lane whose element is inside the array.
    pub lanes: &'a [(u32, usize)],
}

/// The index space of an observed launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Rank of the launch and of the kernel's `pos`.
    pub rank: usize,
    pub kernel_rank: usize,
    pub data: [usize; 4],
    pub block: [usize; 4],
    /// One block per work item (else chunks of consecutive threads).
    pub blocky: bool,
    /// Lanes per work item.
    pub width: usize,
    pub items: usize,
    /// Threads per work item when the items are chunks of threads (not blocks).
    pub chunk: usize,
}

/// Where one thread sits, as the kernel sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    pub pos: Vec<i64>,
    pub blkpos: Vec<i64>,
    pub blkidx: Vec<i64>,
}

impl Shape {
    /// The position of lane `lane` of work item `item`.
    pub fn thread(&self, item: usize, lane: usize) -> Thread {
        let r = self.rank;
        let mut pos = [0usize; 4];
        if self.blocky {
            let (mut bi, mut bl) = (item, lane);
            for p in (0..r).rev() {
                let cnt = self.data[p] / self.block[p].max(1);
                pos[p] = (bi % cnt.max(1)) * self.block[p] + bl % self.block[p].max(1);
                bi /= cnt.max(1);
                bl /= self.block[p].max(1);
            }
        } else {
            let mut t = item * self.chunk + lane;
            for p in (0..r).rev() {
                pos[p] = t % self.data[p].max(1);
                t /= self.data[p].max(1);
            }
        }
        let comp = |f: &dyn Fn(usize) -> usize| -> Vec<i64> {
            (0..self.kernel_rank)
                .map(|c| match (c + r).checked_sub(self.kernel_rank) {
                    Some(p) => f(p) as i64,
                    None => 0,
                })
                .collect()
        };
        Thread {
            pos: comp(&|p| pos[p]),
            blkpos: comp(&|p| pos[p] % self.block[p].max(1)),
            blkidx: comp(&|p| pos[p] / self.block[p].max(1)),
        }
    }
}

/// What a launch tells its observer before the first work item.
#[derive(Debug)]
pub struct LaunchInfo<'a> {
    pub kernel: &'a Kernel,
    pub shape: Shape,
    /// Per array slot: the launch's array argument it is bound to (global arrays).
    pub slot_arg: &'a [Option<usize>],
    /// Per launch array argument: its dimensions.
    pub arg_dims: Vec<Vec<usize>>,
    /// Per launch array argument: whether the kernel may write it.
    pub arg_written: Vec<bool>,
}

/// Hooks into the SIMT interpreter. Every method but [`Observer::access`] has an
/// empty default.
pub trait Observer: Send {
    /// A launch starts.
    fn launch(&mut self, _info: &LaunchInfo) {}
    /// Work item `item` (a block, or a chunk of threads) starts with `lanes` lanes.
    fn item(&mut self, _item: usize, _lanes: usize) {}
    /// A work item starts a statement (its line, depth and mask are in the view).
    fn stmt(&mut self, _view: &ItemView) {}
    /// A memory instruction of work item `item`.
    fn access(&mut self, a: &Access);
    /// The threads of work item `item` pass the `syncthreads` at `line`.
    fn barrier(&mut self, _item: usize, _line: u32) {}
    /// Work item `item` has finished (under the random schedule several work items
    /// are under way at once: hooks of others come between its `item` and `done`).
    fn done(&mut self, _item: usize) {}
    /// The launch has finished (also after an error).
    fn end(&mut self) {}
}

/// Runs kernel `k` as [`crate::launch`] does, serially, telling `obs` what it does.
pub fn launch_observed(
    k: &Kernel,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    obs: &mut dyn Observer,
) -> Result<Vec<blazar_launch::KValue>, KernelError> {
    crate::launch::launch_with(k, plan, args, arrays, &Default::default(), Some(obs), None)
}

/// The random schedule (`--schedule random --seed N`): runs kernel `k` with its
/// blocks in a random order drawn from `seed`, and, in a kernel without blocks (no
/// barriers, no shared memory), each thread as its own work item in a random order.
/// The work items run as coroutines that switch, at random, at every shared- or
/// global-memory access (`interleave.rs`), the threads of one block part there into
/// groups that run ahead of one another up to the next barrier (`exec/split.rs`), and
/// the accesses of one statement may interleave between groups of a block's threads
/// (`exec/steps.rs`). An observer (the debugger, the race detector) sees the hooks of
/// several work items interleaved, each work item's between its `item` and `done`
/// hooks, on the coroutines' threads (one at a time). The same seed gives the same
/// run.
pub fn launch_scheduled(
    k: &Kernel,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    obs: Option<&mut dyn Observer>,
    seed: u64,
) -> Result<Vec<blazar_launch::KValue>, KernelError> {
    crate::launch::launch_with(k, plan, args, arrays, &Default::default(), obs, Some(seed))
}

/// A seeded permutation of `0..n` (splitmix64 and Fisher-Yates: the same on every
/// machine).
pub(crate) fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_seeded_and_complete() {
        let a = permutation(100, 7);
        assert_eq!(a, permutation(100, 7));
        assert_ne!(a, permutation(100, 8));
        let mut s = a.clone();
        s.sort();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert!(permutation(0, 1).is_empty());
    }

    #[test]
    fn threads_of_blocks_and_chunks() {
        let shape = Shape {
            rank: 2,
            kernel_rank: 2,
            data: [4, 6, 1, 1],
            block: [2, 3, 1, 1],
            blocky: true,
            width: 6,
            items: 4,
            chunk: 512,
        };
        // Block 3 is blkidx [1,1]; lane 4 is blkpos [1,1].
        let t = shape.thread(3, 4);
        assert_eq!(
            (t.pos, t.blkpos, t.blkidx),
            (vec![3, 4], vec![1, 1], vec![1, 1])
        );
        let chunks = Shape {
            blocky: false,
            chunk: 1,
            ..shape
        };
        assert_eq!(chunks.thread(7, 0).pos, vec![1, 1]);
    }
}
