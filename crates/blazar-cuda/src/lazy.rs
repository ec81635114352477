//! Opening the GPU on first use (`blazar run --device auto`).
//!
//! Creating the CUDA context costs about 350 ms on a GPU machine: a program that never
//! launches a kernel, allocates device memory or runs a matrix product should not pay
//! it. [`LazyCuda`] is a backend that opens [`CudaBackend`] at the first of those (or at
//! the first `tic`, through [`LazyTimer`]); when opening fails there, the failure is
//! reported once (the caller's `note`) and the launches go to the next backend of the
//! chain (the CPU), as `--device auto` does when no GPU is found at the start.
//! Until then it answers the planning questions (`keeps_arrays`, `fuse_min`, ...) as
//! the GPU would, so a program plans the same launches as with the GPU opened eagerly.

use crate::{CudaBackend, EventTimer};
use blazar_kir::Kernel;
use blazar_launch::{ArgVal, ArrayOp, Backend, KValue, KernelError, LaunchPlan, LaunchTiming};
use blazar_runtime::builtins::time::DeviceTimer;
use blazar_runtime::{Array, ArrayRef, ElemType, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

enum Slot {
    Unopened,
    Open(Box<CudaBackend>),
    Failed,
}

/// What the backend and the timer share: the GPU once opened.
struct Shared {
    file_name: String,
    slot: Slot,
    /// Told once why the GPU could not be opened.
    note: Box<dyn Fn(&str)>,
}

impl Shared {
    /// The GPU, opened now if it was not yet; `None` when it cannot be.
    fn open(&mut self) -> Option<&mut CudaBackend> {
        if matches!(self.slot, Slot::Unopened) {
            self.slot = match CudaBackend::new(&self.file_name) {
                Ok(b) => Slot::Open(Box::new(b)),
                Err(e) => {
                    (self.note)(&e);
                    Slot::Failed
                }
            };
        }
        match &mut self.slot {
            Slot::Open(b) => Some(b),
            _ => None,
        }
    }

    fn opened(&self) -> Option<&CudaBackend> {
        match &self.slot {
            Slot::Open(b) => Some(b),
            _ => None,
        }
    }
}

/// A [`CudaBackend`] opened at its first use.
pub struct LazyCuda {
    shared: Rc<RefCell<Shared>>,
}

impl LazyCuda {
    /// A backend for `file_name` that opens GPU 0 when first needed; `note` is told the
    /// reason once if that fails (the launches then go to the next backend).
    pub fn new(file_name: &str, note: impl Fn(&str) + 'static) -> LazyCuda {
        LazyCuda {
            shared: Rc::new(RefCell::new(Shared {
                file_name: file_name.to_string(),
                slot: Slot::Unopened,
                note: Box::new(note),
            })),
        }
    }

    /// The `tic`/`toc` timer of this backend (it opens the GPU at the first `tic`).
    pub fn timer(&self) -> LazyTimer {
        LazyTimer {
            shared: self.shared.clone(),
            events: None,
            host: HashMap::new(),
            next: 0,
        }
    }

    /// Whether the GPU has been opened (for tests and statistics).
    pub fn is_open(&self) -> bool {
        self.shared.borrow().opened().is_some()
    }

    fn failed(&self) -> bool {
        matches!(self.shared.borrow().slot, Slot::Failed)
    }
}

impl Backend for LazyCuda {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        let mut shared = self.shared.borrow_mut();
        if plan.serial && !matches!(shared.slot, Slot::Open(_)) {
            // The GPU leaves serial launches (`serial_do`, host loops compiled as
            // one-thread kernels) to the CPU: they do not open it.
            return Ok(None);
        }
        match shared.open() {
            Some(b) => b.launch(k, plan, args, arrays),
            None => Ok(None),
        }
    }

    fn array_op(&mut self, op: ArrayOp, args: &[Value]) -> Option<Result<Value, String>> {
        self.shared.borrow_mut().open()?.array_op(op, args)
    }

    fn keeps_arrays(&self) -> bool {
        !self.failed()
    }

    fn alloc(&mut self, dims: Vec<usize>, elem: ElemType) -> Result<ArrayRef, String> {
        if let Some(b) = self.shared.borrow_mut().open() {
            return b.alloc(dims, elem);
        }
        blazar_runtime::alloc::result(&dims, elem.size_bytes()).map_err(|e| e.message)?;
        Ok(ArrayRef::new(Array::for_overwrite(dims, elem)))
    }

    fn fuse_min(&self) -> usize {
        match &self.shared.borrow().slot {
            Slot::Open(b) => b.fuse_min(),
            Slot::Unopened => 1 << 14,
            // The CPU's crossover (`Backend::fuse_min`'s default).
            Slot::Failed => 1 << 17,
        }
    }

    fn grid_stride_reductions(&self) -> bool {
        true
    }

    fn compiled_ready(&mut self, k: &Rc<Kernel>, plan: &LaunchPlan) -> bool {
        // Asking does not open the GPU: a host loop stays on the host until then.
        match &mut self.shared.borrow_mut().slot {
            Slot::Open(b) => b.compiled_ready(k, plan),
            _ => false,
        }
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        match &mut self.shared.borrow_mut().slot {
            Slot::Open(b) => b.synchronize(),
            _ => Ok(()),
        }
    }

    fn stats(&self) -> Option<String> {
        match &self.shared.borrow().slot {
            Slot::Open(b) => b.stats(),
            Slot::Unopened => Some("stats: device=unopened (no kernel ran on the GPU)".into()),
            Slot::Failed => None,
        }
    }

    fn set_profiling(&mut self, on: bool) {
        // Profiling a run is about its kernels: the GPU opens for it.
        if on {
            if let Some(b) = self.shared.borrow_mut().open() {
                b.set_profiling(true);
            }
        } else if let Slot::Open(b) = &mut self.shared.borrow_mut().slot {
            b.set_profiling(false);
        }
    }

    fn last_timing(&mut self) -> LaunchTiming {
        match &mut self.shared.borrow_mut().slot {
            Slot::Open(b) => b.last_timing(),
            _ => LaunchTiming::default(),
        }
    }
}

