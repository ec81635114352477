//! Reclaiming reference cycles among host values (`c[0] = c`, `o.self = o`).
//!
//! Values are reference counted (`Rc`), which frees everything but cycles. A cycle can
//! only form when a value is stored into a container that already exists: a cell
//! array, an object, or (through its captures) a closure made earlier. So the
//! interpreter reports every container it stores a container value into
//! ([`note_store`]); those are the *candidates*. When the candidates registered since
//! the last collection reach the threshold (1024, or twice the containers that
//! survived the last collection, so the work stays linear), or the bytes of the arrays
//! stored into containers since then reach a byte threshold (64 MiB, or twice the
//! bytes that the surviving containers held, so that few large cycles cannot pile up
//! gigabytes before the count is reached), [`collect`] runs a synchronous trial
//! deletion, as CPython's collector does:
//!
//! 1. the subgraph of containers reachable from live candidates is gathered (cell
//!    stores, objects, closures; an edge per container value held inside);
//! 2. each container starts with its strong count, and every edge inside the subgraph
//!    subtracts one from its target: what is left counts references from outside
//!    (variables, temporaries, other structures);
//! 3. containers with outside references, and everything reachable from them, are
//!    alive; a container that is borrowed at that moment is alive too, with all it
//!    holds;
//! 4. the rest is garbage that only garbage refers to: the contents of its cells and
//!    objects are taken out (closures are immutable and need no breaking), which
//!    breaks every cycle, and dropping the contents frees it all.
//!
//! Nothing reachable is ever touched: a reference the collector cannot see is a strong
//! count it cannot explain, which keeps its target alive.

use crate::array::{Array, Buffer};
use crate::store::Store;
use crate::value::{Closure, Object, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::{Rc, Weak};

const MIN_THRESHOLD: usize = 1024;
/// The least byte threshold (64 MiB).
const MIN_BYTES: usize = 1 << 26;

enum Weakly {
    Store(Weak<Store>),
    Object(Weak<RefCell<Object>>),
}

struct Registry {
    candidates: Vec<Weakly>,
    /// Addresses of the candidates (a held `Weak` keeps an address from being reused).
    known: HashSet<usize>,
    threshold: usize,
    /// Bytes of arrays stored into containers since the last collection, and the
    /// amount that starts one.
    bytes: usize,
    byte_threshold: usize,
    stats: Stats,
}

/// What the collector has done in this thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub collections: u64,
    /// Containers found to be garbage and broken up.
    pub reclaimed: u64,
    /// Candidates tracked now.
    pub tracked: usize,
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry {
        candidates: Vec::new(),
        known: HashSet::new(),
        threshold: MIN_THRESHOLD,
        bytes: 0,
        byte_threshold: MIN_BYTES,
        stats: Stats::default(),
    });
}

/// Records that `v` was stored into `container` (a cell array or an object), which
/// may have closed a cycle; may run a collection. Cheap when `v` holds no container.
pub fn note_store(container: &Value, v: &Value) {
    if !matches!(v, Value::Array(_) | Value::Object(_) | Value::Func(_)) {
        return;
    }
    let (addr, weak) = match container {
        Value::Array(a) => {
            if !a.meta().is_ok_and(|m| m.is_cell()) {
                return;
            }
            (
                Rc::as_ptr(&a.data) as usize,
                Weakly::Store(Rc::downgrade(&a.data)),
            )
        }
        Value::Object(o) => (Rc::as_ptr(o) as usize, Weakly::Object(Rc::downgrade(o))),
        _ => return,
    };
    let size = array_bytes(v);
    let due = REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        if r.known.insert(addr) {
            r.candidates.push(weak);
        }
        r.bytes = r.bytes.saturating_add(size);
        r.candidates.len() >= r.threshold || r.bytes >= r.byte_threshold
    });
    if due {
        collect();
    }
}

/// The bytes of `v`'s elements when it is an array of numbers (0 otherwise).
fn array_bytes(v: &Value) -> usize {
    match v {
        Value::Array(a) => a
            .meta()
            .ok()
            .filter(|m| !m.is_cell())
            .map_or(0, |m| m.len().saturating_mul(m.elem().size_bytes())),
        _ => 0,
    }
}

/// What the collector has done in this thread so far.
pub fn stats() -> Stats {
    REGISTRY.with(|r| {
        let r = r.borrow();
        Stats {
            tracked: r.candidates.len(),
            ..r.stats
        }
    })
}

/// A container of the subgraph (holding one strong reference while collecting).
enum Node {
    Store(Rc<Store>),
    Object(Rc<RefCell<Object>>),
    Func(Rc<Closure>),
}

impl Node {
    /// The address of the container `v` refers to, if it is one.
    fn addr(v: &Value) -> Option<usize> {
        match v {
            Value::Array(a) => Some(Rc::as_ptr(&a.data) as usize),
            Value::Object(o) => Some(Rc::as_ptr(o) as usize),
            Value::Func(f) => Some(Rc::as_ptr(f) as usize),
            _ => None,
        }
    }

