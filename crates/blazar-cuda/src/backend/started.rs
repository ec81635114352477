//! The second half of a launch started with `start_only` set: its error record and
//! outputs read back later, so that several GPUs run their bands of a split reduction
//! at once (`multi::CudaDevice::start` and `finish`).

use super::{CudaBackend, REC};
use crate::errors;
use blazar_launch::{KValue, KernelError};

impl CudaBackend {
    /// Waits for the launch `start_only` left unread and returns its outputs; `None`
    /// when no launch was left (it had nothing to read back, or returned at once).
    pub(crate) fn finish_started(&mut self) -> Result<Option<Vec<KValue>>, KernelError> {
        let Some((name, m)) = self.started.take() else {
            return Ok(None);
        };
        let nout = m.gen.outputs.len();
        let bytes = self.read_back(&name, nout)?;
        Ok(Some(
            m.gen
                .outputs
                .iter()
                .enumerate()
                .map(|(i, o)| errors::finish(o, &bytes[REC + 16 * i..REC + 16 + 16 * i]))
                .collect(),
        ))
    }
}
