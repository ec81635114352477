//! A cache of host element buffers by size class, so that a statement in a loop
//! (`r = x + 1`, `y = copy(x)`) writes into memory the process already touched instead
//! of fresh pages from the system (a 12 MB result costs about 3000 page faults, often
//! more than the statement's arithmetic).
//!
//! Rules:
//! - An array's numeric host buffer comes back here when its [`Store`](crate::Store)
//!   dies; buffers of fewer than [`MIN_BYTES`] and cell buffers go to the allocator.
//! - A miss allocates exactly the request (zeroed by the system). A kept buffer serves
//!   a later request it can hold that is at most a size class below it (a quarter of
//!   the request's highest power of two), so a loop's same-sized results reuse it and
//!   no array costs more than 25% over its size.
//! - The pool is bounded: at most [`cap`] bytes (1 GiB unless `BLAZAR_HOST_POOL_MB`
//!   or [`set_cap`] says otherwise) and [`MAX_BUFFERS`] buffers; the oldest go first. It keeps at most a
//!   quarter of the memory the system reports available (`MemAvailable`, read at most
//!   every 50 ms), and [`alloc`](crate::alloc) empties it before it reports "out of
//!   memory" ([`release`]).
//! - One pool per thread: arrays are single-threaded values (`Rc`), and a buffer is
//!   returned on the thread that owned it.
//! - Contents: [`take`] hands out a buffer with unspecified (old, initialised) elements
//!   for a caller that overwrites all of them; [`zeroed`] clears it first.

use crate::array::{Buffer, ElemType};
use crate::value::IntTy;
use num_complex::{Complex32, Complex64};
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Buffers smaller than this (64 KiB) are not pooled: the allocator recycles them well.
pub const MIN_BYTES: usize = 64 << 10;

/// The most buffers one pool keeps.
pub const MAX_BUFFERS: usize = 64;

/// The default bound on pooled bytes per thread (1 GiB).
pub const DEFAULT_CAP: usize = 1 << 30;

/// `usize::MAX` until the first use reads `BLAZAR_HOST_POOL_MB`.
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

/// The bound on the bytes a pool keeps: `BLAZAR_HOST_POOL_MB` mebibytes when set (0
/// turns the pool off), else [`DEFAULT_CAP`].
pub fn cap() -> usize {
    match CAP.load(Ordering::Relaxed) {
        usize::MAX => {
            let bytes = std::env::var("BLAZAR_HOST_POOL_MB")
                .ok()
                .and_then(|v| v.trim().parse::<usize>().ok())
                .map_or(DEFAULT_CAP, |mb| {
                    mb.saturating_mul(1 << 20).min(usize::MAX - 1)
                });
            CAP.store(bytes, Ordering::Relaxed);
            bytes
        }
        c => c,
    }
}

/// Sets the bound on pooled bytes (0 turns the pool off); pools over it shrink on
/// their next use.
pub fn set_cap(bytes: usize) {
    CAP.store(bytes, Ordering::Relaxed);
}

/// The size class of a buffer of `bytes`: `bytes` itself under [`MIN_BYTES`], else
/// `bytes` rounded up to a multiple of a quarter of its highest power of two.
pub fn class_bytes(bytes: usize) -> usize {
    if bytes < MIN_BYTES {
        return bytes;
    }
    let step = (1usize << (usize::BITS - 1 - bytes.leading_zeros())) / 4;
    bytes.div_ceil(step).saturating_mul(step)
}

/// What a pool holds and did: buffers and bytes kept, hits and misses of [`take`] and
/// [`zeroed`] (requests under [`MIN_BYTES`] are counted by neither).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub buffers: usize,
    pub bytes: usize,
    pub hits: u64,
    pub misses: u64,
}

struct Pool {
    /// Oldest first.
    free: Vec<Buffer>,
    bytes: usize,
    hits: u64,
    misses: u64,
    /// The last look at the system's available memory and the bound it set.
    checked: Option<(Instant, usize)>,
}

thread_local! {
    static POOL: RefCell<Pool> = const {
        RefCell::new(Pool { free: Vec::new(), bytes: 0, hits: 0, misses: 0, checked: None })
    };
}

fn capacity_bytes(b: &Buffer) -> usize {
    match b {
        Buffer::Cell(_) => 0,
        b => b.capacity() * b.elem().size_bytes(),
    }
}

/// Bytes the system can still give without swapping (Linux), or `None`.
fn mem_available() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

impl Pool {
    /// The bound now: [`cap`], and a quarter of the available memory.
    fn bound(&mut self) -> usize {
        let now = Instant::now();
        let sys = match self.checked {
            Some((t, b)) if now.duration_since(t) < Duration::from_millis(50) => b,
            _ => {
                let b = mem_available().map_or(usize::MAX, |m| (m + self.bytes) / 4);
                self.checked = Some((now, b));
                b
            }
        };
        cap().min(sys)
    }

