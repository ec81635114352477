//! The race detector: an [`Observer`] that finds conflicting accesses of different threads.
//!
//! Two accesses to one element conflict when they come from different threads, at
//! least one writes, they are not both atomic, and no barrier orders them: they are in
//! different blocks (no barrier orders blocks; this includes kernels without barriers,
//! whose work items are chunks of threads), or in one block within the same barrier
//! interval (0 before the first `syncthreads`, 1 after it, ...). Each element keeps a
//! shadow: the last write and up to two reads since it (of different threads), so a
//! conflict is found when its second access happens. Every work item under way keeps
//! its own barrier interval and shared-memory shadows (the random schedule runs
//! several at once, their accesses interleaved; each access names its work item);
//! shared-memory shadows are per block and forgotten at each barrier; global-memory shadows live for one launch
//! (launches are ordered); arrays a kernel never writes cannot race and are not
//! tracked. Findings are deduplicated per kernel, array and pair of
//! source lines, with a count and the first example. [`RaceBackend`] is the launch
//! contract's backend that runs every kernel under the detector (serially, on the
//! calling thread, or under the random schedule's coroutines), for
//! `blazar run --check-races`.

use crate::observe::{Access, AccessKind, LaunchInfo, MemSpace, Observer, Shape, Thread};
use blazar_kir::Kernel;
use blazar_launch::{with_host_arrays, ArgVal, Backend, KValue, KernelError, LaunchPlan};
use blazar_runtime::ArrayRef;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// One side of a race: where and by whom an element was accessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    pub line: u32,
    pub kind: AccessKind,
    pub thread: Thread,
}

/// A data race, with its first example and how many conflicting pairs were seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub kernel: String,
    pub array: String,
    pub space: MemSpace,
    /// The earlier access and the later one.
    pub first: Side,
    pub second: Side,
    /// The element (one index per dimension of the array).
    pub element: Vec<usize>,
    pub count: usize,
}

/// An access as a shadow remembers it (`kind` 0: no access).
#[derive(Clone, Copy, Debug, Default)]
struct Acc {
    item: u32,
    line: u32,
    interval: u32,
    lane: u16,
    kind: u8,
}

const READ: u8 = 1;
const ATOMIC: u8 = 3;

fn kind_code(k: AccessKind) -> u8 {
    match k {
        AccessKind::Read => READ,
        AccessKind::Write => 2,
        AccessKind::Atomic => ATOMIC,
    }
}

fn kind_of(code: u8) -> AccessKind {
    match code {
        READ => AccessKind::Read,
        ATOMIC => AccessKind::Atomic,
        _ => AccessKind::Write,
    }
}

impl Acc {
    fn some(&self) -> bool {
        self.kind != 0
    }

    /// Whether `self` (earlier) and `b` (later) are a race.
    fn conflicts(&self, b: &Acc) -> bool {
        let other_thread = self.item != b.item || self.lane != b.lane;
        let writes = self.kind != READ || b.kind != READ;
        let atomic = self.kind == ATOMIC && b.kind == ATOMIC;
        let unordered = self.item != b.item || self.interval == b.interval;
        self.some() && other_thread && writes && !atomic && unordered
    }

    fn same_thread(&self, b: &Acc) -> bool {
        self.item == b.item && self.lane == b.lane
    }
}

/// What one element remembers; stale (empty) unless `epoch` is the current one.
#[derive(Clone, Copy, Debug, Default)]
struct Shadow {
    epoch: u32,
    write: Acc,
    reads: [Acc; 2],
}

/// A multiply-rotate hasher for the detector's integer keys.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// Arrays up to this many elements keep their shadows in a vector, larger ones in a map.
const DENSE_MAX: usize = 1 << 24;

/// The shadows of one array.
enum Shadows {
    Dense(Vec<Shadow>),
    Sparse(Map<usize, Shadow>),
}

impl Shadows {
    fn new(numel: usize) -> Shadows {
        if numel <= DENSE_MAX {
            Shadows::Dense(vec![Shadow::default(); numel])
        } else {
            Shadows::Sparse(Map::default())
        }
    }

    fn get(&mut self, elem: usize) -> Option<&mut Shadow> {
        match self {
            Shadows::Dense(v) => v.get_mut(elem),
            Shadows::Sparse(m) => Some(m.entry(elem).or_default()),
        }
    }
}

/// The detector's state for the launch under way.
#[derive(Default)]
struct Launch {
    kernel: String,
    names: Vec<String>,
    slot_arg: Vec<Option<usize>>,
    shape: Option<Shape>,
    /// Per array argument the kernel writes: its shadows (read-only ones cannot race).
    global: Vec<Option<Shadows>>,
}

