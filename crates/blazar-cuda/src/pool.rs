//! A cache of device allocations by size (as CuPy's memory pool): an array's device
//! memory goes back to the pool when the array dies and serves the next allocation of
//! the same size, so a loop like `C = A * B` allocates once. All work runs in order on
//! one stream, so memory handed out again is only touched after earlier work ends.

use crate::queue::Queue;
use cudarc::driver::{CudaSlice, CudaStream, DriverError};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Bytes kept for reuse at most; larger totals are freed.
const KEEP: usize = 4 << 30;

/// The bytes allocated for an array of `bytes`: at least 16, one element of any type,
/// so that generated code may read element 0 of an empty array (and ignore it).
pub fn alloc_size(bytes: usize) -> usize {
    bytes.max(16)
}

pub struct Pool {
    queue: Rc<Queue>,
    free: RefCell<HashMap<usize, Vec<CudaSlice<u8>>>>,
    cached: Cell<usize>,
}

impl Pool {
    pub fn new(queue: Rc<Queue>) -> Pool {
        Pool {
            queue,
            free: RefCell::new(HashMap::new()),
            cached: Cell::new(0),
        }
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        self.queue.stream()
    }

    pub fn queue(&self) -> &Rc<Queue> {
        &self.queue
    }

    /// Device memory for `bytes` bytes ([`alloc_size`] of them), reused when possible.
    /// The contents are unspecified: callers overwrite them.
    pub fn take(&self, bytes: usize) -> Result<CudaSlice<u8>, DriverError> {
        let bytes = alloc_size(bytes);
        if let Some(s) = self.free.borrow_mut().get_mut(&bytes).and_then(Vec::pop) {
            self.cached.set(self.cached.get() - bytes);
            return Ok(s);
        }
        match self.stream().alloc_zeros::<u8>(bytes) {
            Ok(s) => Ok(s),
            Err(_) => {
                // Out of memory, perhaps because of cached blocks: free them and retry.
                self.free.borrow_mut().clear();
                self.cached.set(0);
                self.stream().alloc_zeros::<u8>(bytes)
            }
        }
    }

    /// Returns memory for reuse (or frees it when the cache is full).
    pub fn give(&self, s: CudaSlice<u8>) {
        let n = s.len();
        if self.cached.get() + n > KEEP {
            return;
        }
        self.cached.set(self.cached.get() + n);
        if let Ok(mut free) = self.free.try_borrow_mut() {
            free.entry(n).or_default().push(s);
        }
    }
}