    fn evict_to(&mut self, limit: usize, count: usize) {
        let mut drop_n = 0;
        while drop_n < self.free.len() && (self.bytes > limit || self.free.len() - drop_n > count) {
            self.bytes -= capacity_bytes(&self.free[drop_n]);
            drop_n += 1;
        }
        self.free.drain(..drop_n);
    }

    fn give(&mut self, buf: Buffer) {
        let bytes = capacity_bytes(&buf);
        if bytes < MIN_BYTES {
            return;
        }
        let bound = self.bound();
        if bytes > bound {
            return;
        }
        self.evict_to(bound - bytes, MAX_BUFFERS - 1);
        self.bytes += bytes;
        self.free.push(buf);
    }

    /// A kept buffer of `elem` that holds `need` bytes and wastes at most what its size
    /// class allows (a quarter of the highest power of two).
    fn take(&mut self, elem: ElemType, need: usize) -> Option<Buffer> {
        let most = class_bytes(need);
        let at = self.free.iter().rposition(|b| {
            let have = capacity_bytes(b);
            b.elem() == elem && have >= need && have <= most
        });
        match at {
            Some(i) => {
                let b = self.free.remove(i);
                self.bytes -= capacity_bytes(&b);
                self.hits += 1;
                Some(b)
            }
            None => {
                self.misses += 1;
                None
            }
        }
    }
}

/// Gives a buffer back for reuse (an array's elements when it dies). Buffers the pool
/// does not keep are freed.
pub fn give(buf: Buffer) {
    if matches!(buf, Buffer::Cell(_)) || cap() == 0 {
        return;
    }
    // A thread that is ending has no pool left: the buffer is simply freed.
    let _ = POOL.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut() {
            p.give(buf);
        }
    });
}

/// Frees every buffer of this thread's pool (before an allocation is refused).
pub fn release() {
    let _ = POOL.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut() {
            p.free.clear();
            p.bytes = 0;
        }
    });
}

/// This thread's pool: what it keeps and how often it served a request.
pub fn stats() -> Stats {
    POOL.try_with(|p| {
        p.try_borrow().map_or(Stats::default(), |p| Stats {
            buffers: p.free.len(),
            bytes: p.bytes,
            hits: p.hits,
            misses: p.misses,
        })
    })
    .unwrap_or_default()
}

/// A pooled buffer of `elem` that holds `need` bytes, if one is kept.
fn reuse(elem: ElemType, need: usize) -> Option<Buffer> {
    POOL.try_with(|p| p.try_borrow_mut().ok()?.take(elem, need))
        .ok()
        .flatten()
}

/// Sets a buffer's length to `n` (≤ its capacity): cut, or extended with `fill`.
fn fit(buf: &mut Buffer, n: usize, zero: bool) {
    crate::with_buffer!(buf, v => {
        if zero {
            v.clear();
        }
        v.resize(n, Default::default());
    }, cell c => c.truncate(n))
}

/// A numeric buffer of `n` elements of `elem` from the pool or new; `zero` clears
/// reused elements (new ones are zero already).
fn get(elem: ElemType, n: usize, zero: bool) -> Buffer {
    let bytes = n.saturating_mul(elem.size_bytes());
    if elem == ElemType::Cell || bytes < MIN_BYTES || cap() == 0 {
        return Buffer::fresh_zeros(elem, n, n);
    }
    // A miss allocates exactly what was asked (rounding up to the class would cost a
    // large array up to a quarter more memory); a later request of a size up to a
    // class above reuses it.
    match reuse(elem, bytes) {
        Some(mut b) => {
            fit(&mut b, n, zero);
            b
        }
        None => Buffer::fresh_zeros(elem, n, n),
    }
}

/// `n` elements of `elem` with unspecified values, for a caller that writes every
/// one (a kernel's result): reused memory keeps what it held.
pub fn take(elem: ElemType, n: usize) -> Buffer {
    get(elem, n, false)
}

/// `n` zeros of `elem`, in reused memory when the pool has some.
pub fn zeroed(elem: ElemType, n: usize) -> Buffer {
    get(elem, n, true)
}

/// Element types whose vectors [`vec`] hands out.
pub trait PoolElem: Copy + Default + Sized {
    const ELEM: ElemType;
    fn unwrap(b: Buffer) -> Vec<Self>;
}

macro_rules! pool_elem {
    ($($t:ty => $variant:ident, $elem:expr;)*) => {$(
        impl PoolElem for $t {
            const ELEM: ElemType = $elem;
            fn unwrap(b: Buffer) -> Vec<$t> {
                match b {
                    Buffer::$variant(v) => v,
                    _ => unreachable!("the pool hands out buffers of the type asked for"),
                }
            }
        }
    )*};
}

