//! Spreading a launch's work items over threads, as OpenMP's static schedule does with
//! the balance of its dynamic one.
//!
//! The items are cut into chunks (about [`CHUNKS_PER_THREAD`] a thread), and each thread
//! owns a contiguous share of them, the same share in every launch of the same size:
//! data a thread wrote in one launch is still in its caches when the next launch reads
//! it there (a two-pass transform reads the rows its first pass wrote). A thread runs
//! its share from the front, chunk by chunk; once it is done it takes chunks from the
//! back of the share with the most left, so an unbalanced launch (Mandelbrot's rows)
//! ends within about one chunk of the ideal. Which thread runs an item never changes
//! the result: partials are kept per item and errors are ranked by position.
//!
//! The threads are a [`Team`] of `n - 1` workers and the launching thread itself. A
//! worker that has finished waits for the next launch spinning for [`SPIN`] (when the
//! team has a core for each thread), then sleeps: launches that follow each other
//! closely (a benchmark's repetitions, a transform's two passes) find the workers awake,
//! and one launch costs no thread wake-up and no join through the operating system. A
//! worker that is not running when a launch starts (a busy machine) is not waited for:
//! the others take its share.

use std::cell::UnsafeCell;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Chunks per thread: the last chunk of an unbalanced launch is at most about
/// 1/`CHUNKS_PER_THREAD` of a thread's share.
const CHUNKS_PER_THREAD: usize = 16;

/// How long an idle worker spins for the next launch before it sleeps.
const SPIN: Duration = Duration::from_micros(50);

/// One thread's share: the chunks `front..back` still to run, packed in one word so
/// that the owner (from the front) and helpers (from the back) take them atomically.
#[repr(align(128))]
struct Share(AtomicU64);

fn pack(front: usize, back: usize) -> u64 {
    (front as u64) | ((back as u64) << 32)
}

fn unpack(v: u64) -> (usize, usize) {
    ((v & 0xffff_ffff) as usize, (v >> 32) as usize)
}

/// The chunks of one launch and who runs them.
pub(crate) struct Schedule {
    items: usize,
    chunks: usize,
    shares: Vec<Share>,
}

impl Schedule {
    /// `items` work items over `threads` threads (at least one).
    pub(crate) fn new(items: usize, threads: usize) -> Schedule {
        let threads = threads.max(1);
        let chunks = items.min(threads * CHUNKS_PER_THREAD);
        let shares = (0..threads)
            .map(|t| {
                Share(AtomicU64::new(pack(
                    t * chunks / threads,
                    (t + 1) * chunks / threads,
                )))
            })
            .collect();
        Schedule {
            items,
            chunks,
            shares,
        }
    }

    /// The work items of chunk `c`.
    fn range(&self, c: usize) -> Range<usize> {
        let at = |c: usize| (c as u128 * self.items as u128 / self.chunks as u128) as usize;
        at(c)..at(c + 1)
    }

    /// Takes the front chunk of share `s` (its owner) or its back chunk (a helper).
    fn take(&self, s: usize, front: bool) -> Option<usize> {
        let a = &self.shares[s].0;
        let mut v = a.load(Ordering::Relaxed);
        loop {
            let (f, b) = unpack(v);
            if f >= b {
                return None;
            }
            let (next, c) = if front {
                (pack(f + 1, b), f)
            } else {
                (pack(f, b - 1), b - 1)
            };
            match a.compare_exchange_weak(v, next, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return Some(c),
                Err(now) => v = now,
            }
        }
    }

    /// What thread `t` runs: its own share, then chunks of the others'.
    pub(crate) fn work(&self, t: usize, f: &(dyn Fn(Range<usize>) + Sync)) {
        if t < self.shares.len() {
            while let Some(c) = self.take(t, true) {
                f(self.range(c));
            }
        }
        loop {
            let most = (0..self.shares.len())
                .map(|s| {
                    let (fr, b) = unpack(self.shares[s].0.load(Ordering::Relaxed));
                    (b.saturating_sub(fr), s)
                })
                .max();
            match most {
                Some((left, s)) if left > 0 => {
                    if let Some(c) = self.take(s, false) {
                        f(self.range(c));
                    }
                }
                _ => return,
            }
        }
    }
}