/// A work item under way: its barrier interval and its block's shared shadows.
struct Block {
    item: usize,
    live: bool,
    /// Barrier interval (0 before the first `syncthreads`).
    interval: u32,
    /// The epoch of this block's current interval: shared shadows of another epoch
    /// are stale.
    epoch: u32,
    /// Shadows of the shared arrays, per slot (kept for reuse by later blocks).
    shared: Vec<Shadows>,
}

/// Finds data races in the launches it observes (see the module documentation).
#[derive(Default)]
pub struct RaceDetector {
    launch: Launch,
    /// The work items under way (one at a time unless the random schedule runs
    /// several), and finished ones whose shadows later items reuse.
    blocks: Vec<Block>,
    /// The block of the last access.
    cur: usize,
    /// The last epoch handed out: every block interval gets a fresh one (global
    /// shadows are made anew for each launch and use epoch 0).
    epoch: u32,
    found: Vec<Race>,
    index: HashMap<(String, String, u32, u32), usize>,
}

impl RaceDetector {
    pub fn new() -> RaceDetector {
        RaceDetector::default()
    }

    /// The races found so far, in the order they were first seen.
    pub fn races(&self) -> &[Race] {
        &self.found
    }

    /// Takes the races found so far.
    pub fn take_races(&mut self) -> Vec<Race> {
        self.index.clear();
        std::mem::take(&mut self.found)
    }

    fn fresh_epoch(&mut self) -> u32 {
        self.epoch = self.epoch.wrapping_add(1).max(1);
        self.epoch
    }

    /// The block of work item `item` (started now if its `item` hook was not seen).
    fn block(&mut self, item: usize) -> usize {
        if let Some(b) = self.blocks.get(self.cur) {
            if b.live && b.item == item {
                return self.cur;
            }
        }
        self.cur = match (self.blocks.iter()).position(|b| b.live && b.item == item) {
            Some(i) => i,
            None => self.start(item),
        };
        self.cur
    }

    /// Starts the block of work item `item` in a finished block's place.
    fn start(&mut self, item: usize) -> usize {
        let epoch = self.fresh_epoch();
        let i = match self.blocks.iter().position(|b| !b.live) {
            Some(i) => i,
            None => {
                self.blocks.push(Block {
                    item,
                    live: true,
                    interval: 0,
                    epoch,
                    shared: Vec::new(),
                });
                return self.blocks.len() - 1;
            }
        };
        let b = &mut self.blocks[i];
        (b.item, b.live, b.interval, b.epoch) = (item, true, 0, epoch);
        i
    }

    fn report(&mut self, a: &Access, earlier: &Acc, later: &Acc, elem: usize) {
        let array = self
            .launch
            .names
            .get(a.slot as usize)
            .cloned()
            .unwrap_or_default();
        let key = (self.launch.kernel.clone(), array, earlier.line, later.line);
        if let Some(&i) = self.index.get(&key) {
            self.found[i].count += 1;
            return;
        }
        let Some(shape) = &self.launch.shape else {
            return;
        };
        let side = |x: &Acc| Side {
            line: x.line,
            kind: kind_of(x.kind),
            thread: shape.thread(x.item as usize, x.lane as usize),
        };
        let race = Race {
            kernel: key.0.clone(),
            array: key.1.clone(),
            space: a.space,
            first: side(earlier),
            second: side(later),
            element: subscript(elem, a.dims),
            count: 1,
        };
        self.index.insert(key, self.found.len());
        self.found.push(race);
    }
}

/// Row-major subscript of linear offset `o` in an array of `dims`.
fn subscript(mut o: usize, dims: &[usize]) -> Vec<usize> {
    let mut out = vec![0; dims.len().max(1)];
    for (k, &d) in dims.iter().enumerate().rev() {
        out[k] = o % d.max(1);
        o /= d.max(1);
    }
    if dims.is_empty() {
        out[0] = o;
    }
    out
}

impl Observer for RaceDetector {
    fn launch(&mut self, info: &LaunchInfo) {
        let global = (info.arg_dims.iter().zip(&info.arg_written))
            .map(|(d, &w)| w.then(|| Shadows::new(d.iter().product())))
            .collect();
        self.launch = Launch {
            kernel: info.kernel.name.clone(),
            names: info.kernel.arrays.iter().map(|a| a.name.clone()).collect(),
            slot_arg: info.slot_arg.to_vec(),
            shape: Some(info.shape.clone()),
            global,
        };
        for b in &mut self.blocks {
            b.live = false;
        }
    }

    fn item(&mut self, item: usize, _lanes: usize) {
        if let Some(i) = (self.blocks.iter()).position(|b| b.live && b.item == item) {
            self.blocks[i].live = false;
        }
        self.cur = self.start(item);
    }

    fn done(&mut self, item: usize) {
        if let Some(b) = (self.blocks.iter_mut()).find(|b| b.live && b.item == item) {
            b.live = false;
        }
    }