    fn of(v: &Value) -> Option<Node> {
        match v {
            Value::Array(a) => Some(Node::Store(a.data.clone())),
            Value::Object(o) => Some(Node::Object(o.clone())),
            Value::Func(f) => Some(Node::Func(f.clone())),
            _ => None,
        }
    }

    fn strong(&self) -> usize {
        match self {
            Node::Store(s) => Rc::strong_count(s),
            Node::Object(o) => Rc::strong_count(o),
            Node::Func(f) => Rc::strong_count(f),
        }
    }

    /// Calls `f` on every value held directly; `false` when the container is borrowed
    /// now (its contents cannot be seen).
    fn children(&self, f: &mut impl FnMut(&Value)) -> bool {
        match self {
            Node::Store(s) => match s.host_unsynced().try_borrow() {
                Ok(a) => {
                    if let Buffer::Cell(vals) = &a.buf {
                        vals.iter().for_each(f);
                    }
                    true
                }
                Err(_) => false,
            },
            Node::Object(o) => match o.try_borrow() {
                Ok(o) => {
                    o.fields.iter().for_each(|(_, v)| f(v));
                    true
                }
                Err(_) => false,
            },
            Node::Func(c) => {
                c.captures.iter().for_each(f);
                true
            }
        }
    }
}

/// Contents taken out of garbage containers, dropped once every cycle is broken.
enum Trash {
    Array(Array),
    Fields(Vec<(Rc<str>, Value)>),
}