/// A job's entry: participant index → work. Valid only during [`Team::run`].
type Job = *const (dyn Fn(usize) + Sync + 'static);

/// `size - 1` worker threads that run each job together with the thread that asks.
///
/// A job is open from its start until the asking thread has run out of work; workers
/// join it as they wake, and the asker waits at the end only for those that joined
/// (they hold work), never for one that has not woken yet: a worker late for a job
/// sees it closed and goes back to waiting, so a busy machine never stalls a launch.
pub(crate) struct Team {
    /// The job's number times two, plus one once it is closed.
    state: AtomicU64,
    /// Workers inside the current job.
    active: AtomicUsize,
    job: UnsafeCell<Option<Job>>,
    sleeping: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    busy: Mutex<()>,
    panicked: AtomicBool,
    spin: bool,
}

// SAFETY: `job` is written only by the thread holding `busy`, while the job is closed and
// no worker is inside it (`active` is 0); a worker reads it only after joining (`active`
// raised) and seeing the job still open, and the asker waits for `active` to be 0 before
// it closes the borrow.
unsafe impl Sync for Team {}
unsafe impl Send for Team {}

impl Team {
    /// The team of `size` threads (the caller included), made once per size.
    pub(crate) fn get(size: usize) -> Option<Arc<Team>> {
        type Teams = Mutex<Vec<(usize, Arc<Team>)>>;
        static TEAMS: OnceLock<Teams> = OnceLock::new();
        let teams = TEAMS.get_or_init(|| Mutex::new(Vec::new()));
        let mut teams = teams.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, t)) = teams.iter().find(|(n, _)| *n == size) {
            return Some(t.clone());
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let team = Arc::new(Team {
            state: AtomicU64::new(1),
            active: AtomicUsize::new(0),
            job: UnsafeCell::new(None),
            sleeping: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            busy: Mutex::new(()),
            panicked: AtomicBool::new(false),
            spin: size <= cores,
        });
        for w in 1..size {
            let t = team.clone();
            std::thread::Builder::new()
                .name(format!("blazar-kernel-{w}"))
                .spawn(move || t.worker(w))
                .ok()?;
        }
        teams.push((size, team.clone()));
        Some(team)
    }

    fn worker(&self, w: usize) {
        let mut last = 0;
        loop {
            let s = self.wait_open(last);
            last = s >> 1;
            self.active.fetch_add(1, Ordering::SeqCst);
            if self.state.load(Ordering::SeqCst) == s {
                // SAFETY: the job is open and this worker has joined it, so `job` holds
                // it and stays valid until `active` is lowered again.
                if let Some(job) = unsafe { *self.job.get() } {
                    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe {
                        (*job)(w)
                    }));
                    if ran.is_err() {
                        self.panicked.store(true, Ordering::Relaxed);
                    }
                }
            }
            self.active.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Waits for an open job numbered after `last` and returns its state.
    fn wait_open(&self, mut last: u64) -> u64 {
        let ready = |s: u64, last: &mut u64| {
            if s >> 1 == *last {
                false
            } else if s & 1 == 1 {
                // Closed before this worker came: skipped.
                *last = s >> 1;
                false
            } else {
                true
            }
        };
        if self.spin {
            let start = Instant::now();
            let mut i = 0u32;
            loop {
                let s = self.state.load(Ordering::Acquire);
                if ready(s, &mut last) {
                    return s;
                }
                std::hint::spin_loop();
                i = i.wrapping_add(1);
                if i % 64 == 0 && start.elapsed() > SPIN {
                    break;
                }
            }
        }
        let mut g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.sleeping.fetch_add(1, Ordering::SeqCst);
        loop {
            let s = self.state.load(Ordering::SeqCst);
            if ready(s, &mut last) {
                self.sleeping.fetch_sub(1, Ordering::SeqCst);
                return s;
            }
            g = self.wake.wait(g).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Runs `f(i)` on the calling thread (`i` = 0) and on every worker `i` that wakes
    /// while it runs, and returns when all of them have finished; `false` when the
    /// team is busy with another caller's job (nothing ran). `f` must share its work
    /// out by itself: a worker may come too late to run at all.
    pub(crate) fn run(&self, f: &(dyn Fn(usize) + Sync)) -> bool {
        let Ok(_busy) = self.busy.try_lock() else {
            return false;
        };
        // SAFETY: the lifetime is erased only while `f` is borrowed here: `Done` below
        // closes the job and waits, even on unwinding, until no worker is inside it.
        let job: Job = unsafe { std::mem::transmute(f as *const (dyn Fn(usize) + Sync)) };
        unsafe { *self.job.get() = Some(job) };
        let open = ((self.state.load(Ordering::Relaxed) >> 1) + 1) << 1;
        self.state.store(open, Ordering::SeqCst);
        if self.sleeping.load(Ordering::SeqCst) > 0 {
            let _g = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_all();
        }
        struct Done<'a>(&'a Team, u64);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.state.store(self.1 | 1, Ordering::SeqCst);
                let mut i = 0u32;
                while self.0.active.load(Ordering::SeqCst) != 0 {
                    i = i.wrapping_add(1);
                    if self.0.spin && i < 1 << 16 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                // SAFETY: the job is closed and no worker is inside it.
                unsafe { *self.0.job.get() = None };
            }
        }
        let done = Done(self, open);
        f(0);
        drop(done);
        if self.panicked.swap(false, Ordering::Relaxed) {
            panic!("a kernel worker thread panicked");
        }
        true
    }
}

