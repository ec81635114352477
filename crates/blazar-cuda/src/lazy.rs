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
//!
//! A launch does not open the GPU when its work is small ([`SMALL_LAUNCH`], from the
//! kernel's estimated statements per work item, `blazar_kir::cost`, and the sizes of its
//! arrays): it runs on the CPU, the next backend of the chain, until the small launches
//! together reach [`OPEN_AFTER`]. A loop of ten thousand short iterations then takes
//! milliseconds on the CPU instead of the GPU's start-up.

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
    /// The estimated work of the launches left to the CPU while the GPU was closed.
    kept: u64,
}

/// The most work (statements executed, estimated by `blazar_kir::cost`, or elements of
/// the arrays it is handed) a launch may have to run on the CPU while the GPU is closed:
/// a few milliseconds of compiled CPU code, against the GPU's start-up of 350 to 600 ms.
pub const SMALL_LAUNCH: u64 = 1 << 22;

/// The work left to the CPU, all launches together, after which the GPU is opened
/// anyway: about the GPU's start-up in CPU time (renting until the rent paid equals
/// the price of buying).
pub const OPEN_AFTER: u64 = 1 << 27;

/// A launch's work: its work items times the statements of one (estimated), or the
/// elements of the arrays it is handed where that is more.
pub fn launch_work(k: &Kernel, plan: &LaunchPlan, arrays: &[ArrayRef]) -> u64 {
    let items = plan.data_dims[..plan.rank.clamp(1, 4) as usize]
        .iter()
        .fold(1u64, |n, &d| n.saturating_mul(d as u64));
    let per = blazar_kir::cost::work_per_item(k);
    let elements = arrays
        .iter()
        .filter_map(|a| a.meta().ok())
        .fold(0u64, |n, m| n.saturating_add(m.len() as u64));
    items.saturating_mul(per).max(elements)
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
                kept: 0,
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
        if matches!(shared.slot, Slot::Unopened) {
            // Small work stays on the CPU while the GPU is closed, until the CPU has
            // done about as much of it as opening the GPU costs.
            let work = launch_work(k, plan, arrays);
            if work <= SMALL_LAUNCH && shared.kept.saturating_add(work) <= OPEN_AFTER {
                shared.kept += work;
                return Ok(None);
            }
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

    fn empty_kernel() -> Rc<Kernel> {
        Rc::new(Kernel {
            name: "k".into(),
            rank: 1,
            params: vec![],
            outputs: vec![],
            vars: vec![],
            arrays: vec![],
            body: vec![],
            calls: Default::default(),
            facts: Default::default(),
        })
    }

    fn plan(items: usize) -> LaunchPlan {
        LaunchPlan {
            rank: 1,
            data_dims: [items, 1, 1, 1],
            block_dims: [1, 1, 1, 1],
            serial: false,
            block_given: false,
        }
    }

    /// Small launches go to the next backend without opening the GPU, until their work
    /// adds up to about its start-up; a large one opens it (here: tries, and is told).
    #[test]
    fn small_launches_stay_on_the_cpu_while_the_gpu_is_closed() {
        if crate::probe().is_ok() && CudaBackend::new("<probe>").is_ok() {
            return; // A GPU here: opening it would succeed.
        }
        let told = Rc::new(Cell::new(0));
        let t = told.clone();
        let mut b = LazyCuda::new("x.q", move |_| t.set(t.get() + 1));
        let k = empty_kernel();
        let small = SMALL_LAUNCH as usize;
        for _ in 0..(OPEN_AFTER / SMALL_LAUNCH) {
            assert!(b.launch(&k, &plan(small), &[], &[]).unwrap().is_none());
        }
        assert_eq!(told.get(), 0, "small launches do not open the GPU");
        // The budget is spent: the next launch, however small, opens it.
        assert!(b.launch(&k, &plan(1), &[], &[]).unwrap().is_none());
        assert_eq!(told.get(), 1);

        let told = Rc::new(Cell::new(0));
        let t = told.clone();
        let mut b = LazyCuda::new("x.q", move |_| t.set(t.get() + 1));
        assert!(b.launch(&k, &plan(small + 1), &[], &[]).unwrap().is_none());
        assert_eq!(told.get(), 1, "a large launch opens the GPU");
        // A large array handed to a launch of few work items counts its elements.
        let told = Rc::new(Cell::new(0));
        let t = told.clone();
        let mut b = LazyCuda::new("x.q", move |_| t.set(t.get() + 1));
        let big = ArrayRef::zeros(vec![small + 1], ElemType::F32);
        assert!(launch_work(&k, &plan(4), std::slice::from_ref(&big)) > SMALL_LAUNCH);
        assert!(b.launch(&k, &plan(4), &[], &[big]).unwrap().is_none());
        assert_eq!(told.get(), 1);
    }
}
