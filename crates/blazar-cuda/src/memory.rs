//! Device copies of arrays and the residency protocol (DESIGN.md §3, "Data").
//!
//! An array's device copy is a [`DeviceArray`] attached to its shared
//! `blazar_runtime::Store`. Before a launch, [`ensure_on_device`] allocates the copy
//! if there is none and uploads the host elements only when the device copy is stale;
//! after the launch, [`mark_written`] tells the store that the device is newer, so the
//! next host read downloads once. Arrays a kernel only reads stay valid on both sides.

use crate::pool::Pool;
use blazar_runtime::{Array, ArrayRef, Buffer, DeviceCopy, ElemType, Residency};
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DriverError};
use std::any::Any;
use std::rc::Rc;
use std::sync::Arc;

/// One array's elements in device memory (given back to the pool when dropped), or in
/// memory another library lent (`external`: never freed here; `owner` keeps the lender's
/// allocation alive and is dropped with the array).
pub struct DeviceArray {
    /// Always `Some` until the array is dropped.
    slice: Option<CudaSlice<u8>>,
    pool: Rc<Pool>,
    owner: Option<Box<dyn Any>>,
}

impl DeviceArray {
    pub fn new(slice: CudaSlice<u8>, pool: Rc<Pool>) -> DeviceArray {
        DeviceArray {
            slice: Some(slice),
            pool,
            owner: None,
        }
    }

    /// Memory lent by `owner` (see `external`).
    pub fn lent(slice: CudaSlice<u8>, pool: Rc<Pool>, owner: Box<dyn Any>) -> DeviceArray {
        DeviceArray {
            slice: Some(slice),
            pool,
            owner: Some(owner),
        }
    }

    /// Whether the memory is lent by another library.
    pub fn is_lent(&self) -> bool {
        self.owner.is_some()
    }

    /// The memory, taken out of the array (which then holds none); `None` for lent
    /// memory, which is not Blazar's to give.
    pub fn take_owned(&mut self) -> Option<CudaSlice<u8>> {
        if self.owner.is_some() {
            return None;
        }
        self.slice.take()
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        self.pool.stream()
    }

    pub fn slice(&self) -> &CudaSlice<u8> {
        self.slice.as_ref().expect("a live device array has memory")
    }

    pub fn slice_mut(&mut self) -> &mut CudaSlice<u8> {
        self.slice.as_mut().expect("a live device array has memory")
    }
}

impl Drop for DeviceArray {
    fn drop(&mut self) {
        if let Some(s) = self.slice.take() {
            if self.owner.is_some() {
                // The lender frees it (when `owner` is dropped, below).
                s.leak();
            } else {
                self.pool.give(s);
            }
        }
    }
}

/// The elements of a numeric buffer as bytes (`None` for cells).
pub fn bytes_of(buf: &Buffer) -> Option<&[u8]> {
    Some(match buf {
        Buffer::F32(v) => bytemuck::cast_slice(v),
        Buffer::F64(v) => bytemuck::cast_slice(v),
        Buffer::C32(v) => bytemuck::cast_slice(v),
        Buffer::C64(v) => bytemuck::cast_slice(v),
        Buffer::I8(v) => bytemuck::cast_slice(v),
        Buffer::I16(v) => bytemuck::cast_slice(v),
        Buffer::I32(v) => bytemuck::cast_slice(v),
        Buffer::I64(v) => bytemuck::cast_slice(v),
        Buffer::U8(v) => v,
        Buffer::U16(v) => bytemuck::cast_slice(v),
        Buffer::U32(v) => bytemuck::cast_slice(v),
        Buffer::U64(v) => bytemuck::cast_slice(v),
        Buffer::Cell(_) => return None,
    })
}

/// The elements of a numeric buffer as mutable bytes (`None` for cells).
pub fn bytes_of_mut(buf: &mut Buffer) -> Option<&mut [u8]> {
    Some(match buf {
        Buffer::F32(v) => bytemuck::cast_slice_mut(v),
        Buffer::F64(v) => bytemuck::cast_slice_mut(v),
        Buffer::C32(v) => bytemuck::cast_slice_mut(v),
        Buffer::C64(v) => bytemuck::cast_slice_mut(v),
        Buffer::I8(v) => bytemuck::cast_slice_mut(v),
        Buffer::I16(v) => bytemuck::cast_slice_mut(v),
        Buffer::I32(v) => bytemuck::cast_slice_mut(v),
        Buffer::I64(v) => bytemuck::cast_slice_mut(v),
        Buffer::U8(v) => v,
        Buffer::U16(v) => bytemuck::cast_slice_mut(v),
        Buffer::U32(v) => bytemuck::cast_slice_mut(v),
        Buffer::U64(v) => bytemuck::cast_slice_mut(v),
        Buffer::Cell(_) => return None,
    })
}

/// A driver error as a message.
pub fn driver(what: &str, e: DriverError) -> String {
    format!("CUDA error in {what}: {e}")
}

