//! Arguments that come through DLPack, and the results that go back the same way (the
//! protocol itself is in `dlpack`).
//!
//! On the CPU a producer's memory is lent to Blazar as a NumPy array's is (`borrow`);
//! when it cannot be (read-only, strided, unaligned) the elements are copied. On the GPU
//! its device memory becomes the array's device copy (`blazar_cuda::External::wrap`), so
//! kernels read and write it in place; a GPU array must be C-contiguous and writable.
//! Either way the call's array results come back as `DLArray`s on the same device.

use crate::convert::{lend_raw, Lending};
use crate::dlpack::{self, DLDevice, Source, CPU, CUDA};
use blazar_runtime::{Array, ArrayRef, Buffer, ElemType, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// An object with `__dlpack__` as a Blazar value.
pub fn array(obj: &Bound<'_, PyAny>, lending: &mut Lending) -> PyResult<Value> {
    let (ty, id) = dlpack::device_of(obj)?;
    match ty {
        CPU => host(obj, lending),
        CUDA => device(obj, id, lending),
        _ => Err(crate::error_new(&format!(
            "an array on DLPack device type {ty} cannot be passed to Blazar (arrays on the \
             CPU and on CUDA GPUs can)"
        ))),
    }
}

fn host(obj: &Bound<'_, PyAny>, lending: &mut Lending) -> PyResult<Value> {
    if let Some(a) = lending.lent_from(obj) {
        return Ok(Value::Array(a));
    }
    let taken = dlpack::take(obj, None)?;
    let d = taken.desc().map_err(PyTypeError::new_err)?;
    lending.set_out(DLDevice {
        device_type: CPU,
        device_id: 0,
    });
    let es = d.elem.size_bytes();
    let n: usize = d.dims.iter().product();
    let taken = if d.strides.is_none() && !d.read_only && !d.dims.is_empty() {
        match lend_raw(obj, d.ptr, &d.dims, d.elem, taken, lending) {
            Ok(a) => return Ok(Value::Array(a)),
            Err(taken) => taken,
        }
    } else {
        taken
    };
    // A copy: read-only (Blazar's kernels may write), strided, or a scalar.
    let bytes = match &d.strides {
        // An empty tensor may have a null data pointer: nothing to read.
        _ if n == 0 => Vec::new(),
        // SAFETY: the producer's tensor addresses every element through its strides.
        Some(s) => unsafe { dlpack::gather(d.ptr, &d.dims, s, es) },
        // SAFETY: C-contiguous: `n * es` bytes from the first element.
        None => unsafe { std::slice::from_raw_parts(d.ptr as *const u8, n * es) }.to_vec(),
    };
    drop(taken);
    let buf = from_bytes(d.elem, &bytes);
    if d.dims.is_empty() {
        return Ok(Array::new(vec![1], buf).get_value(0));
    }
    Ok(Value::array(Array::new(d.dims, buf)))
}

fn device(obj: &Bound<'_, PyAny>, id: i32, lending: &mut Lending) -> PyResult<Value> {
    let Some(ext) = lending.cuda().cloned() else {
        return Err(crate::error_new(&format!(
            "an array on GPU {id} was passed to a module that runs on the CPU (load the \
             module with device=\"cuda\", or \"auto\" where a GPU is usable)"
        )));
    };
    if usize::try_from(id).ok() != Some(ext.ordinal()) {
        return Err(crate::error_new(&format!(
            "an array on GPU {id} was passed to Blazar, which runs on GPU {}",
            ext.ordinal()
        )));
    }
    // Stream 1: CUDA's legacy default stream, Blazar's.
    let taken = dlpack::take(obj, Some(1))?;
    let d = taken.desc().map_err(PyTypeError::new_err)?;
    if d.strides.is_some() {
        return Err(crate::error_new(&format!(
            "a GPU array passed to Blazar must be C-contiguous; this one of shape {:?} is \
             strided (make it contiguous first: `cupy.ascontiguousarray(x)`, `x.contiguous()`)",
            d.dims
        )));
    }
    if d.read_only {
        return Err(crate::error_new(
            "a read-only GPU array cannot be passed to Blazar (its kernels may write their \
             arguments); pass a writable copy",
        ));
    }
    if d.dims.is_empty() {
        return Err(crate::error_new(
            "a 0-dimensional GPU array cannot be passed to Blazar; pass a number (`float(x)`)",
        ));
    }
    lending.set_out(DLDevice {
        device_type: CUDA,
        device_id: id,
    });
    if let Some(a) = lending.foreign_at(obj, d.ptr as u64) {
        let same = a
            .meta()
            .is_ok_and(|m| m.dims == d.dims && m.elem() == d.elem);
        if !same {
            return Err(crate::error_new(
                "two arguments share GPU memory with different shapes or types; pass a copy",
            ));
        }
        return Ok(Value::Array(a));
    }
    let bytes = d.dims.iter().product::<usize>() * d.elem.size_bytes();
    let ptr = d.ptr as u64;
    // SAFETY: the producer's C-contiguous, writable tensor of `bytes` bytes on Blazar's
    // GPU, alive while `taken` (moved into the array's device copy) is; its writes were
    // ordered before the legacy default stream by `__dlpack__(stream=1)`.
    let a = unsafe { ext.wrap(ptr, bytes, d.dims.clone(), d.elem, Box::new(taken)) }
        .map_err(|m| crate::error_new(&m))?;
    lending.add_foreign(obj, a.clone(), d.dims, ptr);
    Ok(Value::Array(a))
}

/// A buffer of `elem` from its bytes.
fn from_bytes(elem: ElemType, bytes: &[u8]) -> Buffer {
    let n = bytes.len() / elem.size_bytes().max(1);
    let mut buf = Buffer::zeros(elem, n);
    blazar_value::with_buffer!(&mut buf,
        v => {
            // SAFETY: `v` holds `n` elements, `bytes.len()` bytes, of a plain numeric type.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), v.as_mut_ptr() as *mut u8, bytes.len())
            }
        },
        cell _c => {});
    buf
}

/// A result of a call whose arrays came through DLPack: a `DLArray` on `device`.
pub fn result(
    py: Python<'_>,
    a: ArrayRef,
    dims: &[usize],
    elem: ElemType,
    device: DLDevice,
    lending: &Lending,
) -> PyResult<PyObject> {
    let src = if device.device_type == CUDA {
        let ext = lending
            .cuda()
            .ok_or_else(|| crate::error_new("internal error: a GPU result without a GPU"))?;
        Source::Device(ext.export(&a).map_err(|m| crate::error_new(&m))?)
    } else {
        // The elements move out when only this result holds them (and they are not a
        // lent argument's memory); else they are copied.
        let sole = std::rc::Rc::strong_count(&a.data) == 1;
        let mut host = a.borrow_mut();
        let lent = crate::borrow::is_lent(buf_ptr(&host.buf) as *const u8);
        let buf = if sole && !lent {
            let empty = Buffer::zeros(elem, 0);
            std::mem::replace(&mut host.buf, empty)
        } else {
            host.buf.clone()
        };
        Source::Host(dlpack::HostElems(buf))
    };
    let arr = dlpack::DLArray::new(src, dims, elem, device)?;
    Ok(Py::new(py, arr)?.into_any())
}

fn buf_ptr(b: &Buffer) -> usize {
    blazar_value::with_buffer!(b, v => v.as_ptr() as usize, cell c => c.as_ptr() as usize)
}
