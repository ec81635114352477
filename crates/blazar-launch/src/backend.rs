//! The `Backend` trait: the one contract between the interpreter and every device.
//!
//! The interpreter prepares every launch the same way (signature, specialised KIR,
//! launch plan, flattened arguments) and hands it to one backend; only that last step
//! differs between devices. A backend receives the arrays as shared references so that
//! it can keep its own copies of them (`blazar_value::Store`) and move data only when
//! the other side needs it. The CPU is a backend like any other; a backend that leaves
//! some launches to another one (a checking backend, a GPU that cannot run a kernel)
//! is composed with it by [`Chain`].

use crate::{ArgVal, KernelErrorKind};
use crate::{ArrayArg, KValue, KernelError, LaunchPlan};
use blazar_kir::Kernel;
use blazar_value::{Array, ArrayRef, ElemType, Value};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use std::time::Duration;

/// A device that runs specialised kernels.
pub trait Backend {
    /// A short name for messages (`cuda`, `cpu`).
    fn name(&self) -> &'static str;

    /// Runs `kernel` under `plan`. `args` are the flattened parameters in the kernel's
    /// order (`ArgVal::Array(i)` names `arrays[i]`, each distinct array once). Returns
    /// the kernel outputs in `kernel.outputs` order, or `None` when the backend leaves
    /// this launch to the next backend of a [`Chain`] (a checking backend, or a kernel
    /// it cannot run). A backend may return before the device has finished, as long as
    /// host reads of the arrays wait for it.
    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError>;

    /// A whole-array library operation the backend may run where the data lives (the
    /// matrix product). `None` lets the host run it (the arrays are downloaded when
    /// stale).
    fn array_op(&mut self, _op: ArrayOp, _args: &[Value]) -> Option<Result<Value, String>> {
        None
    }

    /// Whether arrays live on this device between statements (a GPU), so that host
    /// work on them costs a copy.
    fn keeps_arrays(&self) -> bool {
        false
    }

    /// A new array that a kernel will write whole (the result of a whole-array
    /// statement): on the host by default, in device memory on a GPU.
    fn alloc(&mut self, dims: Vec<usize>, elem: ElemType) -> Result<ArrayRef, String> {
        blazar_value::alloc::result(&dims, elem.size_bytes()).map_err(|e| e.message)?;
        Ok(ArrayRef::new(Array::for_overwrite(dims, elem)))
    }

    /// Whole-array expressions with fewer elements than this run on the host
    /// interpreter, where a kernel launch would cost more than it saves. The default is
    /// the CPU's crossover, measured on 2 cores for `y = x .* z + 1` (µs per statement,
    /// fused against host): 2.2/1.0 at 1024 elements (run on the calling thread),
    /// 20/5 at 16K, 35/18 at 64K, 49/190 at 256K: about 128K.
    fn fuse_min(&self) -> usize {
        1 << 17
    }

    /// How a whole-array reduction spreads over threads: `true` (a GPU), a fixed pool
    /// of threads each walking the elements with a grid stride, so few partial results
    /// are combined; `false` (the CPU), a thread per element accumulating into the
    /// kernel's output, so consecutive threads read consecutive elements and the C++
    /// tier combines them a vector at a time.
    fn grid_stride_reductions(&self) -> bool {
        true
    }

    /// Whether launching `kernel` under `plan` now would run compiled machine code (not
    /// an interpreter). Asking may start compiling it in the background. The host runs a
    /// serial loop on its own interpreter until its kernel is compiled, then moves it to
    /// the kernel (`blazar_interp`'s compiled host tier); the default, `false`, keeps
    /// host loops on the host interpreter.
    fn compiled_ready(&mut self, _kernel: &Rc<Kernel>, _plan: &LaunchPlan) -> bool {
        false
    }

    /// The compiled code of a one-thread `kernel` whose parameters are all values (no
    /// arrays), to be called directly, many times, without a launch's preparation
    /// (the compiled host tier's calls of small functions). `None` when the backend
    /// has no compiled code for it now; the default.
    fn direct_call(&mut self, _kernel: &Rc<Kernel>) -> Option<Box<dyn DirectCall>> {
        None
    }

    /// Runs the launches that follow on device `device` of a backend over several
    /// devices (`{!sched gpu_index=N}`), or lets placement choose again (`None`). A
    /// backend of one device ignores it, so a program pinned for several devices runs
    /// on one unchanged; an index past a multi-device backend's devices is an error.
    fn pin_device(&mut self, _device: Option<usize>) -> Result<(), String> {
        Ok(())
    }

    /// Waits for all queued work; reports a device error it raised.
    fn synchronize(&mut self) -> Result<(), KernelError>;

    /// One line about what the backend compiled and reused, for `BLAZAR_STATS=1`.
    fn stats(&self) -> Option<String> {
        None
    }

    /// Turns on measuring each launch on the device (`blazar run --profile`): a GPU
    /// records events around its kernels.
    fn set_profiling(&mut self, _on: bool) {}

