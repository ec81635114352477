//! Device memory shared with other libraries (DLPack from Python: CuPy, PyTorch), so a
//! Blazar kernel works on their arrays in place and hands its results to them, with no
//! copy through the host.
//!
//! In: [`External::wrap`] makes an array whose device copy *is* the lender's memory (a
//! `DeviceArray` that never frees it and keeps the lender's owner alive until the array
//! dies); the host copy is stale, so a host read downloads it, and kernel writes land in
//! the lender's array. Out: [`External::export`] hands a result's device memory to the
//! caller as an [`Exported`] (taken from the array when only the result holds it, else a
//! device-to-device copy into pool memory). When the consumer lets go of it, from any
//! thread, the memory goes home to Blazar's pool (`reuse`), ready for the next result.
//!
//! All of Blazar's device work runs on the context's legacy default stream (CUDA stream
//! handle 0, DLPack's stream number 1). Nothing here waits for the device: a producer
//! asked for that stream orders its writes before Blazar's reads; a consumer on the
//! legacy stream, the per-thread default stream or any blocking stream is ordered after
//! Blazar's work by CUDA's implicit synchronisation, and one on a non-blocking stream
//! is made to wait for an event ([`Exported::order_before`], [`External::order_before`]).

use crate::cache::DiskCache;
use crate::memory::{driver, ensure_on_device, oom_or, DeviceArray};
use crate::pool::Pool;
use crate::reuse::{send_home, Inbox, PoolStats};
use crate::strided::{Copier, View};
use blazar_runtime::{Array, ArrayRef, ElemType, Residency};
use cudarc::driver::{sys, CudaContext, CudaSlice, DevicePtr};
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

/// A handle on a [`crate::CudaBackend`]'s memory for sharing with other libraries.
#[derive(Clone)]
pub struct External {
    pool: Rc<crate::pool::Pool>,
    ctx: Arc<CudaContext>,
    /// What compiling the strided copy kernels needs: architecture, NVRTC version and
    /// the cubin cache; the kernels once loaded (`strided`).
    arch: u32,
    nvrtc: (i32, i32),
    cache: DiskCache,
    copier: Rc<RefCell<Option<Rc<Copier>>>>,
}

/// A result's device memory, owned until dropped, when it goes home to the pool it came
/// from (or is freed, when that pool is gone).
pub struct Exported {
    /// Always `Some` until dropped.
    slice: Option<CudaSlice<u8>>,
    ordinal: usize,
    ctx: Arc<CudaContext>,
    home: Weak<Inbox<CudaSlice<u8>>>,
    /// A consumer works on it on a stream not ordered with Blazar's: the pool waits for
    /// the device before reusing it.
    unordered: AtomicBool,
}

impl Exported {
    /// The device address of the first element.
    pub fn ptr(&self) -> u64 {
        let s = self.slice.as_ref().expect("an exported array has memory");
        s.device_ptr(s.stream()).0
    }

    /// The GPU it is on (its CUDA ordinal).
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    /// Orders the work of a consumer on DLPack stream `stream` (`__dlpack__(stream=...)`:
    /// None, 1 the legacy default stream, 2 the per-thread default stream, -1 no
    /// ordering asked, else a `CUstream` handle) after Blazar's work on this memory, and
    /// notes a consumer whose later work the pool cannot order itself after.
    pub fn order_before(&self, stream: Option<i64>) -> Result<(), String> {
        match order_after_blazar(&self.ctx, stream)? {
            Ordered::Implicitly => {}
            Ordered::ByEvent | Ordered::NotAsked => self.unordered.store(true, Ordering::Relaxed),
        }
        Ok(())
    }
}

impl Drop for Exported {
    fn drop(&mut self) {
        let Some(s) = self.slice.take() else {
            return;
        };
        if let Some(s) = send_home(&self.home, s, self.unordered.load(Ordering::Relaxed)) {
            // The pool is gone: freed here, on this thread, with the context current.
            self.ctx.record_err(self.ctx.bind_to_thread());
            drop(s);
        }
    }
}

/// How a consumer's stream is ordered after Blazar's (the legacy default stream).
#[derive(Debug, PartialEq, Eq)]
pub enum Ordered {
    /// CUDA orders it (the legacy stream, the per-thread default stream, or a blocking
    /// stream, which synchronises with the legacy stream both ways).
    Implicitly,
    /// A non-blocking stream: made to wait for an event recorded on Blazar's stream.
    ByEvent,
    /// The consumer asked for no ordering (DLPack stream -1): it orders itself.
    NotAsked,
}

