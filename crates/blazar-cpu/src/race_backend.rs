//! `RaceBackend`: every kernel on the SIMT interpreter, observed by the race detector.
//!
//! `blazar run --check-races` runs kernels through this backend: each launch runs
//! serially on the calling thread (`launch_observed`), and the races found
//! accumulate, deduplicated over the whole run, in the shared [`RaceDetector`] that
//! the embedding program reads at the end.

use crate::races::RaceDetector;
use blazar_kir::Kernel;
use blazar_launch::{with_host_arrays, ArgVal, Backend, KValue, KernelError, LaunchPlan};
use blazar_runtime::ArrayRef;
use std::cell::RefCell;
use std::rc::Rc;

/// Runs kernels on the CPU under the race detector.
#[derive(Default)]
pub struct RaceBackend {
    pub detector: Rc<RefCell<RaceDetector>>,
}

impl RaceBackend {
    /// A backend and the detector it fills.
    pub fn new() -> (RaceBackend, Rc<RefCell<RaceDetector>>) {
        let b = RaceBackend::default();
        let d = b.detector.clone();
        (b, d)
    }
}

impl Backend for RaceBackend {
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
        let mut det = self.detector.borrow_mut();
        with_host_arrays(arrays, |arrays| {
            crate::launch_observed(k, plan, args, arrays, &mut *det).map(Some)
        })
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        Ok(())
    }
}
