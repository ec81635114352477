//! The random schedule's context switches: work items run as coroutines that hand the
//! processor to one another, at random, at shared- and global-memory accesses.
//!
//! Under `--schedule random --seed N` without an observer, a launch runs its work items
//! (each thread alone in kernels without blocks; each block in kernels with blocks,
//! its threads parting at memory accesses by the item's own seeded generator, see
//! `exec/split.rs`) on up to [`WINDOW`] OS threads of which exactly one runs at
//! a time: the holder of the [`Baton`]. After each memory instruction the holder draws
//! from the seeded generator whether to switch and to which unfinished coroutine, so a
//! read-modify-write of one thread can be split by another thread's access, as on a
//! GPU. Work items start in the seeded permutation's order as coroutines finish. Every
//! decision is taken by the one running thread, so the same seed gives the same
//! interleaving and the same result. A failing work item does not stop the others: the
//! launch reports its lowest failing thread, as every tier does. The default schedule
//! never comes here.

use crate::exec::{identity, Ctx, Scratch};
use crate::program::Reg;
use crate::specials::{fill_specials, Space};
use crate::values::KValue;
use crate::KernelError;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Coroutines alive at once.
pub(crate) const WINDOW: usize = 8;

struct Turn {
    /// The coroutine allowed to run.
    current: usize,
    /// Coroutines that have not finished.
    live: Vec<bool>,
    rng: u64,
}

/// Which coroutine runs; the others wait on the condition variable.
pub(crate) struct Baton {
    turn: Mutex<Turn>,
    cv: Condvar,
}

impl Baton {
    fn new(n: usize, seed: u64) -> Baton {
        Baton {
            turn: Mutex::new(Turn {
                current: 0,
                live: vec![true; n],
                rng: seed ^ 0x5851_f42d_4c95_7f2d,
            }),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Turn> {
        self.turn.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'g>(&self, mut g: MutexGuard<'g, Turn>, me: usize) -> MutexGuard<'g, Turn> {
        while g.current != me {
            g = self.cv.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        g
    }

    /// Blocks until coroutine `me` may run.
    fn wait_turn(&self, me: usize) {
        drop(self.wait(self.lock(), me));
    }

    /// A memory access of coroutine `me`: with probability 1/2, hands the processor
    /// to a random unfinished coroutine (perhaps itself) and waits for its turn.
    pub(crate) fn switch(&self, me: usize) {
        let mut g = self.lock();
        if next(&mut g.rng) & 1 == 0 {
            return;
        }
        let to = pick(&mut g);
        if let Some(to) = to.filter(|&t| t != me) {
            g.current = to;
            self.cv.notify_all();
            drop(self.wait(g, me));
        }
    }

    /// Coroutine `me` has finished: a random unfinished one runs next.
    fn finish(&self, me: usize) {
        let mut g = self.lock();
        g.live[me] = false;
        if let Some(to) = pick(&mut g) {
            g.current = to;
        }
        self.cv.notify_all();
    }
}

/// splitmix64.
pub(crate) fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random unfinished coroutine.
fn pick(t: &mut Turn) -> Option<usize> {
    let live: Vec<usize> = (0..t.live.len()).filter(|&i| t.live[i]).collect();
    if live.is_empty() {
        return None;
    }
    Some(live[(next(&mut t.rng) % live.len() as u64) as usize])
}

/// Output partials of the work items in `order`'s order, or the first error raised.
pub(crate) fn run(
    ctx: &Ctx,
    space: &Space,
    params: &[(Reg, KValue, bool)],
    order: &[usize],
    baton_seed: u64,
    observed: bool,
) -> Result<Vec<Vec<crate::values::Lanes>>, KernelError> {
    let n = WINDOW.min(order.len()).max(1);
    let baton = Baton::new(n, baton_seed);
    let ctx = Ctx {
        sched: Some(&baton),
        ..ctx.clone()
    };
    let queue: Mutex<VecDeque<(usize, usize)>> =
        Mutex::new(order.iter().copied().enumerate().collect());
    type Done = Vec<(usize, Vec<crate::values::Lanes>)>;
    let done: Mutex<Done> = Mutex::new(Vec::new());
    // The failure reported is that of the failing thread with the lowest linear
    // position, as on every tier: a failing work item does not stop the others, but
    // an item that starts past the lowest failing position so far is skipped.
    let error: Mutex<Option<(usize, KernelError)>> = Mutex::new(None);
    let stop = AtomicUsize::new(usize::MAX);
    std::thread::scope(|s| {
        for me in 0..n {
            let (ctx, queue, done, error, baton, stop) =
                (&ctx, &queue, &done, &error, &baton, &stop);
            s.spawn(move || {
                baton.wait_turn(me);
                let mut scratch = Scratch::new(ctx.prog, space.width, params);
                scratch.slot = me;
                loop {
                    let Some((k, item)) =
                        queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
                    else {
                        break;
                    };
                    if space.linear_pos(item, 0) > stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    fill_specials(ctx.prog, space, &mut scratch, item);
                    scratch.item = item;
                    scratch.paused.fill(0);
                    // The work item's own splits of its block's threads (`exec/split.rs`).
                    let mut r = baton_seed ^ (item as u64).wrapping_mul(0xd134_2543_de82_ef95);
                    scratch.split_rng = next(&mut r);
                    let obs = ctx.obs.filter(|_| observed);
                    if let Some(o) = obs {
                        o.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .item(item, scratch.n);
                    }
                    let res = scratch.run(ctx);
                    if let Some(o) = obs {
                        o.lock().unwrap_or_else(|e| e.into_inner()).done(item);
                    }
                    if let Err(e) = res {
                        let at = space.linear_pos(item, scratch.failed_lane().unwrap_or(0));
                        stop.fetch_min(at, Ordering::Relaxed);
                        let mut err = error.lock().unwrap_or_else(|e| e.into_inner());
                        if err.as_ref().is_none_or(|(p, _)| at < *p) {
                            *err = Some((at, e));
                        }
                    } else if !ctx.prog.outputs.is_empty() {
                        let p = std::mem::take(&mut scratch.partials);
                        scratch.partials = (ctx.prog.outputs.iter())
                            .map(|o| identity(o.op, o.ty))
                            .collect();
                        done.lock().unwrap_or_else(|e| e.into_inner()).push((k, p));
                    }
                }
                baton.finish(me);
            });
        }
    });
    if let Some((_, e)) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(k, _)| *k);
    Ok(done.into_iter().map(|(_, p)| p).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_are_seeded_and_among_the_unfinished() {
        let mut a = Turn {
            current: 0,
            live: vec![true, false, true, true],
            rng: 7,
        };
        let mut b = Turn {
            rng: 7,
            live: a.live.clone(),
            ..a
        };
        let pa: Vec<_> = (0..20).map(|_| pick(&mut a)).collect();
        let pb: Vec<_> = (0..20).map(|_| pick(&mut b)).collect();
        assert_eq!(pa, pb);
        assert!(pa.iter().all(|p| matches!(p, Some(0 | 2 | 3))));
        a.live.fill(false);
        assert_eq!(pick(&mut a), None);
    }
}
