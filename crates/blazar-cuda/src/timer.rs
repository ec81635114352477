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
