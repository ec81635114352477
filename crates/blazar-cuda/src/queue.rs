//! The one CUDA stream all device work runs on, and the host's waits for it.
//!
//! `toc` measures device time: from its `tic` to the end of the device work issued
//! before the `toc`, as CUDA C code measures with an event recorded after its last
//! operation. When the program last waited for the device (to read a value back) and
//! issued nothing since, that end is the moment the wait began, not the later moment
//! `toc` runs: so every wait first records a *fence* event (once timing has started),
//! and the queue counts the operations issued (launches, array operations, `tic`s)
//! to know whether the fence is still the end of the issued work. (A copy into
//! pageable host memory returns only when it is done, before the fence is recorded:
//! after such a read `toc` still counts the host's latency, the safe side.)
//!
//! The queue also holds the launches deferred behind their kernel's compile
//! ([`Deferred`]), and issues them ([`Queue::flush`]) before anything that must come
//! after them.

use crate::defer::Deferred;
use cudarc::driver::{sys::CUevent_flags, CudaEvent, CudaStream, DriverError};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::Arc;

pub struct Queue {
    stream: Arc<CudaStream>,
    /// Operations issued so far (a counter; only equality with `fenced` matters).
    issued: Cell<u64>,
    /// Recorded before the last wait, with the value of `issued` then.
    fence: RefCell<Option<CudaEvent>>,
    fenced: Cell<Option<u64>>,
    /// A `tic` has run: waits record the fence (an event record costs a driver call).
    timing: Cell<bool>,
    /// Launches waiting for their compile, in program order.
    pending: RefCell<VecDeque<Deferred>>,
}

impl Queue {
    pub fn new(stream: Arc<CudaStream>) -> Queue {
        Queue {
            stream,
            issued: Cell::new(0),
            fence: RefCell::new(None),
            fenced: Cell::new(None),
            timing: Cell::new(false),
            pending: RefCell::new(VecDeque::new()),
        }
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Notes that device work is about to be issued (a launch or an array operation,
    /// with its copies), or that a `tic` marks a new start: a fence recorded before
    /// this no longer ends the work `toc` measures.
    pub fn issue(&self) {
        self.issued.set(self.issued.get().wrapping_add(1));
    }

    /// Starts timing (the first `tic`): from now on, waits record the fence.
    pub fn start_timing(&self) {
        self.timing.set(true);
        self.issue();
    }

    /// Queues a launch behind the others waiting for their compile.
    pub fn defer(&self, d: Deferred) {
        self.pending.borrow_mut().push_back(d);
    }

    /// Whether launches are waiting for their compile.
    pub fn has_pending(&self) -> bool {
        !self.pending.borrow().is_empty()
    }

    /// Issues the waiting launches whose binaries have arrived, from the front, without
    /// waiting for a compile.
    pub fn issue_ready(&self) -> Result<(), String> {
        loop {
            let next = {
                let mut p = self.pending.borrow_mut();
                match p.front() {
                    Some(d) if d.module.ready() => p.pop_front(),
                    _ => None,
                }
            };
            match next {
                Some(d) => d.issue(&self.stream)?,
                None => return Ok(()),
            }
        }
    }

    /// Issues every waiting launch, in order, waiting for their compiles: called before
    /// anything that must follow them on the stream or touches their arrays.
    pub fn flush(&self) -> Result<(), String> {
        loop {
            let next = self.pending.borrow_mut().pop_front();
            match next {
                Some(d) => {
                    if let Err(e) = d.issue(&self.stream) {
                        // The rest depend on it: they are dropped, and the error reported.
                        self.pending.borrow_mut().clear();
                        return Err(e);
                    }
                }
                None => return Ok(()),
            }
        }
    }

    /// Waits until the device has finished everything queued so far (issuing the
    /// deferred launches first). When timing, a fence event is recorded first: the end
    /// of the work, before the host's latency.
    pub fn wait(&self) -> Result<(), String> {
        self.flush()?;
        self.wait_issued()
            .map_err(|e| crate::memory::driver("waiting for the device", e))
    }

    fn wait_issued(&self) -> Result<(), DriverError> {
        self.before_wait()?;
        self.stream.synchronize()
    }

    /// What the host does before it waits for the stream: when timing, records the
    /// fence (the end of the issued work, before the host's latency).
    pub fn before_wait(&self) -> Result<(), DriverError> {
        if self.timing.get() {
            let mut fence = self.fence.borrow_mut();
            if fence.is_none() {
                *fence = Some(
                    self.stream
                        .context()
                        .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?,
                );
            }
            if let Some(e) = fence.as_ref() {
                e.record(&self.stream)?;
                self.fenced.set(Some(self.issued.get()));
            }
        }
        Ok(())
    }

    /// `f` applied to the fence when nothing was issued since it was recorded (so the
    /// device's issued work ended there); `None` otherwise.
    pub fn with_quiet_fence<R>(&self, f: impl FnOnce(&CudaEvent) -> R) -> Option<R> {
        if self.fenced.get() != Some(self.issued.get()) {
            return None;
        }
        self.fence.borrow().as_ref().map(f)
    }
}