/// Runs `f` over the work items `0..items` in ranges on `threads` threads (0: as many
/// as rayon's current pool has); `false` when no team was free (nothing ran).
pub(crate) fn spread(threads: usize, items: usize, f: &(dyn Fn(Range<usize>) + Sync)) -> bool {
    let threads = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    if threads <= 1 || items <= 1 {
        f(0..items);
        return true;
    }
    let Some(team) = Team::get(threads) else {
        return false;
    };
    let sched = Schedule::new(items, threads);
    team.run(&|t| sched.work(t, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    /// Every item runs exactly once, whatever the number of items and threads.
    fn once(items: usize, threads: usize, run: impl Fn(&(dyn Fn(Range<usize>) + Sync))) {
        let hits: Vec<AtomicU32> = (0..items).map(|_| AtomicU32::new(0)).collect();
        run(&|r: Range<usize>| {
            assert!(r.start < r.end && r.end <= items, "{r:?} of {items}");
            for i in r {
                hits[i].fetch_add(1, Ordering::Relaxed);
            }
        });
        for (i, h) in hits.iter().enumerate() {
            assert_eq!(
                h.load(Ordering::Relaxed),
                1,
                "item {i} of {items} on {threads} threads"
            );
        }
    }

    #[test]
    fn a_schedule_runs_every_item_once() {
        for items in [0, 1, 2, 7, 16, 17, 100, 1000, 4097] {
            for threads in [1, 2, 3, 5, 16] {
                once(items, threads, |f| {
                    let s = Schedule::new(items, threads);
                    std::thread::scope(|sc| {
                        for t in 0..threads {
                            let s = &s;
                            sc.spawn(move || s.work(t, f));
                        }
                    });
                });
                // One thread alone runs the others' shares too.
                once(items, threads, |f| Schedule::new(items, threads).work(0, f));
            }
        }
    }

    #[test]
    fn helpers_take_from_the_back_of_the_fullest_share() {
        let s = Schedule::new(64, 4);
        // Share 1 is the fullest once the owners of shares 0 and 2 have taken chunks.
        assert_eq!(s.take(0, true), Some(0));
        assert_eq!(s.take(0, true), Some(1));
        assert_eq!(s.take(2, true), Some(32));
        let seen = Mutex::new(Vec::new());
        s.work(3, &|r| seen.lock().unwrap().push(r.start));
        let seen = seen.into_inner().unwrap();
        // Thread 3 runs its own share (chunks 48..64) first, front to back.
        assert_eq!(&seen[..16], &(48..64).collect::<Vec<_>>()[..]);
        // Then the back of share 1 (chunks 16..32), the fullest.
        assert_eq!(seen[16], 31);
        assert_eq!(seen.len(), 61);
    }

    #[test]
    fn a_team_runs_each_participant_at_most_once_per_job_awake_or_asleep() {
        let team = Team::get(3).unwrap();
        for round in 0..200 {
            let hits: Vec<AtomicU32> = (0..3).map(|_| AtomicU32::new(0)).collect();
            assert!(team.run(&|i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            }));
            // The caller always runs; a worker runs at most once (not at all if late).
            assert_eq!(hits[0].load(Ordering::Relaxed), 1);
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) <= 1));
            if round % 50 == 0 {
                // Past the spin: the workers sleep and the next job wakes them.
                std::thread::sleep(SPIN * 4);
            }
        }
    }

    #[test]
    fn spread_covers_the_items_on_a_team() {
        for items in [2, 9, 513, 10_000] {
            once(items, 3, |f| assert!(spread(3, items, f)));
        }
    }

    #[test]
    fn teams_serve_callers_from_several_threads() {
        std::thread::scope(|sc| {
            for _ in 0..4 {
                sc.spawn(|| {
                    for _ in 0..50 {
                        let n = AtomicU32::new(0);
                        let f = |r: Range<usize>| {
                            n.fetch_add(r.len() as u32, Ordering::Relaxed);
                        };
                        // A busy team answers `false` and runs nothing.
                        if spread(2, 100, &f) {
                            assert_eq!(n.load(Ordering::Relaxed), 100);
                        } else {
                            assert_eq!(n.load(Ordering::Relaxed), 0);
                        }
                    }
                });
            }
        });
    }
}
