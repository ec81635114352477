//! Device memory shared with other libraries (DLPack from Python: CuPy, PyTorch), so a
//! Blazar kernel works on their arrays in place and hands its results to them, with no
//! copy through the host.
//!
//! In: [`External::wrap`] makes an array whose device copy *is* the lender's memory (a
//! `DeviceArray` that never frees it and keeps the lender's owner alive until the array
//! dies); the host copy is stale, so a host read downloads it, and kernel writes land in
//! the lender's array. Out: [`External::export`] hands a result's device memory to the
//! caller as an [`Exported`] (taken from the array when only the result holds it, else a
//! device-to-device copy), which frees it when dropped, from any thread.
//!
//! All of Blazar's device work runs on the context's legacy default stream (CUDA stream
//! handle 0, DLPack's stream number 1): a producer asked for that stream orders its
//! writes before Blazar's reads, and an export is only made after Blazar's work is done.

use crate::memory::{driver, ensure_on_device, oom_or, DeviceArray};
use crate::pool::Pool;
use blazar_runtime::{Array, ArrayRef, ElemType, Residency};
use cudarc::driver::{CudaContext, CudaSlice, DevicePtr};
use std::any::Any;
use std::rc::Rc;
use std::sync::Arc;

/// A handle on a [`crate::CudaBackend`]'s memory for sharing with other libraries.
#[derive(Clone)]
pub struct External {
    pool: Rc<crate::pool::Pool>,
    ctx: Arc<CudaContext>,
}

/// A result's device memory, owned: freed (ordered after Blazar's work) when dropped.
pub struct Exported {
    slice: CudaSlice<u8>,
    ordinal: usize,
}

impl Exported {
    /// The device address of the first element.
    pub fn ptr(&self) -> u64 {
        self.slice.device_ptr(self.slice.stream()).0
    }

    /// The GPU it is on (its CUDA ordinal).
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }
}

impl External {
    pub(crate) fn new(pool: Rc<Pool>, ctx: Arc<CudaContext>) -> External {
        External { pool, ctx }
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

    /// The device memory of `a` (uploaded first when the host copy is newer), after
    /// Blazar's work on it: moved out of the array when only this reference holds it,
    /// else copied on the device.
    pub fn export(&self, a: &ArrayRef) -> Result<Exported, String> {
        let meta = a.meta().map_err(|_| "an array is in use".to_string())?;
        let bytes = meta.len() * meta.elem().size_bytes();
        ensure_on_device(a, &self.pool)?;
        self.pool.queue().flush()?;
        let ordinal = self.ordinal();
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
                self.pool.queue().wait()?;
                return Ok(Exported { slice, ordinal });
            }
        }
        let stream = self.pool.stream();
        let mut copy = stream
            .alloc_zeros::<u8>(crate::pool::alloc_size(bytes))
            .map_err(|e| oom_or(e, bytes))?;
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
        self.pool.queue().wait()?;
        Ok(Exported {
            slice: copy,
            ordinal,
        })
    }
}