/// Makes work on DLPack stream `stream` wait for the work issued so far on Blazar's
/// stream (see [`Exported::order_before`]).
pub fn order_after_blazar(ctx: &Arc<CudaContext>, stream: Option<i64>) -> Result<Ordered, String> {
    // 0 is ambiguous in DLPack (the legacy or the per-thread stream): both are ordered.
    let handle = match stream {
        None | Some(0) | Some(1) | Some(2) => return Ok(Ordered::Implicitly),
        Some(-1) => return Ok(Ordered::NotAsked),
        Some(h) if h < 0 => return Err(format!("{h} is not a DLPack stream number")),
        Some(h) => h as usize as sys::CUstream,
    };
    ctx.bind_to_thread()
        .map_err(|e| driver("making the GPU current", e))?;
    let mut flags = 0u32;
    // SAFETY: the consumer passes a live stream of this context (DLPack's contract).
    unsafe { sys::cuStreamGetFlags(handle, &mut flags) }
        .result()
        .map_err(|e| driver("reading a stream's flags", e))?;
    if flags & sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32 == 0 {
        return Ok(Ordered::Implicitly);
    }
    let event = ctx
        .new_event(None)
        .map_err(|e| driver("creating an event", e))?;
    // SAFETY: the event is live (destroyed after the wait is enqueued, which CUDA allows)
    // and the stream is the consumer's, live during its `__dlpack__` call.
    unsafe {
        sys::cuEventRecord(event.cu_event(), std::ptr::null_mut())
            .result()
            .and_then(|()| sys::cuStreamWaitEvent(handle, event.cu_event(), 0).result())
    }
    .map_err(|e| driver("ordering a consumer's stream after Blazar's", e))?;
    Ok(Ordered::ByEvent)
}

impl External {
    pub(crate) fn new(
        pool: Rc<Pool>,
        ctx: Arc<CudaContext>,
        arch: u32,
        nvrtc: (i32, i32),
        cache: DiskCache,
    ) -> External {
        External {
            pool,
            ctx,
            arch,
            nvrtc,
            cache,
            copier: Rc::new(RefCell::new(None)),
        }
    }

    fn copier(&self) -> Result<Rc<Copier>, String> {
        if let Some(c) = self.copier.borrow().as_ref() {
            return Ok(c.clone());
        }
        let c = Rc::new(Copier::load(&self.ctx, self.arch, self.nvrtc, &self.cache)?);
        *self.copier.borrow_mut() = Some(c.clone());
        Ok(c)
    }

    /// A new contiguous array of `dims` and `elem` holding the elements of the strided
    /// view at `ptr` (element `strides`, DLPack's), gathered on the device (the copy is
    /// issued, not waited for).
    ///
    /// # Safety
    /// `ptr` must address every element of the view (device memory of this context),
    /// alive until the copy has run, with the lender's pending writes ordered before the
    /// legacy default stream.
    pub unsafe fn gather(
        &self,
        ptr: u64,
        dims: Vec<usize>,
        strides: &[i64],
        elem: ElemType,
    ) -> Result<ArrayRef, String> {
        let view = View::new(&dims, strides)?;
        let (a, dense) = crate::memory::new_device_array(&self.pool, dims, elem)?;
        a.data.set_residency(Residency::Device);
        if view.n > 0 {
            self.pool.queue().issue();
            self.copier()?.copy(
                self.pool.stream(),
                &view,
                elem.size_bytes(),
                ptr,
                dense,
                true,
            )?;
        }
        Ok(a)
    }

    /// Writes the elements of `a` (made by [`External::gather`]) back into the strided
    /// view at `ptr` (issued after Blazar's work on `a`, not waited for).
    ///
    /// # Safety
    /// As for [`External::gather`], and the view must not address one element twice
    /// ([`View::overlaps`]).
    pub unsafe fn scatter(
        &self,
        a: &ArrayRef,
        ptr: u64,
        dims: &[usize],
        strides: &[i64],
    ) -> Result<(), String> {
        let view = View::new(dims, strides)?;
        if view.overlaps() {
            return Err("internal error: a scatter into overlapping elements".into());
        }
        let meta = a.meta().map_err(|_| "an array is in use".to_string())?;
        if meta.len() as i64 != view.n {
            return Err("internal error: a strided view of another size".into());
        }
        if view.n == 0 {
            return Ok(());
        }
        let dense = ensure_on_device(a, &self.pool)?;
        self.pool.queue().flush()?;
        self.pool.queue().issue();
        self.copier()?.copy(
            self.pool.stream(),
            &view,
            meta.elem().size_bytes(),
            ptr,
            dense,
            false,
        )
    }

