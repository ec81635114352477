//! One GPU as a [`blazar_multi::Device`], for runs over several GPUs (`--devices 0,1`).
//!
//! Each `CudaDevice` owns a whole [`CudaBackend`] on its GPU (context, stream, memory
//! pool, compiled modules), and a buffer of it is an array private to that backend
//! ([`CudaBuffer`]): a store whose device copy is the backend's own. A launch hands the
//! backend views of those arrays with each argument's dims, so the single-GPU launch path
//! runs unchanged, and returns as soon as the kernel is queued on the GPU's stream
//! (unless the kernel can fail or has outputs: then the backend reads them back, or,
//! for a band of a split reduction, [`Device::start`] queues it and [`Device::finish`]
//! reads them once every GPU's band is queued).
//!
//! Order across GPUs comes from CUDA events: [`Device::record`] records one on the
//! GPU's stream, [`Device::wait`] makes another GPU's stream wait for it
//! (`cuStreamWaitEvent`), and the host never waits in between. A copy between GPUs is
//! one `cuMemcpyPeerAsync` on the destination's stream: direct over NVLink or PCIe
//! where `cuDeviceCanAccessPeer` allows it and [`open_all`] enabled peer access
//! (`cuCtxEnablePeerAccess`), staged by the driver through host memory otherwise
//! (reported as `staged`).