    fn barrier(&mut self, item: usize, _line: u32) {
        let i = self.block(item);
        let epoch = self.fresh_epoch();
        let b = &mut self.blocks[i];
        b.interval += 1;
        b.epoch = epoch;
    }

    fn access(&mut self, a: &Access) {
        let kind = kind_code(a.kind);
        let mut found: Vec<(Acc, Acc, usize)> = Vec::new();
        let bi = self.block(a.item);
        let b = &mut self.blocks[bi];
        let (epoch, interval) = (b.epoch, b.interval);
        let shadows = match a.space {
            MemSpace::Global => {
                let arg = self.launch.slot_arg.get(a.slot as usize).copied().flatten();
                match arg.and_then(|g| self.launch.global.get_mut(g)) {
                    Some(Some(s)) => s,
                    _ => return,
                }
            }
            MemSpace::Shared => {
                let slot = a.slot as usize;
                if b.shared.len() <= slot {
                    b.shared
                        .resize_with(slot + 1, || Shadows::Dense(Vec::new()));
                }
                let numel: usize = a.dims.iter().product();
                if matches!(&b.shared[slot], Shadows::Dense(v) if v.len() < numel) {
                    b.shared[slot] = Shadows::new(numel);
                }
                &mut b.shared[slot]
            }
        };
        // Global shadows are fresh each launch: their epoch is 0.
        let epoch = if a.space == MemSpace::Global {
            0
        } else {
            epoch
        };
        for &(lane, elem) in a.lanes {
            let now = Acc {
                item: a.item as u32,
                line: a.line,
                interval,
                lane: lane as u16,
                kind,
            };
            let Some(sh) = shadows.get(elem) else {
                continue;
            };
            if sh.epoch != epoch {
                *sh = Shadow {
                    epoch,
                    ..Shadow::default()
                };
            }
            if sh.write.conflicts(&now) {
                found.push((sh.write, now, elem));
            }
            if kind == READ {
                record_read(sh, now);
            } else {
                for r in &sh.reads {
                    if r.conflicts(&now) {
                        found.push((*r, now, elem));
                    }
                }
                sh.write = now;
                sh.reads = [Acc::default(); 2];
            }
        }
        for (earlier, later, elem) in found {
            self.report(a, &earlier, &later, elem);
        }
    }
}

/// Remembers a read: in place of an earlier read of the same thread, else in a free
/// slot, else in place of the older slot.
fn record_read(sh: &mut Shadow, now: Acc) {
    let slot = (sh.reads.iter())
        .position(|r| r.some() && r.same_thread(&now))
        .or_else(|| sh.reads.iter().position(|r| !r.some()));
    match slot {
        Some(i) => sh.reads[i] = now,
        None => {
            sh.reads[0] = sh.reads[1];
            sh.reads[1] = now;
        }
    }
}

/// Runs kernels on the CPU's interpreter, one work item at a time: under the race
/// detector when `check` (`--check-races`), under the random schedule of `seed` when
/// set (`--schedule random`, with or without the detector; each launch draws its
/// order and switches from the seed and the launch's number, so a run is
/// reproducible).
#[derive(Default)]
pub struct RaceBackend {
    pub detector: Rc<RefCell<RaceDetector>>,
    pub check: bool,
    pub seed: Option<u64>,
    launches: u64,
}

impl RaceBackend {
    /// A backend that checks races, and the detector it fills.
    pub fn new() -> (RaceBackend, Rc<RefCell<RaceDetector>>) {
        RaceBackend::with(true, None)
    }

    /// A backend that checks races or not, under a random schedule or not.
    pub fn with(check: bool, seed: Option<u64>) -> (RaceBackend, Rc<RefCell<RaceDetector>>) {
        let b = RaceBackend {
            check,
            seed,
            ..RaceBackend::default()
        };
        let d = b.detector.clone();
        (b, d)
    }
}

/// The seed of launch number `n` of a run with seed `seed`.
pub fn launch_seed(seed: u64, n: u64) -> u64 {
    seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Backend for RaceBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        let mut det = self.detector.borrow_mut();
        let seed = self.seed.map(|s| launch_seed(s, self.launches));
        self.launches += 1;
        let check = self.check;
        with_host_arrays(arrays, |arrays| {
            let obs: Option<&mut dyn crate::Observer> = if check { Some(&mut *det) } else { None };
            match seed {
                Some(s) => crate::launch_scheduled(k, plan, args, arrays, obs, s),
                None => match obs {
                    Some(o) => crate::launch_observed(k, plan, args, arrays, o),
                    None => crate::launch(k, plan, args, arrays, &Default::default()),
                },
            }
            .map(Some)
        })
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        Ok(())
    }
}
