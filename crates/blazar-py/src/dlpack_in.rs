//! Arguments that come through DLPack, and the results that go back the same way (the
//! protocol itself is in `dlpack`).
//!
//! On the CPU a producer's memory is lent to Blazar as a NumPy array's is (`borrow`);
//! when it cannot be (read-only, strided, unaligned) the elements are copied. On the GPU
//! its device memory becomes the array's device copy (`blazar_cuda::External::wrap`), so
//! kernels read and write it in place. A strided GPU array (a slice or transposed view)
//! is gathered on the device into a contiguous copy and scattered back into the view at
//! the end of the call (`External::gather`, `scatter`): a kernel's writes land in the
//! caller's view either way. GPU arrays must be writable; a view that repeats elements
//! (a broadcast) or shares memory with another argument is refused.
//! Either way the call's array results come back as `DLArray`s on the same device.
//!
//! A call on GPU arrays of CuPy or PyTorch does not wait for the device: the library's
//! current stream is noted (`caller_stream`) and ordered after the call's work when it
//! returns (`Lending::order_streams`), as a CuPy kernel launch returns at once. Arrays of
//! other libraries make the call wait for the device before returning.

use crate::convert::{lend_raw, Lending};
use crate::dlpack::{self, DLDevice, Source, CPU, CUDA};
use blazar_cuda::strided::View;
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
    let py = obj.py();
    // The same object twice is one array.
    if let Some(f) = lending.foreign().iter().find(|f| f.obj.bind(py).is(obj)) {
        return Ok(Value::Array(f.arr.clone()));
    }
    let ptr = d.ptr as u64;
    let es = d.elem.size_bytes();
    let f = match d.strides {
        None => {
            let bytes = d.dims.iter().product::<usize>() * es;
            let range = (ptr, ptr + bytes as u64);
            // Two objects over one contiguous memory (two CuPy arrays of one allocation)
            // are one array.
            if let Some(f) = lending
                .foreign()
                .iter()
                .find(|f| f.strided.is_none() && f.ptr == ptr)
            {
                let same = f
                    .arr
                    .meta()
                    .is_ok_and(|m| m.dims == d.dims && m.elem() == d.elem);
                if !same {
                    return Err(crate::error_new(
                        "two arguments share GPU memory with different shapes or types; pass a copy",
                    ));
                }
                return Ok(Value::Array(f.arr.clone()));
            }
            refuse_overlap(lending, range, true)?;
            // SAFETY: the producer's C-contiguous, writable tensor of `bytes` bytes on
            // Blazar's GPU, alive while `taken` (moved into the array's device copy) is;
            // its writes were ordered before the legacy default stream by
            // `__dlpack__(stream=1)`.
            let a = unsafe { ext.wrap(ptr, bytes, d.dims.clone(), d.elem, Box::new(taken)) }
                .map_err(|m| crate::error_new(&m))?;
            Foreign {
                obj: obj.clone().unbind(),
                arr: a,
                dims: d.dims,
                ptr,
                range,
                strided: None,
            }
        }
        Some(strides) => {
            let view = View::new(&d.dims, &strides).map_err(|m| crate::error_new(&m))?;
            if view.overlaps() {
                return Err(crate::error_new(&format!(
                    "a GPU array whose elements overlap (a broadcast view or sliding windows: \
                     shape {:?}, element strides {strides:?}) cannot be passed to Blazar, whose \
                     kernels may write their arguments; pass a copy",
                    d.dims
                )));
            }
            let (lo, hi) = view.span();
            let range = if view.n == 0 {
                (ptr, ptr)
            } else {
                let at = |k: i64| ptr.wrapping_add_signed(k * es as i64);
                (at(lo), at(hi + 1))
            };
            refuse_overlap(lending, range, false)?;
            // SAFETY: the producer's tensor addresses every element of the view through
            // its strides, alive while `taken` (kept in `Foreign` until the call's end)
            // is; its writes are ordered before the legacy default stream.
            let a = unsafe { ext.gather(ptr, d.dims.clone(), &strides, d.elem) }
                .map_err(|m| crate::error_new(&m))?;
            Foreign {
                obj: obj.clone().unbind(),
                arr: a,
                dims: d.dims,
                ptr,
                range,
                strided: Some((strides, taken)),
            }
        }
    };
    let a = f.arr.clone();
    lending.add_foreign(f);
    lending.add_caller_stream(caller_stream(obj));
    Ok(Value::Array(a))
}

/// A GPU array taken from the caller through DLPack.
pub struct Foreign {
    /// The caller's object.
    pub obj: Py<PyAny>,
    /// The array Blazar works on: over the caller's memory, or, for a strided view, a
    /// contiguous copy gathered on the device.
    pub arr: ArrayRef,
    pub dims: Vec<usize>,
    /// The caller's first element.
    ptr: u64,
    /// The bytes it covers.
    range: (u64, u64),
    /// A strided view: its element strides, and the producer's tensor, held until the
    /// copy is scattered back.
    strided: Option<(Vec<i64>, dlpack::Taken)>,
}

impl Foreign {
    /// At the end of a call: the caller's memory gets what Blazar wrote (host writes
    /// uploaded; a strided view's copy scattered back, whether or not it was written).
    pub fn settle(&self, cuda: &blazar_cuda::External) -> Result<(), String> {
        match &self.strided {
            None => cuda.settle(&self.arr),
            // SAFETY: the view is alive (its tensor is held here) and does not overlap
            // itself (refused when taken).
            Some((strides, _)) => unsafe { cuda.scatter(&self.arr, self.ptr, &self.dims, strides) },
        }
    }
}

/// Refuses a GPU argument whose memory `range` overlaps another's when either is a
/// strided view (whose copy would hide the other's writes during the call and undo them
/// after it); contiguous arrays may alias, as in CuPy.
fn refuse_overlap(lending: &Lending, range: (u64, u64), contiguous: bool) -> PyResult<()> {
    let clash = lending.foreign().iter().any(|f| {
        (!contiguous || f.strided.is_some()) && range.0 < f.range.1 && f.range.0 < range.1
    });
    if clash {
        return Err(crate::error_new(
            "a strided GPU argument shares memory with another argument; pass a copy of one \
             (`cupy.ascontiguousarray(x)`, `x.contiguous()`)",
        ));
    }
    Ok(())
}

/// The CUDA stream the library of GPU array `obj` works on now (its current stream: a
/// `CUstream` handle, 0 for the legacy default stream), where the library is one that
/// says (CuPy, PyTorch); `None` otherwise. The call's work is ordered before it.
fn caller_stream(obj: &Bound<'_, PyAny>) -> Option<u64> {
    let py = obj.py();
    let module = obj.get_type().module().ok()?.to_string();
    let root = module.split('.').next().unwrap_or("");
    let stream = match root {
        "cupy" => py
            .import("cupy.cuda")
            .ok()?
            .call_method0("get_current_stream")
            .ok()?
            .getattr("ptr")
            .ok()?,
        "torch" => py
            .import("torch.cuda")
            .ok()?
            .call_method1("current_stream", (obj.getattr("device").ok()?,))
            .ok()?
            .getattr("cuda_stream")
            .ok()?,
        _ => return None,
    };
    stream.extract::<u64>().ok()
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
