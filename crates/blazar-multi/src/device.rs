//! The `Device` contract: what [`MultiBackend`](crate::MultiBackend) asks of each
//! device it drives (a simulated one, a GPU).
//!
//! A device owns a queue of work executed in order (a CUDA stream; a simulated
//! device's list of operations). Launches and copies are enqueued and may return
//! before they have run; the host waits only when it reads a buffer
//! ([`DeviceBuffer::download`]) or asks for a launch's outputs. Work on two devices is
//! ordered only by [`Event`]s: [`Device::record`] marks the end of what a device has
//! queued so far, and [`Device::wait`] makes another device's later work wait for it
//! without the host waiting.

use blazar_kir::Kernel;
use blazar_launch::{ArgVal, ArrayOp, KValue, KernelError, LaunchPlan};
use blazar_value::{Buffer, ElemType};
use std::any::Any;
use std::rc::Rc;
use std::time::Duration;

/// A point in one device's queue (a CUDA event; a simulated device's operation count).
pub trait DeviceEvent: Any {
    fn as_any(&self) -> &dyn Any;
}

/// A recorded point in a device's queue, shared by the arrays whose writes it ends.
pub type Event = Rc<dyn DeviceEvent>;

/// `event` as an event of the device kind `T` (each kind waits only for its own).
pub fn event_of<T: DeviceEvent>(event: &Event) -> Result<&T, String> {
    event
        .as_any()
        .downcast_ref::<T>()
        .ok_or_else(|| "internal error: a device waits for another kind of device's event".into())
}

/// `buf` as a buffer of the device kind `T` that device `me` owns (`owner` tells which
/// device owns a buffer of that kind): a device writes only into its own memory.
pub fn own_buffer<T: DeviceBuffer>(
    buf: &mut dyn DeviceBuffer,
    me: usize,
    owner: fn(&T) -> usize,
) -> Result<&mut T, String> {
    match buf.as_any_mut().downcast_mut::<T>() {
        Some(b) if owner(b) == me => Ok(b),
        Some(b) => Err(format!(
            "internal error: device {me} was handed a buffer of device {}",
            owner(b)
        )),
        None => Err(format!(
            "internal error: device {me} was handed another kind of device's buffer"
        )),
    }
}

/// The result of a library operation on a device: its dims, element type and buffer.
pub type OpResult = (Vec<usize>, ElemType, Box<dyn DeviceBuffer>);

/// A buffer in one device's memory, holding the elements of one array.
pub trait DeviceBuffer: Any {
    /// Copies the elements into `buf` (host memory of the array's length and type),
    /// after the device has finished writing them.
    fn download(&self, buf: &mut Buffer) -> Result<(), String>;
    /// Copies elements `start..start + len` into the same elements of `buf`, after the
    /// device has finished writing them.
    fn download_range(&self, buf: &mut Buffer, start: usize, len: usize) -> Result<(), String>;
    /// Bytes of device memory held.
    fn bytes(&self) -> usize;
    /// The buffer is about to be freed: its memory must not be reused before the
    /// `readers` (events of other devices whose queued copies read it) have passed.
    fn retire(&mut self, _readers: &[Event]) {}
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// How a copy between two devices went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyRoute {
    /// Directly between the two devices' memories (peer access).
    Peer,
    /// Down to the host and up again.
    Staged,
}

/// One device: its own memory and its own queue of work.
pub trait Device {
    /// A short name for messages and `--profile` (`sim0`, `cuda1`).
    fn name(&self) -> String;

    /// A buffer of `len` elements of type `elem` in this device's memory; its contents
    /// are unspecified until written.
    fn alloc(&mut self, elem: ElemType, len: usize) -> Result<Box<dyn DeviceBuffer>, String>;

    /// Copies the host elements `src` into `dst` (a buffer of this device).
    fn upload(&mut self, dst: &mut dyn DeviceBuffer, src: &Buffer) -> Result<(), String>;

    /// Sets every element of `dst` to zero (without a copy from the host).
    fn zero(&mut self, dst: &mut dyn DeviceBuffer) -> Result<(), String>;

    /// Copies elements `start..start + len` of `src`, a buffer of device `from`, into
    /// the same elements of `dst`, a buffer of this one, on this device's queue: peer to
    /// peer where the two can, staged through the host otherwise. The caller has made
    /// this device wait for the event that ends `src`'s last write.
    fn copy_range_from(
        &mut self,
        dst: &mut dyn DeviceBuffer,
        src: &dyn DeviceBuffer,
        from: usize,
        start: usize,
        len: usize,
    ) -> Result<CopyRoute, String>;

    /// Runs `kernel` under `plan` on buffers of this device: `arrays[i]` is the
    /// buffer of `ArgVal::Array(i)` with that argument's dims. Returns the kernel's
    /// outputs. It may return before the kernel has finished when the kernel has no
    /// outputs, as long as a later download or copy out of these buffers waits for it.
    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Vec<KValue>, KernelError>;

    /// Enqueues a launch as [`Device::launch`] does but leaves its outputs (and its
    /// errors) to [`Device::finish`], so that several devices can run a split
    /// reduction at once. At most one launch is started and not finished at a time.
    fn start(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<(), KernelError>;

    /// Waits for the launch [`Device::start`] enqueued and returns its outputs.
    fn finish(&mut self) -> Result<Vec<KValue>, KernelError>;

    /// An event marking the end of the work queued on this device so far.
    fn record(&mut self) -> Result<Event, String>;

    /// Makes this device's later work wait for `event` (recorded on any device), without
    /// the host waiting.
    fn wait(&mut self, event: &Event) -> Result<(), String>;

    /// Waits for this device's queued work; reports an error it raised.
    fn synchronize(&mut self) -> Result<(), KernelError>;

    /// Starts (or stops) measuring how long the device runs kernels.
    fn set_profiling(&mut self, _on: bool) {}

    /// How long the device has run kernels so far (waits for the queued ones).
    fn busy(&mut self) -> Option<Duration> {
        None
    }

    /// Runs a whole-array library operation (the matrix product) on buffers of this
    /// device, `args[i]` holding the `i`-th operand with its dims: the result as a new
    /// buffer of this device with its dims and element type; `None` leaves it to the
    /// host. Asked only of
    /// a device whose [`Device::array_ops`] is true.
    fn array_op(
        &mut self,
        _op: ArrayOp,
        _args: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Option<Result<OpResult, String>> {
        None
    }

    /// Whether the device runs library operations ([`Device::array_op`]: a GPU's
    /// cuBLAS); a simulated device leaves them to the host.
    fn array_ops(&self) -> bool {
        false
    }

    /// Why the device cannot run `kernel`, if it cannot (the host executor runs it).
    fn declines(&self, _kernel: &Kernel) -> Option<&'static str> {
        None
    }

    /// Whether the device runs serial launches (`serial_do`, host loops as kernels); a
    /// GPU leaves them to the host executor.
    fn serial_launches(&self) -> bool {
        true
    }

    /// See [`Backend::grid_stride_reductions`](blazar_launch::Backend::grid_stride_reductions)
    /// (asked only of a run on one device: a split reduction reads its own elements).
    fn grid_stride_reductions(&self) -> bool {
        false
    }

    /// Whether the device's memory lives across launches separately from the host (a
    /// GPU): see [`Backend::fuse_min`](blazar_launch::Backend::fuse_min).
    fn fuse_min(&self) -> usize {
        1 << 17
    }
}