    /// What the last launch cost beyond the host's wall clock, read after
    /// [`Backend::synchronize`]: the compile it waited for and, where the device can
    /// measure it, the kernel's own time. A backend resets it when a launch begins,
    /// also one it leaves to the next backend of a [`Chain`].
    fn last_timing(&mut self) -> LaunchTiming {
        LaunchTiming::default()
    }
}

/// A one-thread kernel's compiled code called directly ([`Backend::direct_call`]): the
/// same results and errors as launching it with a serial plan.
pub trait DirectCall {
    /// Runs the kernel once with `args`, one value per kernel parameter in order; its
    /// outputs in `kernel.outputs` order.
    fn call(&mut self, args: &[KValue]) -> Result<Vec<KValue>, KernelError>;
}

/// The parts of one launch that `--profile` shows apart from its wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LaunchTiming {
    /// Compiling the kernel before the launch (its first launch at a shape).
    pub compile: Duration,
    /// The kernel on the device, from events around it (a GPU); `None` where the
    /// device cannot tell it apart from the host's time.
    pub device: Option<Duration>,
}

/// A whole-array operation that is a library call on some devices, offered to
/// [`Backend::array_op`] (everything element-wise, every reduction and all data
/// movement are kernels made from AIR instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayOp {
    /// The matrix product `a * b` of two matrices (cuBLAS on the GPU).
    MatMul,
}

/// A shared handle on a backend, as kept by the interpreter.
#[derive(Clone)]
pub struct BackendRef(pub Rc<RefCell<dyn Backend>>);

impl BackendRef {
    pub fn new(b: impl Backend + 'static) -> BackendRef {
        BackendRef(Rc::new(RefCell::new(b)))
    }
}

impl fmt::Debug for BackendRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.try_borrow() {
            Ok(b) => write!(f, "Backend({})", b.name()),
            Err(_) => write!(f, "Backend(busy)"),
        }
    }
}

/// Two backends in order: each launch goes to `first`, and to `then` when `first`
/// leaves it (`None`). Array operations are offered to `first` only; synchronisation
/// waits for both.
pub struct Chain<A, B> {
    pub first: A,
    pub then: B,
}

impl<A: Backend, B: Backend> Backend for Chain<A, B> {
    fn name(&self) -> &'static str {
        self.first.name()
    }

    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        match self.first.launch(kernel, plan, args, arrays)? {
            Some(outs) => Ok(Some(outs)),
            None => self.then.launch(kernel, plan, args, arrays),
        }
    }

    fn array_op(&mut self, op: ArrayOp, args: &[Value]) -> Option<Result<Value, String>> {
        self.first.array_op(op, args)
    }

    fn keeps_arrays(&self) -> bool {
        self.first.keeps_arrays()
    }

    fn alloc(&mut self, dims: Vec<usize>, elem: ElemType) -> Result<ArrayRef, String> {
        self.first.alloc(dims, elem)
    }

    fn fuse_min(&self) -> usize {
        self.first.fuse_min()
    }

    fn grid_stride_reductions(&self) -> bool {
        self.first.grid_stride_reductions()
    }

    fn direct_call(&mut self, kernel: &Rc<Kernel>) -> Option<Box<dyn DirectCall>> {
        self.first
            .direct_call(kernel)
            .or_else(|| self.then.direct_call(kernel))
    }

    fn compiled_ready(&mut self, kernel: &Rc<Kernel>, plan: &LaunchPlan) -> bool {
        self.first.compiled_ready(kernel, plan) || self.then.compiled_ready(kernel, plan)
    }

    fn pin_device(&mut self, device: Option<usize>) -> Result<(), String> {
        self.first.pin_device(device)
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        self.first.synchronize()?;
        self.then.synchronize()
    }

    fn stats(&self) -> Option<String> {
        match (self.first.stats(), self.then.stats()) {
            (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
            (a, b) => a.or(b),
        }
    }

    fn set_profiling(&mut self, on: bool) {
        self.first.set_profiling(on);
        self.then.set_profiling(on);
    }

    fn last_timing(&mut self) -> LaunchTiming {
        // Each resets its own when a launch begins: the one that ran it reports.
        let (a, b) = (self.first.last_timing(), self.then.last_timing());
        LaunchTiming {
            compile: a.compile + b.compile,
            device: a.device.or(b.device),
        }
    }
}

/// Runs `f` over the host copies of `arrays` (downloaded first where a device copy is
/// newer), borrowed mutably for the launch: what a backend that computes on the host
/// passes to its executor.
pub fn with_host_arrays<R>(
    arrays: &[ArrayRef],
    f: impl FnOnce(&mut [ArrayArg]) -> Result<R, KernelError>,
) -> Result<R, KernelError> {
    let mut guards = Vec::with_capacity(arrays.len());
    for d in arrays {
        guards.push(d.try_borrow_mut().map_err(|_| {
            KernelError::new(
                0,
                KernelErrorKind::BadLaunch,
                "an array is in use and cannot be passed to a kernel",
            )
        })?);
    }
    let mut args: Vec<ArrayArg> = guards
        .iter_mut()
        .map(|g| {
            let g: &mut Array = g;
            ArrayArg {
                dims: g.dims.clone(),
                buf: &mut g.buf,
            }
        })
        .collect();
    f(&mut args)
}