    /// The CUDA ordinal of Blazar's GPU.
    pub fn ordinal(&self) -> usize {
        self.ctx.ordinal()
    }

    /// An array of `dims` and `elem` over `bytes` bytes of device memory at `ptr`,
    /// which `owner` keeps alive (dropped when the array dies). Empty arrays have no
    /// device copy.
    ///
    /// # Safety
    /// `ptr` must address `bytes` bytes of device memory of this context, C-contiguous
    /// elements of `elem` in the shape `dims`, valid for reads and writes while `owner`
    /// lives, with the lender's pending writes ordered before the legacy default stream.
    pub unsafe fn wrap(
        &self,
        ptr: u64,
        bytes: usize,
        dims: Vec<usize>,
        elem: ElemType,
        owner: Box<dyn Any>,
    ) -> Result<ArrayRef, String> {
        let n: usize = dims.iter().product();
        if n.checked_mul(elem.size_bytes()) != Some(bytes) {
            return Err(format!(
                "internal error: {bytes} bytes for {n} elements of {}",
                elem.name()
            ));
        }
        if n == 0 {
            return Ok(ArrayRef::new(Array::for_overwrite(dims, elem)));
        }
        let slice = self.pool.stream().upgrade_device_ptr::<u8>(ptr, bytes);
        let a = ArrayRef::new(Array::device_only(dims, elem));
        *a.data.device().borrow_mut() =
            Some(Box::new(DeviceArray::lent(slice, self.pool.clone(), owner)));
        a.data.set_residency(Residency::Device);
        Ok(a)
    }

    /// Makes the device copy of `a` current again after host code wrote the array (an
    /// element store, a kernel the CPU ran): a newer host copy is uploaded into the
    /// device memory the array wraps, so the lender sees what Blazar wrote.
    pub fn settle(&self, a: &ArrayRef) -> Result<(), String> {
        if matches!(a.data.residency(), Residency::Device | Residency::Both) {
            return Ok(());
        }
        ensure_on_device(a, &self.pool)?;
        self.pool.queue().wait()
    }

    /// The device memory of `a` (uploaded first when the host copy is newer), issued
    /// after Blazar's work on it (no wait: see the module documentation): moved out of
    /// the array when only this reference holds it, else copied on the device into pool
    /// memory.
    pub fn export(&self, a: &ArrayRef) -> Result<Exported, String> {
        let meta = a.meta().map_err(|_| "an array is in use".to_string())?;
        let bytes = meta.len() * meta.elem().size_bytes();
        ensure_on_device(a, &self.pool)?;
        self.pool.queue().flush()?;
        let out = |slice| Exported {
            slice: Some(slice),
            ordinal: self.ordinal(),
            ctx: self.ctx.clone(),
            home: self.pool.home(),
            unordered: AtomicBool::new(false),
        };
        if std::rc::Rc::strong_count(&a.data) == 1 {
            let mut dev = a.data.device().borrow_mut();
            let owned = dev
                .as_deref_mut()
                .and_then(|d| d.as_any_mut().downcast_mut::<DeviceArray>())
                .and_then(DeviceArray::take_owned);
            if let Some(slice) = owned {
                *dev = None;
                drop(dev);
                a.data.set_residency(Residency::Host);
                return Ok(out(slice));
            }
        }
        let stream = self.pool.stream();
        let mut copy = self.pool.take(bytes).map_err(|e| oom_or(e, bytes))?;
        self.pool.note_export_copy();
        {
            let dev = a.data.device().borrow();
            let src = dev
                .as_deref()
                .and_then(|d| d.as_any().downcast_ref::<DeviceArray>())
                .ok_or("internal error: no device copy to export")?;
            if bytes > 0 {
                stream
                    .memcpy_dtod(&src.slice().slice(0..bytes), &mut copy.slice_mut(0..bytes))
                    .map_err(|e| driver("a copy on the device", e))?;
            }
        }
        Ok(out(copy))
    }

    /// Issues the launches deferred behind a compile (the end of a call whose arrays
    /// stay on the device: their work must be on the stream before the caller's).
    pub fn flush(&self) -> Result<(), String> {
        self.pool.queue().flush()
    }

    /// Orders the caller's work on `stream` (a `CUstream` handle; 0 the legacy stream)
    /// after the work Blazar issued so far (see [`order_after_blazar`]).
    pub fn order_before(&self, stream: u64) -> Result<Ordered, String> {
        let s = match stream {
            0 => None,
            h => Some(h as i64),
        };
        order_after_blazar(&self.ctx, s)
    }

    /// The pool's counts: allocations, reuses, memory come home, copies on export.
    pub fn stats(&self) -> PoolStats {
        self.pool.stats()
    }
}
