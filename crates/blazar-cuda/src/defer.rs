//! Launches waiting for their kernel's compile, so that a program's first run compiles
//! its kernels side by side instead of one after another.
//!
//! A launch whose binary is still compiling ([`Module::ready`] false) and that returns
//! nothing to the host (no outputs, no error record, no dynamic memory pool) is not
//! issued at once: it is prepared completely (arrays on the device, parameters packed,
//! written arrays marked newer on the device) and queued here, in program order, and the
//! host program goes on to its next statement, whose compile then starts too. The queue
//! is issued in order, waiting for each compile, before anything else touches the
//! stream or the device data those launches use: a copy to or from the device, a
//! launch that is not deferred, a matrix product, a timing event, a wait
//! ([`Queue::flush`](crate::queue::Queue::flush)). Each queued launch holds its arrays,
//! so their device memory cannot be freed or reused before it runs.

use crate::module::Module;
use crate::params::ParamBytes;
use blazar_runtime::ArrayRef;
use cudarc::driver::{CudaStream, LaunchConfig, PushKernelArg};
use std::rc::Rc;
use std::sync::Arc;

/// A prepared launch, waiting for its module's binary.
pub struct Deferred {
    pub module: Rc<Module>,
    pub params: Vec<ParamBytes>,
    pub cfg: LaunchConfig,
    /// The launch's arrays, kept alive (and their device copies with them) until it
    /// has been issued.
    pub keep: Vec<ArrayRef>,
}

impl Deferred {
    /// Issues the launch on `stream`, waiting for the compile if it still runs.
    pub fn issue(self, stream: &Arc<CudaStream>) -> Result<(), String> {
        let func = self.module.func(stream.context())?;
        let mut builder = stream.launch_builder(func);
        for p in &self.params {
            builder.arg(p);
        }
        // SAFETY: as for an immediate launch (`CudaBackend::launch`): the parameters are
        // laid out as the kernel declares them and every pointer is a device allocation
        // of an array in `keep`, alive until after this call, whose later uses are
        // ordered after the kernel on the same stream.
        let launched = unsafe { builder.launch(self.cfg) }
            .map(|_| ())
            .map_err(|e| format!("launching kernel `{}` failed: {e}", self.module.name));
        drop(self.keep);
        launched
    }
}
