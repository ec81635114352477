//! `tic`/`toc` on the GPU: CUDA events recorded on the launch stream, so a `toc`
//! measures device time of the work queued since its `tic` (after waiting for it).

use blazar_runtime::builtins::time::DeviceTimer;
use cudarc::driver::{sys::CUevent_flags, CudaContext, CudaEvent, CudaStream};
use std::collections::HashMap;
use std::sync::Arc;

pub struct EventTimer {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    marks: HashMap<u64, CudaEvent>,
    next: u64,
}

impl EventTimer {
    pub fn new(backend: &crate::CudaBackend) -> EventTimer {
        EventTimer {
            ctx: backend.ctx.clone(),
            stream: backend.stream.clone(),
            marks: HashMap::new(),
            next: 0,
        }
    }

    fn record(&self) -> Result<CudaEvent, String> {
        let e = self
            .ctx
            .new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))
            .map_err(|e| format!("cannot create a CUDA event: {e}"))?;
        e.record(&self.stream)
            .map_err(|e| format!("cannot record a CUDA event: {e}"))?;
        Ok(e)
    }
}

impl DeviceTimer for EventTimer {
    fn mark(&mut self) -> Result<u64, String> {
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
        let end = self.record()?;
        let start = self.marks.get(&from).ok_or("the matching tic is too old")?;
        start
            .elapsed_ms(&end)
            .map(|ms| ms as f64)
            .map_err(|e| format!("CUDA error while timing: {e}"))
    }
}
