//! The `Device` contract: what [`MultiBackend`](crate::MultiBackend) asks of each
//! device it drives (a simulated one, a GPU).

use blazar_kir::Kernel;
use blazar_launch::{ArgVal, KValue, KernelError, LaunchPlan};
use blazar_value::{Buffer, ElemType};
use std::any::Any;
use std::rc::Rc;

/// A buffer in one device's memory, holding the elements of one array.
pub trait DeviceBuffer: Any {
    /// Copies the elements into `buf` (host memory of the array's length and type),
    /// after the device has finished writing them.
    fn download(&self, buf: &mut Buffer) -> Result<(), String>;
    /// Bytes of device memory held.
    fn bytes(&self) -> usize;
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

    /// Copies `src`, a buffer of device `from` (another device), into `dst`, a buffer
    /// of this one, peer to peer where the two can, staged through the host otherwise.
    fn copy_from(
        &mut self,
        dst: &mut dyn DeviceBuffer,
        src: &dyn DeviceBuffer,
        from: usize,
    ) -> Result<CopyRoute, String>;

    /// Copies elements `start..start + len` of `src`, a buffer of device `from`, into
    /// the same elements of `dst`, a buffer of this one (the band of rows another
    /// device computed in a split launch).
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
    /// outputs. It may return before the kernel has finished, as long as a later
    /// download or copy out of these buffers waits for it.
    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Vec<KValue>, KernelError>;

    /// Waits for this device's queued work; reports an error it raised.
    fn synchronize(&mut self) -> Result<(), KernelError>;

    /// Why the device cannot run `kernel`, if it cannot (the host executor runs it).
    fn declines(&self, _kernel: &Kernel) -> Option<&'static str> {
        None
    }

    /// Whether the device runs serial launches (`serial_do`, host loops as kernels); a
    /// GPU leaves them to the host executor.
    fn serial_launches(&self) -> bool {
        true
    }

    /// See [`Backend::grid_stride_reductions`](blazar_launch::Backend::grid_stride_reductions).
    fn grid_stride_reductions(&self) -> bool {
        false
    }

    /// Whether the device's memory lives across launches separately from the host (a
    /// GPU): see [`Backend::fuse_min`](blazar_launch::Backend::fuse_min).
    fn fuse_min(&self) -> usize {
        1 << 17
    }
}