pool_elem! {
    f32 => F32, ElemType::F32;
    f64 => F64, ElemType::F64;
    Complex32 => C32, ElemType::C32;
    Complex64 => C64, ElemType::C64;
    i8 => I8, ElemType::Int(IntTy::I8);
    i16 => I16, ElemType::Int(IntTy::I16);
    i32 => I32, ElemType::Int(IntTy::I32);
    i64 => I64, ElemType::Int(IntTy::I64);
    u8 => U8, ElemType::Int(IntTy::U8);
    u16 => U16, ElemType::Int(IntTy::U16);
    u32 => U32, ElemType::Int(IntTy::U32);
    u64 => U64, ElemType::Int(IntTy::U64);
}

/// An empty vector with room for `n` elements, from the pool when it has a buffer of
/// the class: for results built with `extend`/`push` (its old contents are cleared,
/// which writes nothing).
pub fn vec<T: PoolElem>(n: usize) -> Vec<T> {
    let bytes = n.saturating_mul(T::ELEM.size_bytes());
    if bytes < MIN_BYTES || cap() == 0 {
        return Vec::with_capacity(n);
    }
    let class = class_bytes(bytes);
    match reuse(T::ELEM, class) {
        Some(b) => {
            let mut v = T::unwrap(b);
            v.clear();
            v
        }
        None => Vec::with_capacity(class / T::ELEM.size_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const U8: ElemType = ElemType::Int(IntTy::U8);

    fn ptr(b: &Buffer) -> usize {
        crate::with_buffer!(b, v => v.as_ptr() as usize, cell c => c.as_ptr() as usize)
    }

    #[test]
    fn classes_round_up_by_at_most_a_quarter() {
        assert_eq!(class_bytes(100), 100);
        assert_eq!(class_bytes(MIN_BYTES), MIN_BYTES);
        assert_eq!(class_bytes(MIN_BYTES + 1), MIN_BYTES + MIN_BYTES / 4);
        let twelve_mb = 1024 * 1024 * 3 * 4;
        assert_eq!(class_bytes(twelve_mb), twelve_mb);
        for b in [70_000usize, 1 << 20, 3_333_333, 12_582_913] {
            let c = class_bytes(b);
            assert!(c >= b && c <= b + b / 4 + 1, "{b} -> {c}");
            assert_eq!(class_bytes(c), c, "a class is its own class");
        }
    }

    #[test]
    fn a_freed_buffer_serves_the_next_request_of_its_class() {
        release();
        let n = 300_000;
        let a = take(ElemType::F32, n);
        assert_eq!(a.len(), n);
        let p = ptr(&a);
        give(a);
        assert_eq!(stats().buffers, 1);
        // A slightly smaller request of the same class gets the same memory.
        let b = take(ElemType::F32, n - 10);
        assert_eq!((ptr(&b), b.len()), (p, n - 10));
        assert_eq!(stats().buffers, 0);
        // Another type of the same size does not.
        give(b);
        let c = take(ElemType::Int(IntTy::I32), n);
        assert_ne!(ptr(&c), p);
        release();
    }

    #[test]
    fn zeroed_clears_reused_memory() {
        release();
        let mut a = take(ElemType::F64, 100_000);
        if let Buffer::F64(v) = &mut a {
            v.iter_mut().for_each(|x| *x = 7.0);
        }
        give(a);
        let z = zeroed(ElemType::F64, 100_000);
        assert!(stats().hits > 0);
        assert!((0..z.len()).all(|i| z.get_f64(i) == 0.0));
        release();
    }

    #[test]
    fn the_pool_stays_under_its_bounds() {
        release();
        let mb = 1 << 20;
        let before = cap();
        set_cap(8 * mb);
        for _ in 0..20 {
            give(Buffer::fresh_zeros(U8, mb, mb));
        }
        let s = stats();
        assert!(s.bytes <= 8 * mb && s.buffers <= 8, "{s:?}");
        // A buffer larger than the bound is not kept at all.
        give(Buffer::fresh_zeros(U8, 16 * mb, 16 * mb));
        assert!(stats().bytes <= 8 * mb);
        // Small buffers and cells go to the allocator.
        release();
        give(Buffer::fresh_zeros(U8, 1000, 1000));
        give(Buffer::fresh_zeros(ElemType::Cell, 100_000, 100_000));
        assert_eq!(stats().buffers, 0);
        // Many buffers: at most MAX_BUFFERS are kept.
        set_cap(1 << 30);
        for _ in 0..MAX_BUFFERS + 10 {
            give(Buffer::fresh_zeros(U8, MIN_BYTES, MIN_BYTES));
        }
        assert_eq!(stats().buffers, MAX_BUFFERS);
        release();
        assert_eq!((stats().buffers, stats().bytes), (0, 0));
        set_cap(before);
    }

    #[test]
    fn a_dying_array_returns_its_buffer() {
        release();
        let n = 1 << 18;
        let a = crate::ArrayRef::new(crate::Array::zeros(vec![n], ElemType::F32));
        drop(a);
        assert_eq!(stats().buffers, 1);
        let hits = stats().hits;
        let b = crate::Array::zeros(vec![n], ElemType::F32);
        assert_eq!(stats().hits, hits + 1);
        assert_eq!(b.buf.len(), n);
        release();
    }
}
