//! A cache of device allocations by size (as CuPy's memory pool): an array's device
//! memory goes back to the pool when the array dies and serves the next allocation of
//! the same size, so a loop like `C = A * B` allocates once. All work runs in order on
//! one stream, so memory handed out again is only touched after earlier work ends.
//!
//! Memory handed to another library (a result exported through DLPack, `external`)
//! comes home when that library lets go of it, from any thread (`reuse`'s inbox), and
//! serves the next allocation too: a Python loop of `y = f(x)` over CuPy arrays
//! allocates once.

use crate::queue::Queue;
use crate::reuse::{Block, Inbox, PoolStats, SizeCache};
use cudarc::driver::{CudaSlice, CudaStream, DriverError};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Weak};

/// Bytes kept for reuse at most; larger totals are freed.
const KEEP: usize = 4 << 30;

/// The bytes allocated for an array of `bytes`: at least 16, one element of any type,
/// so that generated code may read element 0 of an empty array (and ignore it).
pub fn alloc_size(bytes: usize) -> usize {
    bytes.max(16)
}

impl Block for CudaSlice<u8> {
    fn bytes(&self) -> usize {
        self.len()
    }
}

pub struct Pool {
    queue: Rc<Queue>,
    cache: RefCell<SizeCache<CudaSlice<u8>>>,
}

impl Pool {
    pub fn new(queue: Rc<Queue>) -> Pool {
        Pool {
            queue,
            cache: RefCell::new(SizeCache::new(KEEP)),
        }
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        self.queue.stream()
    }

    pub fn queue(&self) -> &Rc<Queue> {
        &self.queue
    }

    /// Where memory handed to other libraries comes home.
    pub fn home(&self) -> Weak<Inbox<CudaSlice<u8>>> {
        self.cache.borrow().home()
    }

    /// Counts of allocations, reuses and returns.
    pub fn stats(&self) -> PoolStats {
        self.cache.borrow().stats()
    }

    /// Notes an export that had to copy (the result's memory was shared).
    pub fn note_export_copy(&self) {
        self.cache.borrow_mut().note_export_copy();
    }

    /// Device memory for `bytes` bytes ([`alloc_size`] of them), reused when possible.
    /// The contents are unspecified: callers overwrite them.
    pub fn take(&self, bytes: usize) -> Result<CudaSlice<u8>, DriverError> {
        let bytes = alloc_size(bytes);
        let (unordered, over) = self.cache.borrow_mut().collect();
        drop(over);
        if unordered {
            // A block came home from a consumer whose stream Blazar's does not wait
            // for: its work there must end before the block is written again.
            self.stream().context().synchronize()?;
        }
        if let Some(s) = self.cache.borrow_mut().take(bytes) {
            return Ok(s);
        }
        let fresh = match self.stream().alloc_zeros::<u8>(bytes) {
            Ok(s) => s,
            Err(_) => {
                // Out of memory, perhaps because of cached blocks: free them and retry.
                let kept = self.cache.borrow_mut().drain();
                drop(kept);
                self.stream().alloc_zeros::<u8>(bytes)?
            }
        };
        self.cache.borrow_mut().note_alloc();
        Ok(fresh)
    }

    /// Returns memory for reuse (or frees it when the cache is full).
    pub fn give(&self, s: CudaSlice<u8>) {
        if let Ok(mut c) = self.cache.try_borrow_mut() {
            let over = c.give(s);
            drop(c);
            drop(over);
        }
    }
}
