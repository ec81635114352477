//! `DebugBackend`: every kernel on the SIMT interpreter, observed by the [`Debugger`].
//!
//! The debugger lives in the backend for the whole run; the embedding program takes it
//! back at the end (`DebugBackend::take`) to read commands after the program ends.

use crate::Debugger;
use blazar_kir::Kernel;
use blazar_launch::{with_host_arrays, ArgVal, Backend, KValue, KernelError, LaunchPlan};
use blazar_runtime::ArrayRef;
use std::cell::RefCell;
use std::rc::Rc;

/// Runs kernels on the CPU's interpreter under the debugger.
pub struct DebugBackend {
    pub debugger: Rc<RefCell<Debugger>>,
}

impl Backend for DebugBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        let mut dbg = self.debugger.borrow_mut();
        with_host_arrays(arrays, |arrays| {
            blazar_cpu::launch_observed(k, plan, args, arrays, &mut *dbg).map(Some)
        })
    }

    /// Whole-array expressions stay on the host, so that only the program's own
    /// kernels stop.
    fn fuse_min(&self) -> usize {
        usize::MAX
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        Ok(())
    }
}