/// `tic`/`toc` for a [`LazyCuda`]: the first `tic` opens the GPU (timing is about
/// device work); where it cannot be opened, marks measure host time.
pub struct LazyTimer {
    shared: Rc<RefCell<Shared>>,
    events: Option<EventTimer>,
    /// Marks made without a GPU, by id (ids with the top bit set).
    host: HashMap<u64, Instant>,
    next: u64,
}

const HOST_MARK: u64 = 1 << 63;

impl DeviceTimer for LazyTimer {
    fn mark(&mut self) -> Result<u64, String> {
        if self.events.is_none() {
            let mut shared = self.shared.borrow_mut();
            if let Some(b) = shared.open() {
                self.events = Some(EventTimer::new(b));
            }
        }
        match self.events.as_mut() {
            Some(t) => t.mark(),
            None => {
                self.next += 1;
                if self.host.len() > 64 {
                    let oldest = self.next.saturating_sub(64);
                    self.host.retain(|&k, _| k & !HOST_MARK >= oldest);
                }
                self.host.insert(HOST_MARK | self.next, Instant::now());
                Ok(HOST_MARK | self.next)
            }
        }
    }

    fn elapsed_ms(&mut self, from: u64) -> Result<f64, String> {
        if from & HOST_MARK != 0 {
            let at = self.host.get(&from).ok_or("the matching tic is too old")?;
            return Ok(at.elapsed().as_secs_f64() * 1e3);
        }
        self.events
            .as_mut()
            .ok_or("internal error: a device mark without a device timer")?
            .elapsed_ms(from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Without a usable GPU (this test machine, or any without libcuda), nothing opens
    /// until asked, and the first use reports the reason once and runs on the host.
    #[test]
    fn opens_only_when_used_and_reports_a_failure_once() {
        if crate::probe().is_ok() && CudaBackend::new("<probe>").is_ok() {
            return; // A GPU here: covered by the GPU tests.
        }
        let told = Rc::new(Cell::new(0));
        let t = told.clone();
        let mut b = LazyCuda::new("x.q", move |_| t.set(t.get() + 1));
        assert!(b.keeps_arrays());
        assert_eq!(b.fuse_min(), 1 << 14);
        assert!(b.synchronize().is_ok());
        assert_eq!(told.get(), 0, "nothing opened before first use");
        let a = b.alloc(vec![3, 2], ElemType::F32).unwrap();
        assert_eq!(a.meta().unwrap().dims, vec![3, 2]);
        assert_eq!(told.get(), 1);
        assert!(!b.keeps_arrays());
        assert_eq!(b.fuse_min(), 1 << 17);
        let mut timer = b.timer();
        let m = timer.mark().unwrap();
        assert!(timer.elapsed_ms(m).unwrap() >= 0.0);
        assert_eq!(told.get(), 1, "the reason is told once");
        assert!(!b.is_open());
    }
}