impl DeviceCopy for DeviceArray {
    fn download(&self, buf: &mut Buffer) -> Result<(), String> {
        let dst = bytes_of_mut(buf).ok_or("a cell array has no device copy")?;
        let src = self.slice();
        if dst.len() > src.len() {
            return Err("internal error: device copy of the wrong size".into());
        }
        if dst.is_empty() {
            return Ok(());
        }
        // Launches deferred behind a compile may write these elements: issued first.
        self.pool.queue().flush()?;
        self.stream()
            .memcpy_dtoh(&src.slice(0..dst.len()), dst)
            .map_err(|e| driver("a copy from the device", e))?;
        self.pool.queue().wait()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn bytes(&self) -> usize {
        self.slice().len()
    }
}

/// Makes the device copy of `a` current and returns its device address.
pub fn ensure_on_device(a: &ArrayRef, pool: &Rc<Pool>) -> Result<u64, String> {
    let stream = pool.stream();
    let store = &a.data;
    let host = store
        .host_unsynced()
        .try_borrow()
        .map_err(|_| "an array is in use and cannot be passed to a kernel".to_string())?;
    let elem = host.buf.elem();
    if elem == ElemType::Cell {
        return Err("cell arrays cannot be passed to kernels".into());
    }
    // The size from the shape: a device-only array has no host buffer yet.
    let size = host.len() * elem.size_bytes();
    let mut dev = store
        .device()
        .try_borrow_mut()
        .map_err(|_| "an array is in use and cannot be passed to a kernel".to_string())?;
    let fits = dev.as_ref().is_some_and(|d| {
        d.bytes() == crate::pool::alloc_size(size)
            || d.as_any()
                .downcast_ref::<DeviceArray>()
                .is_some_and(|a| a.is_lent() && a.bytes() == size)
    });
    if !fits || matches!(store.residency(), Residency::Host | Residency::Zero) {
        // The device copy is about to be replaced or written: launches deferred behind
        // a compile, which may use it, are issued first.
        pool.queue().flush()?;
    }
    if !fits {
        // A new copy (first launch, or the host resized the array).
        let slice = pool.take(size).map_err(|e| oom_or(e, size))?;
        *dev = Some(Box::new(DeviceArray::new(slice, pool.clone())));
        match store.residency() {
            Residency::Device => return Err("internal error: device data lost".into()),
            Residency::Zero => {}
            _ => store.set_residency(Residency::Host),
        }
    }
    let arr = downcast(dev.as_deref_mut().ok_or("internal error: no device copy")?)?;
    if store.residency() == Residency::Zero {
        // Zeros made on the device: a memset, nothing crosses the bus.
        if size > 0 {
            stream
                .memset_zeros(&mut arr.slice_mut().slice_mut(0..size))
                .map_err(|e| driver("clearing device memory", e))?;
        }
        store.set_residency(Residency::Device);
    } else if store.residency() == Residency::Host && size > 0 {
        let bytes = bytes_of(&host.buf).ok_or("cell arrays cannot be passed to kernels")?;
        blazar_runtime::traffic::record(blazar_runtime::traffic::Direction::ToDevice, size);
        stream
            .memcpy_htod(bytes, &mut arr.slice_mut().slice_mut(0..bytes.len()))
            .map_err(|e| driver("a copy to the device", e))?;
        store.set_residency(Residency::Both);
    } else if store.residency() == Residency::Host {
        store.set_residency(Residency::Both);
    }
    let (ptr, _sync) = arr.slice().device_ptr(stream);
    Ok(ptr)
}

fn downcast(d: &mut dyn DeviceCopy) -> Result<&mut DeviceArray, String> {
    d.as_any_mut()
        .downcast_mut::<DeviceArray>()
        .ok_or_else(|| "internal error: an array holds another backend's device copy".into())
}

/// After a kernel wrote `a` on the device: the host copy is stale.
pub fn mark_written(a: &ArrayRef) {
    a.data.set_residency(Residency::Device);
}

/// Out of memory gets its own message; other failures name the driver error.
pub fn oom_or(e: DriverError, bytes: usize) -> String {
    if e.0 == cudarc::driver::sys::cudaError_enum::CUDA_ERROR_OUT_OF_MEMORY {
        format!("out of GPU memory allocating {bytes} bytes")
    } else {
        driver("an allocation", e)
    }
}

/// The shape of an array as its reference sees it (a reshaped view has its own dims;
/// always current, whatever the residency).
pub fn dims_of(a: &ArrayRef) -> Result<Vec<usize>, String> {
    a.meta()
        .map(|m| m.dims)
        .map_err(|_| "an array is in use".to_string())
}

/// A new array whose elements will be written on the device: a lazily zeroed host
/// buffer (no pages touched until read) and a device copy.
pub(crate) fn new_device_array(
    pool: &Rc<Pool>,
    dims: Vec<usize>,
    elem: ElemType,
) -> Result<(ArrayRef, u64), String> {
    let bytes = dims
        .iter()
        .try_fold(elem.size_bytes(), |acc, &d| acc.checked_mul(d))
        .ok_or("out of GPU memory (the array's size overflows)")?;
    let arr = Array::device_only(dims, elem);
    let slice = pool
        .take(bytes)
        .map_err(|e| crate::memory::oom_or(e, bytes))?;
    let ptr = slice.device_ptr(pool.stream()).0;
    let r = ArrayRef::new(arr);
    *r.data.device().borrow_mut() = Some(Box::new(DeviceArray::new(slice, pool.clone())));
    Ok((r, ptr))
}