use crate::memory::{bytes_of_mut, driver, DeviceArray};
use crate::queue::Queue;
use crate::CudaBackend;
use blazar_kir::Kernel;
use blazar_launch::{ArgVal, ArrayOp, Backend, KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_multi::{
    event_of, own_buffer, CopyRoute, Device, DeviceBuffer, DeviceEvent, Event, OpResult,
};
use blazar_runtime::{Array, ArrayRef, Buffer, ElemType, Residency, Value};
use cudarc::driver::sys;
use cudarc::driver::{CudaEvent, CudaStream, DevicePtr};
use std::any::Any;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// A buffer in one GPU's memory: an array whose device copy holds the elements.
pub struct CudaBuffer {
    array: ArrayRef,
    gpu: usize,
    queue: Rc<Queue>,
}

impl CudaBuffer {
    /// Runs `f` on the device memory of the buffer.
    fn with_memory<R>(
        &self,
        f: impl FnOnce(&DeviceArray) -> Result<R, String>,
    ) -> Result<R, String> {
        let dev = self
            .array
            .data
            .device()
            .try_borrow()
            .map_err(|_| "internal error: a GPU buffer is in use".to_string())?;
        let da = dev
            .as_ref()
            .and_then(|d| d.as_any().downcast_ref::<DeviceArray>())
            .ok_or("internal error: a GPU buffer without device memory")?;
        f(da)
    }

    /// The device address of element `start` and the context it belongs to.
    fn address(&self, start: usize) -> Result<(u64, sys::CUcontext), String> {
        let stream = self.queue.stream();
        self.with_memory(|da| {
            let (ptr, _sync) = da.slice().device_ptr(stream);
            Ok((ptr + start as u64, stream.context().cu_ctx()))
        })
    }

    fn elem(&self) -> ElemType {
        self.array.data.host_unsynced().borrow().buf.elem()
    }
}

impl DeviceBuffer for CudaBuffer {
    fn download(&self, buf: &mut Buffer) -> Result<(), String> {
        let dev = self
            .array
            .data
            .device()
            .try_borrow()
            .map_err(|_| "internal error: a GPU buffer is in use".to_string())?;
        match dev.as_ref() {
            Some(d) if self.array.data.residency() != Residency::Zero => d.download(buf),
            _ => {
                *buf = Buffer::zeros(buf.elem(), buf.len());
                Ok(())
            }
        }
    }

    fn download_range(&self, buf: &mut Buffer, start: usize, len: usize) -> Result<(), String> {
        let size = buf.elem().size_bytes();
        let dst = bytes_of_mut(buf).ok_or("a cell array has no device copy")?;
        let (a, b) = (start * size, (start + len) * size);
        if b > dst.len() || a >= b {
            return Ok(());
        }
        // Launches deferred behind a compile may write these elements: issued first.
        self.queue.flush()?;
        self.with_memory(|da| {
            self.queue
                .stream()
                .memcpy_dtoh(&da.slice().slice(a..b), &mut dst[a..b])
                .map_err(|e| driver("a copy from the device", e))
        })?;
        self.queue.wait()
    }

    fn bytes(&self) -> usize {
        self.array
            .data
            .device()
            .try_borrow()
            .ok()
            .and_then(|d| d.as_ref().map(|d| d.bytes()))
            .unwrap_or(0)
    }

    fn retire(&mut self, readers: &[Event]) {
        // The memory returns to this GPU's pool, whose next user runs on this stream:
        // the stream first waits for the other GPUs' copies out of it.
        for e in readers {
            if let Ok(ev) = event_of::<GpuEvent>(e) {
                let _ = self.queue.stream().wait(&ev.0);
            }
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A CUDA event recorded on one GPU's stream.
pub struct GpuEvent(CudaEvent);

impl DeviceEvent for GpuEvent {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// GPU `ordinal` of the host, device `index` of the run.
pub struct CudaDevice {
    gpu: usize,
    backend: CudaBackend,
    /// Per device of the run: whether this GPU reads its memory directly.
    peers: Vec<bool>,
    /// Outputs of a started launch that came back at once.
    ready: Option<Vec<KValue>>,
    /// Under `--profile`: events around each kernel, and the time of those measured.
    clock: Option<Vec<(CudaEvent, CudaEvent)>>,
    busy: Duration,
}

/// Opens the GPUs `ordinals` as the devices of one run and enables peer access between
/// every two that allow it.
pub fn open_all(ordinals: &[usize], file_name: &str) -> Result<Vec<CudaDevice>, (usize, String)> {
    let mut devs = Vec::with_capacity(ordinals.len());
    for &i in ordinals {
        devs.push(CudaDevice::open(i, file_name).map_err(|e| (i, e))?);
    }
    let n = devs.len();
    for a in 0..n {
        devs[a].peers = vec![false; n];
        for b in 0..n {
            if a == b {
                continue;
            }
            let (ctx_a, ctx_b) = (
                devs[a].stream().context().clone(),
                devs[b].stream().context().clone(),
            );
            let mut can = 0;
            // SAFETY: both handles come from live contexts; `can` is a valid out pointer.
            let r = unsafe {
                sys::cuDeviceCanAccessPeer(&mut can, ctx_a.cu_device(), ctx_b.cu_device())
            };
            if r != sys::CUresult::CUDA_SUCCESS || can == 0 {
                continue;
            }
            if ctx_a.bind_to_thread().is_err() {
                continue;
            }
            // SAFETY: `ctx_a` is current; `ctx_b` is a live context of another GPU.
            let r = unsafe { sys::cuCtxEnablePeerAccess(ctx_b.cu_ctx(), 0) };
            devs[a].peers[b] = matches!(
                r,
                sys::CUresult::CUDA_SUCCESS | sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
            );
        }
    }
    Ok(devs)
}

impl CudaDevice {
    pub fn open(ordinal: usize, file_name: &str) -> Result<CudaDevice, String> {
        Ok(CudaDevice {
            gpu: ordinal,
            backend: CudaBackend::on_gpu(ordinal, file_name)?,
            peers: Vec::new(),
            ready: None,
            clock: None,
            busy: Duration::ZERO,
        })
    }

    fn stream(&self) -> &Arc<CudaStream> {
        self.backend.pool_mem.stream()
    }

    fn queue(&self) -> &Rc<Queue> {
        self.backend.pool_mem.queue()
    }

    fn mine<'a>(&self, b: &'a mut dyn DeviceBuffer) -> Result<&'a mut CudaBuffer, String> {
        own_buffer(b, self.gpu, |c: &CudaBuffer| c.gpu)
    }

    /// Makes the device copy of `b` hold `host` (one upload).
    fn put(&mut self, b: &CudaBuffer, host: Buffer) -> Result<(), String> {
        let n = host.len();
        *b.array.data.host_unsynced().borrow_mut() = Array::new(vec![n], host);
        b.array.data.set_residency(Residency::Host);
        crate::memory::ensure_on_device(&b.array, &self.backend.pool_mem)?;
        // The host buffer is not kept: the device copy is the buffer's only one.
        let elem = b.array.data.host_unsynced().borrow().buf.elem();
        *b.array.data.host_unsynced().borrow_mut() = Array::device_only(vec![n], elem);
        b.array.data.set_residency(Residency::Device);
        Ok(())
    }

    /// Runs `f` (a launch) between two timing events when profiling.
    fn timed<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        if self.clock.is_none() {
            return f(self);
        }
        let stream = self.stream().clone();
        let ev = || {
            stream
                .context()
                .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))
                .ok()
        };
        let start = ev();
        let _ = self.queue().flush();
        if let Some(s) = &start {
            let _ = s.record(&stream);
        }
        let r = f(self);
        let _ = self.queue().flush();
        if let (Some(s), Some(e)) = (start, ev()) {
            if e.record(&stream).is_ok() {
                if let Some(c) = self.clock.as_mut() {
                    c.push((s, e));
                }
            }
        }
        r
    }

    fn views(
        &self,
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Vec<ArrayRef>, KernelError> {
        let mut refs = Vec::with_capacity(arrays.len());
        for (dims, b) in arrays.iter_mut() {
            let b = self.mine(&mut **b).map_err(bad)?;
            refs.push(b.array.reshaped(dims.clone()));
        }
        Ok(refs)
    }
}

fn bad(msg: String) -> KernelError {
    KernelError::new(0, KernelErrorKind::BadLaunch, msg)
}

impl Device for CudaDevice {
    fn name(&self) -> String {
        format!("cuda{}", self.gpu)
    }

    fn alloc(&mut self, elem: ElemType, len: usize) -> Result<Box<dyn DeviceBuffer>, String> {
        let array = self.backend.alloc(vec![len], elem)?;
        Ok(Box::new(CudaBuffer {
            array,
            gpu: self.gpu,
            queue: self.queue().clone(),
        }))
    }

    fn upload(&mut self, dst: &mut dyn DeviceBuffer, src: &Buffer) -> Result<(), String> {
        let dst = self.mine(dst)?;
        let b = CudaBuffer {
            array: dst.array.clone(),
            gpu: dst.gpu,
            queue: dst.queue.clone(),
        };
        self.put(&b, src.clone())
    }

    fn zero(&mut self, dst: &mut dyn DeviceBuffer) -> Result<(), String> {
        let dst = self.mine(dst)?;
        dst.array.data.set_residency(Residency::Zero);
        crate::memory::ensure_on_device(&dst.array, &self.backend.pool_mem).map(|_| ())
    }

    fn copy_range_from(
        &mut self,
        dst: &mut dyn DeviceBuffer,
        src: &dyn DeviceBuffer,
        from: usize,
        start: usize,
        len: usize,
    ) -> Result<CopyRoute, String> {
        let src = src
            .as_any()
            .downcast_ref::<CudaBuffer>()
            .ok_or("internal error: a copy from another kind of device")?;
        let peer = self.peers.get(from).copied().unwrap_or(false);
        let dst = self.mine(dst)?;
        let size = dst.elem().size_bytes();
        if len == 0 {
            return Ok(CopyRoute::Peer);
        }
        // Launches deferred behind a compile on this GPU come first on its stream.
        self.backend.pool_mem.queue().flush()?;
        let (to, to_ctx) = dst.address(start * size)?;
        let (from_ptr, from_ctx) = src.address(start * size)?;
        let stream = self.stream().clone();
        stream
            .context()
            .bind_to_thread()
            .map_err(|e| driver("a copy between GPUs", e))?;
        // SAFETY: both ranges lie inside live allocations of `len * size` bytes from
        // `start` (the arrays have the same length and type); the source's writes are
        // ordered before this copy by the event the caller made this stream wait for,
        // and its memory is not reused before the copy (`retire`).
        unsafe {
            cudarc::driver::result::memcpy_peer_async(
                to_ctx,
                to,
                from_ctx,
                from_ptr,
                len * size,
                stream.cu_stream(),
            )
        }
        .map_err(|e| driver("a copy between GPUs", e))?;
        self.backend.pool_mem.queue().issue();
        Ok(if peer {
            CopyRoute::Peer
        } else {
            CopyRoute::Staged
        })
    }

    fn launch(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<Vec<KValue>, KernelError> {
        let refs = self.views(arrays)?;
        let gpu = self.gpu;
        match self.timed(|d| d.backend.launch(kernel, plan, args, &refs))? {
            Some(outs) => Ok(outs),
            None => Err(bad(format!(
                "GPU {gpu} cannot run kernel `{}` (a serial launch)",
                kernel.name
            ))),
        }
    }

    fn start(
        &mut self,
        kernel: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Result<(), KernelError> {
        self.backend.start_only = true;
        let r = self.launch(kernel, plan, args, arrays);
        self.backend.start_only = false;
        let outs = r?;
        self.ready = self.backend.started.is_none().then_some(outs);
        Ok(())
    }

    fn finish(&mut self) -> Result<Vec<KValue>, KernelError> {
        if let Some(outs) = self.ready.take() {
            return Ok(outs);
        }
        self.backend
            .finish_started()?
            .ok_or_else(|| bad("internal error: no launch was started".into()))
    }

    fn record(&mut self) -> Result<Event, String> {
        // The event ends the work issued so far: launches deferred behind a compile too.
        self.queue().flush()?;
        let ev = self
            .stream()
            .record_event(None)
            .map_err(|e| driver("recording an event", e))?;
        Ok(Rc::new(GpuEvent(ev)))
    }

    fn wait(&mut self, event: &Event) -> Result<(), String> {
        let ev = event_of::<GpuEvent>(event)?;
        self.queue().flush()?;
        self.stream()
            .wait(&ev.0)
            .map_err(|e| driver("waiting for another GPU", e))?;
        self.queue().issue();
        Ok(())
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        self.backend.synchronize()
    }

    fn set_profiling(&mut self, on: bool) {
        self.clock = on.then(Vec::new);
    }

    fn busy(&mut self) -> Option<Duration> {
        let clock = self.clock.as_mut()?;
        for (s, e) in clock.drain(..) {
            if e.synchronize().is_ok() {
                if let Ok(ms) = s.elapsed_ms(&e) {
                    self.busy += Duration::from_secs_f64(ms.max(0.0) as f64 / 1e3);
                }
            }
        }
        Some(self.busy)
    }

    fn array_op(
        &mut self,
        op: ArrayOp,
        args: &mut [(Vec<usize>, &mut dyn DeviceBuffer)],
    ) -> Option<Result<OpResult, String>> {
        let refs = match self.views(args) {
            Ok(r) => r,
            Err(e) => return Some(Err(e.message)),
        };
        let vals: Vec<Value> = refs.into_iter().map(Value::Array).collect();
        // cuBLAS runs in the current context: this GPU's, whichever GPU went last.
        if let Err(e) = self.stream().context().bind_to_thread() {
            return Some(Err(driver("a matrix product", e)));
        }
        let out = match self.timed(|d| d.backend.array_op(op, &vals))? {
            Ok(Value::Array(a)) => a,
            Ok(_) => return Some(Err("internal error: a matrix product gave no array".into())),
            Err(e) => return Some(Err(e)),
        };
        let Ok(meta) = out.meta() else {
            return Some(Err(
                "internal error: a matrix product's result is in use".into()
            ));
        };
        let array = out.reshaped(vec![meta.len()]);
        Some(Ok((
            meta.dims.clone(),
            meta.elem(),
            Box::new(CudaBuffer {
                array,
                gpu: self.gpu,
                queue: self.queue().clone(),
            }),
        )))
    }

    fn array_ops(&self) -> bool {
        true
    }

    fn declines(&self, kernel: &Kernel) -> Option<&'static str> {
        let deep =
            blazar_kir::visit::max_expr_depth(kernel) > blazar_kir::visit::MAX_COMPILED_DEPTH;
        if blazar_kir::calls::has_calls(kernel) {
            return Some("it calls functions (recursion), which CUDA code here cannot");
        }
        deep.then_some("its expressions nest too deeply for NVRTC")
    }

    fn serial_launches(&self) -> bool {
        false
    }

    fn grid_stride_reductions(&self) -> bool {
        self.backend.grid_stride_reductions()
    }

    fn fuse_min(&self) -> usize {
        self.backend.fuse_min()
    }
}
