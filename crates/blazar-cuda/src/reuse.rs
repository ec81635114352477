//! The bookkeeping of the device memory pool (`pool`), apart from CUDA so that it is
//! tested without a GPU: blocks kept for reuse by size, a bound on the bytes kept, the
//! blocks that come home from other threads, and the counts that show whether a loop
//! allocates.
//!
//! A block handed to another library (a result exported through DLPack) is not the
//! pool's while the library holds it; when the library lets go, from whatever thread its
//! deleter runs on, the block goes into the pool's *inbox* (a mutex, the only part
//! shared between threads), and the next [`SizeCache::take`] on the pool's own thread
//! moves it to the free lists. A block whose consumer worked on a stream not ordered with
//! Blazar's comes back *unordered*: the pool waits for the device before reusing it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

/// What the cache needs of a block: its size in bytes.
pub trait Block {
    fn bytes(&self) -> usize;
}

/// Blocks coming home: (the block, whether its last user's work may still be running
/// on a stream that Blazar's stream does not wait for).
pub type Inbox<B> = Mutex<Vec<(B, bool)>>;

/// Counts of the pool's work since it was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Blocks allocated from the driver.
    pub allocs: u64,
    /// Takes served by a kept block.
    pub reuses: u64,
    /// Blocks that came home from another library (DLPack consumers).
    pub returned: u64,
    /// Results copied on export because another reference shared their memory.
    pub export_copies: u64,
    /// Bytes kept for reuse now.
    pub cached_bytes: u64,
}

pub struct SizeCache<B> {
    free: HashMap<usize, Vec<B>>,
    cached: usize,
    keep: usize,
    inbox: Arc<Inbox<B>>,
    stats: PoolStats,
}

impl<B: Block> SizeCache<B> {
    /// A cache keeping at most `keep` bytes.
    pub fn new(keep: usize) -> SizeCache<B> {
        SizeCache {
            free: HashMap::new(),
            cached: 0,
            keep,
            inbox: Arc::new(Mutex::new(Vec::new())),
            stats: PoolStats::default(),
        }
    }

    /// Where blocks handed out come home (held weakly: a block whose pool is gone is
    /// freed by its holder).
    pub fn home(&self) -> Weak<Inbox<B>> {
        Arc::downgrade(&self.inbox)
    }

    /// Moves the blocks that came home to the free lists; true when one of them may
    /// still be in use on an unordered stream (the caller waits for the device before
    /// handing any block out). Blocks over the bound are returned to be freed.
    pub fn collect(&mut self) -> (bool, Vec<B>) {
        let came = match self.inbox.lock() {
            Ok(mut v) if !v.is_empty() => std::mem::take(&mut *v),
            _ => return (false, Vec::new()),
        };
        let mut unordered = false;
        let mut over = Vec::new();
        for (b, u) in came {
            unordered |= u;
            self.stats.returned += 1;
            if let Some(b) = self.give(b) {
                over.push(b);
            }
        }
        (unordered, over)
    }

    /// A kept block of exactly `bytes`, if any.
    pub fn take(&mut self, bytes: usize) -> Option<B> {
        let b = self.free.get_mut(&bytes).and_then(Vec::pop)?;
        self.cached -= bytes;
        self.stats.reuses += 1;
        Some(b)
    }

    /// Keeps `b` for reuse; gives it back when the bound would be passed (to be freed).
    pub fn give(&mut self, b: B) -> Option<B> {
        let n = b.bytes();
        if self.cached + n > self.keep {
            return Some(b);
        }
        self.cached += n;
        self.free.entry(n).or_default().push(b);
        None
    }

    /// Every kept block, to be freed (out of memory: they may be what is missing).
    pub fn drain(&mut self) -> Vec<B> {
        self.cached = 0;
        self.free.drain().flat_map(|(_, v)| v).collect()
    }

    pub fn note_alloc(&mut self) {
        self.stats.allocs += 1;
    }

    pub fn note_export_copy(&mut self) {
        self.stats.export_copies += 1;
    }

    pub fn stats(&self) -> PoolStats {
        PoolStats {
            cached_bytes: self.cached as u64,
            ..self.stats
        }
    }
}

/// Sends `b` home to `inbox`; gives it back when the pool is gone (the caller frees it).
pub fn send_home<B>(inbox: &Weak<Inbox<B>>, b: B, unordered: bool) -> Option<B> {
    match inbox.upgrade() {
        Some(i) => match i.lock() {
            Ok(mut v) => {
                v.push((b, unordered));
                None
            }
            Err(_) => Some(b),
        },
        None => Some(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Block for Vec<u8> {
        fn bytes(&self) -> usize {
            self.len()
        }
    }

    /// One call of an element-wise function whose result goes out through DLPack: a
    /// block taken (or allocated), handed out, and dropped by the consumer on another
    /// thread.
    fn call(c: &mut SizeCache<Vec<u8>>, bytes: usize, unordered: bool) -> bool {
        let (wait, over) = c.collect();
        assert!(over.is_empty());
        let b = c.take(bytes).unwrap_or_else(|| {
            c.note_alloc();
            vec![0u8; bytes]
        });
        let home = c.home();
        std::thread::spawn(move || assert!(send_home(&home, b, unordered).is_none()))
            .join()
            .unwrap();
        wait
    }

    #[test]
    fn results_exported_and_dropped_elsewhere_are_reused() {
        let mut c = SizeCache::new(1 << 20);
        for _ in 0..100 {
            assert!(!call(&mut c, 4096, false));
        }
        let s = c.stats();
        // The last block is in the inbox until the next take collects it.
        assert_eq!((s.allocs, s.reuses, s.returned), (1, 99, 99));
        assert_eq!(s.cached_bytes, 0);
        c.collect();
        assert_eq!(c.stats().returned, 100);
        assert_eq!(c.stats().cached_bytes, 4096);
    }

    #[test]
    fn a_block_back_from_an_unordered_stream_makes_the_next_take_wait() {
        let mut c = SizeCache::new(1 << 20);
        assert!(!call(&mut c, 64, true));
        assert!(call(&mut c, 64, false), "the block came back unordered");
        assert!(!call(&mut c, 64, false));
        assert_eq!(c.stats().allocs, 1);
    }

    #[test]
    fn sizes_do_not_mix_and_the_bound_holds() {
        let mut c: SizeCache<Vec<u8>> = SizeCache::new(100);
        assert!(c.give(vec![0; 60]).is_none());
        assert!(c.take(40).is_none());
        assert_eq!(c.give(vec![0; 60]).map(|b| b.len()), Some(60));
        assert_eq!(c.take(60).map(|b| b.len()), Some(60));
        assert_eq!(c.stats().cached_bytes, 0);
        assert!(c.give(vec![0; 50]).is_none());
        assert_eq!(c.drain().len(), 1);
        assert_eq!(c.stats().cached_bytes, 0);
    }

    #[test]
    fn a_block_whose_pool_is_gone_is_given_back_to_be_freed() {
        let c: SizeCache<Vec<u8>> = SizeCache::new(100);
        let home = c.home();
        drop(c);
        assert_eq!(send_home(&home, vec![1, 2], false), Some(vec![1, 2]));
    }
}
