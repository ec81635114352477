//! `tic`/`toc` on the GPU: CUDA events on the launch stream. A `toc` measures device
//! time from its `tic` to the end of the work issued before it (the queue's fence when
//! the host has waited for that work already, see `queue`).

use crate::queue::Queue;
use blazar_runtime::builtins::time::DeviceTimer;
use cudarc::driver::{sys::CUevent_flags, CudaEvent};
use std::collections::HashMap;
use std::rc::Rc;

pub struct EventTimer {
    queue: Rc<Queue>,
    marks: HashMap<u64, CudaEvent>,
    next: u64,
}

impl EventTimer {
    pub fn new(backend: &crate::CudaBackend) -> EventTimer {
        EventTimer {
            queue: backend.pool_mem.queue().clone(),
            marks: HashMap::new(),
            next: 0,
        }
    }

    fn record(&self) -> Result<CudaEvent, String> {
        // The event marks the end of the work issued so far: deferred launches included.
        self.queue.flush()?;
        let stream = self.queue.stream();
        let e = stream
            .context()
            .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(|e| format!("cannot create a CUDA event: {e}"))?;
        e.record(stream)
            .map_err(|e| format!("cannot record a CUDA event: {e}"))?;
        Ok(e)
    }
}

fn timing_error(e: cudarc::driver::DriverError) -> String {
    format!("CUDA error while timing: {e}")
}

impl DeviceTimer for EventTimer {
    fn mark(&mut self) -> Result<u64, String> {
        self.queue.start_timing();
        let e = self.record()?;
        self.next += 1;
        // Keep the last few marks only: `toc` measures from recent `tic`s.
        if self.marks.len() > 64 {
            let oldest = self.next.saturating_sub(64);
            self.marks.retain(|&k, _| k >= oldest);
        }
        self.marks.insert(self.next, e);
        Ok(self.next)
    }

    fn elapsed_ms(&mut self, from: u64) -> Result<f64, String> {
        let start = self.marks.get(&from).ok_or("the matching tic is too old")?;
        // The host already waited for everything issued: the work ended at the fence.
        if let Some(r) = self.queue.with_quiet_fence(|f| start.elapsed_ms(f)) {
            return r.map(|ms| ms as f64).map_err(timing_error);
        }
        let end = self.record()?;
        start
            .elapsed_ms(&end)
            .map(|ms| ms as f64)
            .map_err(timing_error)
    }
}

/// `blazar run --profile` on the GPU: events recorded around each kernel, so the
/// profile shows the kernel's own time apart from the launch and the wait.
pub(crate) struct KernelClock {
    start: CudaEvent,
    end: CudaEvent,
    /// Both events were recorded around the last launch.
    armed: bool,
    /// Compiling (or loading) the last launch's kernel.
    pub compile: std::time::Duration,
}

impl KernelClock {
    pub fn new(stream: &cudarc::driver::CudaStream) -> Result<KernelClock, String> {
        let ev = || {
            stream
                .context()
                .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
                .map_err(|e| format!("cannot create a CUDA event: {e}"))
        };
        Ok(KernelClock {
            start: ev()?,
            end: ev()?,
            armed: false,
            compile: std::time::Duration::ZERO,
        })
    }

    /// A launch begins: nothing measured yet.
    pub fn reset(&mut self) {
        self.armed = false;
        self.compile = std::time::Duration::ZERO;
    }

    /// Just before the kernel is queued.
    pub fn before(&mut self, stream: &cudarc::driver::CudaStream) {
        self.armed = self.start.record(stream).is_ok();
    }

    /// Just after the kernel is queued.
    pub fn after(&mut self, stream: &cudarc::driver::CudaStream) {
        self.armed = self.armed && self.end.record(stream).is_ok();
    }

    /// The last kernel's device time (waits for it), once.
    pub fn take(&mut self) -> Option<std::time::Duration> {
        if !std::mem::take(&mut self.armed) {
            return None;
        }
        self.end.synchronize().ok()?;
        let ms = self.start.elapsed_ms(&self.end).ok()?;
        Some(std::time::Duration::from_secs_f64(ms as f64 / 1e3))
    }
}
