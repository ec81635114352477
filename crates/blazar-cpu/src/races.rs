//! The race detector: an [`Observer`] that finds conflicting accesses of different threads.
//!
//! Two accesses to one element conflict when they come from different threads, at
//! least one writes, they are not both atomic, and no barrier orders them: they are in
//! different blocks (no barrier orders blocks; this includes kernels without barriers,
//! whose work items are chunks of threads), or in one block within the same barrier
//! interval (0 before the first `syncthreads`, 1 after it, ...). Each element keeps a
//! shadow: the last write and up to two reads since it (of different threads), so a
//! conflict is found when its second access happens. Shared-memory shadows are per
//! block and forgotten at each barrier; global-memory shadows live for one launch
//! (launches are ordered). Findings are deduplicated per kernel, array and pair of
//! source lines, with a count and the first example.

use crate::observe::{Access, AccessKind, LaunchInfo, MemSpace, Observer, Shape, Thread};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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

/// An access as a shadow remembers it.
#[derive(Clone, Copy, Debug)]
struct Acc {
    item: u32,
    lane: u32,
    interval: u32,
    line: u32,
    kind: AccessKind,
}

impl Acc {
    /// Whether `self` (earlier) and `b` (later) are a race.
    fn conflicts(&self, b: &Acc) -> bool {
        let other_thread = self.item != b.item || self.lane != b.lane;
        let writes = self.kind != AccessKind::Read || b.kind != AccessKind::Read;
        let atomic = self.kind == AccessKind::Atomic && b.kind == AccessKind::Atomic;
        let unordered = self.item != b.item || self.interval == b.interval;
        other_thread && writes && !atomic && unordered
    }

    fn same_thread(&self, b: &Acc) -> bool {
        self.item == b.item && self.lane == b.lane
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Shadow {
    write: Option<Acc>,
    reads: [Option<Acc>; 2],
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
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
}

type Map<K, V> = HashMap<K, V, BuildHasherDefault<KeyHasher>>;

/// The detector's state for the launch under way.
#[derive(Default)]
struct Launch {
    kernel: String,
    names: Vec<String>,
    slot_arg: Vec<Option<usize>>,
    shape: Option<Shape>,
}

/// Finds data races in the launches it observes (see the module documentation).
#[derive(Default)]
pub struct RaceDetector {
    launch: Launch,
    /// Barrier interval of the current work item.
    interval: u32,
    shared: Map<(u32, usize), Shadow>,
    global: Map<(usize, usize), Shadow>,
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
            kind: x.kind,
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
        self.launch = Launch {
            kernel: info.kernel.name.clone(),
            names: info.kernel.arrays.iter().map(|a| a.name.clone()).collect(),
            slot_arg: info.slot_arg.to_vec(),
            shape: Some(info.shape.clone()),
        };
        self.global.clear();
        self.shared.clear();
    }

    fn item(&mut self, _item: usize, _lanes: usize) {
        self.interval = 0;
        self.shared.clear();
    }

    fn barrier(&mut self, _item: usize, _line: u32) {
        self.interval += 1;
        self.shared.clear();
    }

    fn access(&mut self, a: &Access) {
        let arg = match a.space {
            MemSpace::Global => self.launch.slot_arg.get(a.slot as usize).copied().flatten(),
            MemSpace::Shared => None,
        };
        for &(lane, elem) in a.lanes {
            let now = Acc {
                item: a.item as u32,
                lane,
                interval: self.interval,
                line: a.line,
                kind: a.kind,
            };
            let sh = match (a.space, arg) {
                (MemSpace::Shared, _) => *self.shared.entry((a.slot, elem)).or_default(),
                (MemSpace::Global, Some(g)) => *self.global.entry((g, elem)).or_default(),
                (MemSpace::Global, None) => continue,
            };
            let mut new = sh;
            if let Some(w) = sh.write.filter(|w| w.conflicts(&now)) {
                self.report(a, &w, &now, elem);
            }
            if now.kind == AccessKind::Read {
                record_read(&mut new, now);
            } else {
                for r in sh.reads.iter().flatten() {
                    if r.conflicts(&now) {
                        self.report(a, r, &now, elem);
                    }
                }
                new = Shadow {
                    write: Some(now),
                    reads: [None; 2],
                };
            }
            match (a.space, arg) {
                (MemSpace::Shared, _) => self.shared.insert((a.slot, elem), new),
                (_, Some(g)) => self.global.insert((g, elem), new),
                _ => None,
            };
        }
    }
}

/// Remembers a read: in place of an earlier read of the same thread, else in a free
/// slot, else in place of the older slot.
fn record_read(sh: &mut Shadow, now: Acc) {
    let slot = sh
        .reads
        .iter()
        .position(|r| r.is_some_and(|r| r.same_thread(&now)))
        .or_else(|| sh.reads.iter().position(Option::is_none));
    match slot {
        Some(i) => sh.reads[i] = Some(now),
        None => {
            sh.reads[0] = sh.reads[1];
            sh.reads[1] = Some(now);
        }
    }
}
