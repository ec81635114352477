//! The device a launch runs on: the CPU executor (built in) or a [`Backend`] that the
//! embedding program supplies (the CUDA runtime), behind one trait.
//!
//! The interpreter prepares every launch the same way (signature, specialised KIR,
//! launch plan, flattened arguments); only the last step differs. A backend receives
//! the arrays as shared references so that it can keep its own copies of them
//! (`blazar_runtime::Store`) and move data only when the other side needs it.

use blazar_cpu::{ArgVal, KValue, KernelError, LaunchPlan};
use blazar_kir::Kernel;
use blazar_runtime::{ArrayRef, Value};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// A device that runs specialised kernels.
pub trait Backend {
    /// A short name for messages (`cuda`).
    fn name(&self) -> &'static str;

    /// Runs `kernel` under `plan`. `args` are the flattened parameters in the kernel's
    /// order (`ArgVal::Array(i)` names `arrays[i]`, each distinct array once). Returns
    /// the kernel outputs in `kernel.outputs` order, or `None` when the backend leaves
    /// this launch to the CPU executor (a checking backend, or a kernel it cannot run).
    /// A backend may return before the device has finished, as long as host reads of
    /// the arrays wait for it.
    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError>;

    /// A whole-array host operation the backend may run where the data lives: a binary
    /// operator, or a reduction builtin (`sum`, `mean`, `min`, `max`) of one array.
    /// `None` lets the host run it (the arrays are downloaded when stale).
    fn array_op(&mut self, _op: ArrayOp, _args: &[Value]) -> Option<Result<Value, String>> {
        None
    }

    /// Waits for all queued work; reports a device error it raised.
    fn synchronize(&mut self) -> Result<(), KernelError>;

    /// One line about what the backend compiled and reused, for `BLAZAR_STATS=1`.
    fn stats(&self) -> Option<String> {
        None
    }
}

/// A host operation offered to [`Backend::array_op`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayOp {
    Binary(blazar_runtime::ops::BinOp),
    /// A builtin of one array argument, by name.
    Reduce(&'static str),
}

/// A shared handle on a backend, as kept in [`crate::Options`].
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