/// Runs a collection now (see the module documentation); returns the number of
/// containers reclaimed.
pub fn collect() -> usize {
    let roots: Vec<Node> = REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        let mut roots = Vec::new();
        r.candidates.retain(|w| match w {
            Weakly::Store(w) => w.upgrade().map(|s| roots.push(Node::Store(s))).is_some(),
            Weakly::Object(w) => w.upgrade().map(|o| roots.push(Node::Object(o))).is_some(),
        });
        roots
    });
    // 1. The subgraph, with its edges by index.
    let mut index: HashMap<usize, usize> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    for n in roots {
        let addr = match &n {
            Node::Store(s) => Rc::as_ptr(s) as usize,
            Node::Object(o) => Rc::as_ptr(o) as usize,
            Node::Func(f) => Rc::as_ptr(f) as usize,
        };
        if let std::collections::hash_map::Entry::Vacant(e) = index.entry(addr) {
            e.insert(nodes.len());
            nodes.push(n);
        }
    }
    let mut edges: Vec<Vec<usize>> = Vec::new();
    let mut opaque: Vec<bool> = Vec::new();
    let mut bytes: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < nodes.len() {
        let mut out = Vec::new();
        let mut found = Vec::new();
        let mut held = 0usize;
        let seen = nodes[i].children(&mut |v| {
            held = held.saturating_add(array_bytes(v));
            let Some(addr) = Node::addr(v) else {
                return;
            };
            match index.get(&addr) {
                Some(&j) => out.push(j),
                None => {
                    let j = nodes.len() + found.len();
                    index.insert(addr, j);
                    found.extend(Node::of(v));
                    out.push(j);
                }
            }
        });
        nodes.extend(found);
        edges.push(out);
        opaque.push(!seen);
        bytes.push(held);
        i += 1;
    }
    // 2. References from outside the subgraph (less the one each node holds here).
    let mut outside: Vec<isize> = nodes.iter().map(|n| n.strong() as isize - 1).collect();
    for out in &edges {
        for &j in out {
            outside[j] -= 1;
        }
    }
    // 3. Alive: referenced from outside (or unseen inside), and all they reach.
    let mut alive = vec![false; nodes.len()];
    let mut work: Vec<usize> = (0..nodes.len())
        .filter(|&k| outside[k] > 0 || opaque[k])
        .collect();
    for &k in &work {
        alive[k] = true;
    }
    while let Some(k) = work.pop() {
        for &j in &edges[k] {
            if !alive[j] {
                alive[j] = true;
                work.push(j);
            }
        }
    }
    // 4. Break up the garbage, then let it go.
    let mut trash = Vec::new();
    for (k, n) in nodes.iter().enumerate() {
        if alive[k] {
            continue;
        }
        match n {
            Node::Store(s) => {
                if let Ok(mut a) = s.host_unsynced().try_borrow_mut() {
                    let empty = Array::new(vec![0], Buffer::Cell(Vec::new()));
                    trash.push(Trash::Array(std::mem::replace(&mut *a, empty)));
                }
            }
            Node::Object(o) => {
                if let Ok(mut o) = o.try_borrow_mut() {
                    trash.push(Trash::Fields(std::mem::take(&mut o.fields)));
                }
            }
            Node::Func(_) => {}
        }
    }
    let reclaimed = alive.iter().filter(|a| !**a).count();
    let live_bytes = (0..nodes.len())
        .filter(|&k| alive[k])
        .fold(0usize, |acc, k| acc.saturating_add(bytes[k]));
    drop(nodes);
    // Dropping the contents frees every garbage container; a long chain is freed link
    // by link, since no container holds the next one any more.
    for t in trash {
        match t {
            Trash::Array(a) => drop(a),
            Trash::Fields(f) => drop(f),
        }
    }
    REGISTRY.with(|r| {
        let mut r = r.borrow_mut();
        r.candidates.retain(|w| match w {
            Weakly::Store(w) => w.strong_count() > 0,
            Weakly::Object(w) => w.strong_count() > 0,
        });
        let live: HashSet<usize> = r
            .candidates
            .iter()
            .map(|w| match w {
                Weakly::Store(w) => w.as_ptr() as usize,
                Weakly::Object(w) => w.as_ptr() as usize,
            })
            .collect();
        r.known = live;
        r.threshold = MIN_THRESHOLD.max(2 * r.candidates.len());
        r.bytes = 0;
        r.byte_threshold = MIN_BYTES.max(live_bytes.saturating_mul(2));
        r.stats.collections += 1;
        r.stats.reclaimed += reclaimed as u64;
    });
    reclaimed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aref::ArrayRef;

    fn cell(n: usize) -> Value {
        Value::array(Array::new(vec![n], Buffer::Cell(vec![Value::Real(0.0); n])))
    }

    fn put(c: &Value, i: usize, v: Value) {
        let Value::Array(a) = c else { unreachable!() };
        if let Buffer::Cell(vals) = &mut a.borrow_mut().buf {
            vals[i] = v.clone();
        }
        note_store(c, &v);
    }

    fn store_of(v: &Value) -> Weak<Store> {
        let Value::Array(ArrayRef { data, .. }) = v else {
            unreachable!()
        };
        Rc::downgrade(data)
    }

    #[test]
    fn self_referencing_cells_and_objects_are_reclaimed() {
        let c = cell(2);
        put(&c, 0, c.clone());
        let w = store_of(&c);
        let o = Value::Object(Rc::new(RefCell::new(Object::default())));
        let Value::Object(orc) = &o else {
            unreachable!()
        };
        orc.borrow_mut().set("self", o.clone());
        note_store(&o, &o);
        let wo = Rc::downgrade(orc);
        // While variables hold them, nothing is reclaimed.
        assert_eq!(collect(), 0);
        assert_eq!(w.strong_count(), 2);
        drop(c);
        drop(o);
        assert_eq!(w.strong_count(), 1, "the cycle keeps itself alive");
        collect();
        assert_eq!(w.strong_count(), 0);
        assert_eq!(wo.strong_count(), 0);
    }

    #[test]
    fn a_cycle_through_a_closure_reachable_from_outside_stays_whole() {
        let c = cell(1);
        let f = Value::Func(Rc::new(Closure {
            func: crate::value::FuncRef::User(0),
            captures: vec![c.clone()],
        }));
        put(&c, 0, f.clone());
        let Value::Func(frc) = &f else { unreachable!() };
        let wf = Rc::downgrade(frc);
        drop(f);
        // `c` is still a variable: its cycle survives, contents intact.
        assert_eq!(collect(), 0);
        let Value::Array(a) = &c else { unreachable!() };
        assert!(matches!(&a.borrow().buf, Buffer::Cell(v) if matches!(v[0], Value::Func(_))));
        drop(c);
        assert!(collect() >= 2);
        assert_eq!(wf.strong_count(), 0);
    }

    #[test]
    fn a_few_large_cycles_are_collected_by_their_bytes() {
        // 100 cycles of 4 MB each: far fewer than the count threshold, but their bytes
        // start collections, so at most about 64 MiB (plus one cycle) are ever held.
        let before = stats();
        let mut first = None;
        for _ in 0..100 {
            let c = cell(2);
            put(
                &c,
                0,
                Value::array(Array::zeros(vec![1 << 19], crate::ElemType::F64)),
            );
            put(&c, 1, c.clone());
            first.get_or_insert_with(|| store_of(&c));
        }
        let after = stats();
        assert!(after.collections > before.collections, "{after:?}");
        assert_eq!(
            first.unwrap().strong_count(),
            0,
            "the first cycle was freed"
        );
        assert!(after.tracked < 20, "{after:?}");
    }

    #[test]
    fn thousands_of_cycles_are_collected_as_they_are_made() {
        let before = stats();
        for _ in 0..5000 {
            let c = cell(3);
            put(&c, 0, c.clone());
            put(
                &c,
                1,
                Value::array(Array::zeros(vec![100], crate::array::ElemType::F64)),
            );
        }
        let after = stats();
        assert!(after.collections > before.collections);
        assert!(after.tracked <= 2 * MIN_THRESHOLD, "{after:?}");
    }
}
