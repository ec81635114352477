//! DLPack: arrays of other libraries (CuPy, PyTorch, JAX, NumPy, ...) in and out
//! without a copy, on the CPU and on the GPU.
//!
//! In ([`take`]): the consumer side of the protocol. The producer's
//! `__dlpack_device__()` says where the data is; `__dlpack__(stream=..., max_version=(1,
//! 0))` then hands over a capsule named `dltensor_versioned` (or `dltensor` from older
//! producers), which we rename `used_...` and own: its deleter is called, with the GIL,
//! when Blazar lets go of the memory ([`Taken`] dropped). For the GPU the stream asked
//! for is 1, CUDA's legacy default stream, which all of Blazar's device work runs on:
//! the producer orders its pending writes before it.
//!
//! Out ([`DLArray`]): a result of a call whose arrays came in through DLPack, with
//! `__dlpack__` and `__dlpack_device__`, so `cupy.from_dlpack(r)`,
//! `torch.from_dlpack(r)` and `numpy.from_dlpack(r)` take it without a copy. Its memory
//! (device memory moved out of the result, or the result's host elements) lives as long
//! as the `DLArray` or any consumer of it; device memory then goes home to Blazar's pool
//! for the next result. A call returns without waiting for the device: `__dlpack__`
//! orders the consumer's stream after Blazar's work (`blazar_cuda::Exported::order_before`).

use blazar_runtime::{Buffer, ElemType, IntTy};
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::ffi::{c_void, CStr};
use std::sync::Arc;

/// `kDLCPU`, `kDLCUDA`, `kDLCUDAHost` (pinned host memory), `kDLCUDAManaged`.
pub const CPU: i32 = 1;
pub const CUDA: i32 = 2;
const CUDA_HOST: i32 = 3;
const CUDA_MANAGED: i32 = 13;
/// `DLPACK_FLAG_BITMASK_READ_ONLY`.
const READ_ONLY: u64 = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDevice {
    pub device_type: i32,
    pub device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DLDataType {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

#[repr(C)]
pub struct DLTensor {
    pub data: *mut c_void,
    pub device: DLDevice,
    pub ndim: i32,
    pub dtype: DLDataType,
    pub shape: *mut i64,
    pub strides: *mut i64,
    pub byte_offset: u64,
}

#[repr(C)]
pub struct DLManagedTensor {
    pub dl_tensor: DLTensor,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct DLPackVersion {
    pub major: u32,
    pub minor: u32,
}

#[repr(C)]
pub struct DLManagedTensorVersioned {
    pub version: DLPackVersion,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    pub flags: u64,
    pub dl_tensor: DLTensor,
}

const LEGACY: &CStr = c"dltensor";
const LEGACY_USED: &CStr = c"used_dltensor";
const VERSIONED: &CStr = c"dltensor_versioned";
const VERSIONED_USED: &CStr = c"used_dltensor_versioned";

/// The element type of a DLPack data type (`None`: not one of Blazar's).
pub fn elem_of(t: DLDataType) -> Option<ElemType> {
    if t.lanes != 1 {
        return None;
    }
    Some(match (t.code, t.bits) {
        (0, 8) => ElemType::Int(IntTy::I8),
        (0, 16) => ElemType::Int(IntTy::I16),
        (0, 32) => ElemType::Int(IntTy::I32),
        (0, 64) => ElemType::Int(IntTy::I64),
        (1, 8) => ElemType::Int(IntTy::U8),
        (1, 16) => ElemType::Int(IntTy::U16),
        (1, 32) => ElemType::Int(IntTy::U32),
        (1, 64) => ElemType::Int(IntTy::U64),
        (2, 32) => ElemType::F32,
        (2, 64) => ElemType::F64,
        (5, 64) => ElemType::C32,
        (5, 128) => ElemType::C64,
        _ => return None,
    })
}

/// The DLPack data type of an element type (`None` for cells).
pub fn dtype_of(e: ElemType) -> Option<DLDataType> {
    let (code, bits) = match e {
        ElemType::Int(IntTy::I8) => (0, 8),
        ElemType::Int(IntTy::I16) => (0, 16),
        ElemType::Int(IntTy::I32) => (0, 32),
        ElemType::Int(IntTy::I64) => (0, 64),
        ElemType::Int(IntTy::U8) => (1, 8),
        ElemType::Int(IntTy::U16) => (1, 16),
        ElemType::Int(IntTy::U32) => (1, 32),
        ElemType::Int(IntTy::U64) => (1, 64),
        ElemType::F32 => (2, 32),
        ElemType::F64 => (2, 64),
        ElemType::C32 => (5, 64),
        ElemType::C64 => (5, 128),
        ElemType::Cell => return None,
    };
    Some(DLDataType {
        code,
        bits,
        lanes: 1,
    })
}

fn type_name(t: DLDataType) -> String {
    let kind = match t.code {
        0 => "int",
        1 => "uint",
        2 => "float",
        4 => "bfloat",
        5 => "complex",
        6 => "bool",
        _ => "opaque",
    };
    if t.lanes == 1 {
        format!("{kind}{}", t.bits)
    } else {
        format!("{kind}{}x{}", t.bits, t.lanes)
    }
}

enum Managed {
    Legacy(*mut DLManagedTensor),
    Versioned(*mut DLManagedTensorVersioned),
}

/// A tensor taken from a producer: ours until dropped, when its deleter runs.
pub struct Taken {
    managed: Managed,
}

// SAFETY: the deleter is only called with the GIL held (`Drop`), which is all a
// producer may need from the calling thread; the tensor itself is plain memory.
unsafe impl Send for Taken {}

impl Drop for Taken {
    fn drop(&mut self) {
        Python::with_gil(|_| unsafe {
            match self.managed {
                Managed::Legacy(m) => {
                    if let Some(d) = (*m).deleter {
                        d(m)
                    }
                }
                Managed::Versioned(m) => {
                    if let Some(d) = (*m).deleter {
                        d(m)
                    }
                }
            }
        });
    }
}

/// What a taken tensor holds, in Blazar's terms.
pub struct Desc {
    /// The first element (data + byte offset).
    pub ptr: usize,
    pub dims: Vec<usize>,
    pub elem: ElemType,
    pub read_only: bool,
    /// Element strides; `None`: C-contiguous.
    pub strides: Option<Vec<i64>>,
}

impl Taken {
    fn tensor(&self) -> &DLTensor {
        // SAFETY: the producer keeps the managed tensor valid until its deleter runs.
        unsafe {
            match self.managed {
                Managed::Legacy(m) => &(*m).dl_tensor,
                Managed::Versioned(m) => &(*m).dl_tensor,
            }
        }
    }

    /// The tensor's layout, or why Blazar cannot take it.
    pub fn desc(&self) -> Result<Desc, String> {
        let t = self.tensor();
        let read_only = match self.managed {
            Managed::Legacy(_) => false,
            Managed::Versioned(m) => (unsafe { (*m).flags } & READ_ONLY) != 0,
        };
        let elem = elem_of(t.dtype).ok_or_else(|| {
            format!(
                "arrays of DLPack type {} cannot be passed to Blazar (its element types: \
                 float32, float64, complex64, complex128, int8..int64, uint8..uint64)",
                type_name(t.dtype)
            )
        })?;
        let ndim = usize::try_from(t.ndim).map_err(|_| "a DLPack tensor of negative rank")?;
        let dims: Vec<usize> = if ndim == 0 {
            Vec::new()
        } else {
            // SAFETY: `shape` holds `ndim` extents.
            unsafe { std::slice::from_raw_parts(t.shape, ndim) }
                .iter()
                .map(|&d| usize::try_from(d).map_err(|_| "a DLPack tensor of negative extent"))
                .collect::<Result<_, _>>()?
        };
        let strides = if t.strides.is_null() || ndim == 0 {
            None
        } else {
            // SAFETY: `strides` holds `ndim` strides when not null.
            let s = unsafe { std::slice::from_raw_parts(t.strides, ndim) }.to_vec();
            (!is_c_contiguous(&dims, &s)).then_some(s)
        };
        Ok(Desc {
            ptr: t.data as usize + t.byte_offset as usize,
            dims,
            elem,
            read_only,
            strides,
        })
    }
}

/// Whether element strides `s` lay `dims` out in C order (extents of 1 take any stride).
pub fn is_c_contiguous(dims: &[usize], s: &[i64]) -> bool {
    let mut want: i64 = 1;
    for (&d, &st) in dims.iter().zip(s).rev() {
        if d != 1 && st != want {
            return false;
        }
        want = want.saturating_mul(d as i64);
    }
    true
}

/// The device a producer's array is on: (DLPack device type, id). Pinned host memory
/// counts as the CPU, managed memory as the GPU.
pub fn device_of(obj: &Bound<'_, PyAny>) -> PyResult<(i32, i32)> {
    let (t, id): (i32, i32) = obj.call_method0("__dlpack_device__")?.extract()?;
    Ok(match t {
        CUDA_HOST => (CPU, 0),
        CUDA_MANAGED => (CUDA, id),
        _ => (t, id),
    })
}

/// Takes the producer's tensor: `stream` is the DLPack stream number to order its work
/// before (`None` on the CPU).
pub fn take(obj: &Bound<'_, PyAny>, stream: Option<i64>) -> PyResult<Taken> {
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("stream", stream)?;
    kwargs.set_item("max_version", (1, 0))?;
    let cap = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            // A producer older than DLPack 1.0 takes no `max_version`.
            let kwargs = PyDict::new(py);
            kwargs.set_item("stream", stream)?;
            obj.call_method("__dlpack__", (), Some(&kwargs))?
        }
        Err(e) => return Err(e),
    };
    let raw = cap.as_ptr();
    // SAFETY: capsule API calls on a live object, with the GIL held; a name is checked
    // (`PyCapsule_IsValid`, which sets no error) before the pointer is read.
    unsafe {
        if pyo3::ffi::PyCapsule_IsValid(raw, VERSIONED.as_ptr()) == 1 {
            let m = pyo3::ffi::PyCapsule_GetPointer(raw, VERSIONED.as_ptr())
                as *mut DLManagedTensorVersioned;
            if m.is_null() {
                return Err(PyErr::fetch(py));
            }
            if (*m).version.major != 1 {
                // Not renamed: the capsule still owns it and frees it.
                return Err(crate::error_new(&format!(
                    "this array speaks DLPack {}.{}; Blazar reads version 1",
                    (*m).version.major,
                    (*m).version.minor
                )));
            }
            if pyo3::ffi::PyCapsule_SetName(raw, VERSIONED_USED.as_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
            return Ok(Taken {
                managed: Managed::Versioned(m),
            });
        }
        if pyo3::ffi::PyCapsule_IsValid(raw, LEGACY.as_ptr()) == 1 {
            let m = pyo3::ffi::PyCapsule_GetPointer(raw, LEGACY.as_ptr()) as *mut DLManagedTensor;
            if m.is_null() {
                return Err(PyErr::fetch(py));
            }
            if pyo3::ffi::PyCapsule_SetName(raw, LEGACY_USED.as_ptr()) != 0 {
                return Err(PyErr::fetch(py));
            }
            return Ok(Taken {
                managed: Managed::Legacy(m),
            });
        }
    }
    Err(PyTypeError::new_err(
        "`__dlpack__` did not return a DLPack capsule (`dltensor` or `dltensor_versioned`)",
    ))
}

/// Copies the elements of a strided tensor at `ptr` into C order (`es` bytes each).
///
/// # Safety
/// `ptr` with `strides` (in elements) must address every element of `dims`.
pub unsafe fn gather(ptr: usize, dims: &[usize], strides: &[i64], es: usize) -> Vec<u8> {
    let n: usize = dims.iter().product();
    let mut out = vec![0u8; n * es];
    let mut idx = vec![0usize; dims.len()];
    for k in 0..n {
        let off: i64 = idx.iter().zip(strides).map(|(&i, &s)| i as i64 * s).sum();
        let src = (ptr as i64 + off * es as i64) as *const u8;
        std::ptr::copy_nonoverlapping(src, out.as_mut_ptr().add(k * es), es);
        for d in (0..dims.len()).rev() {
            idx[d] += 1;
            if idx[d] < dims[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

/// The memory a [`DLArray`] hands out.
pub enum Source {
    /// A result's host elements (numeric, never cells).
    Host(HostElems),
    /// A result's device memory.
    Device(blazar_cuda::Exported),
}

/// Numeric host elements, moved out of a result.
pub struct HostElems(pub Buffer);

// SAFETY: a numeric buffer (cells are never exported) is plain memory owned here alone.
unsafe impl Send for HostElems {}
unsafe impl Sync for HostElems {}

impl Source {
    fn ptr(&self) -> u64 {
        match self {
            Source::Host(h) => {
                blazar_value::with_buffer!(&h.0, v => v.as_ptr() as u64, cell c => c.as_ptr() as u64)
            }
            Source::Device(d) => d.ptr(),
        }
    }
}

/// An array that other libraries take through DLPack (`cupy.from_dlpack(r)`,
/// `torch.from_dlpack(r)`, `numpy.from_dlpack(r)`).
#[pyclass(module = "blazar._native", name = "DLArray", frozen)]
pub struct DLArray {
    src: Arc<Source>,
    shape: Vec<i64>,
    dtype: DLDataType,
    device: DLDevice,
}

impl DLArray {
    pub fn new(src: Source, dims: &[usize], elem: ElemType, device: DLDevice) -> PyResult<Self> {
        let dtype = dtype_of(elem)
            .ok_or_else(|| crate::error_new("a cell array cannot be handed out through DLPack"))?;
        Ok(DLArray {
            src: Arc::new(src),
            shape: dims.iter().map(|&d| d as i64).collect(),
            dtype,
            device,
        })
    }
}

/// What one capsule's managed tensor keeps: the memory and the shape it points into.
#[repr(C)]
struct Holder<M> {
    managed: M,
    src: Arc<Source>,
    shape: Vec<i64>,
}

unsafe extern "C" fn delete_legacy(m: *mut DLManagedTensor) {
    if !m.is_null() {
        drop(Box::from_raw(
            (*m).manager_ctx as *mut Holder<DLManagedTensor>,
        ));
    }
}

unsafe extern "C" fn delete_versioned(m: *mut DLManagedTensorVersioned) {
    if !m.is_null() {
        drop(Box::from_raw(
            (*m).manager_ctx as *mut Holder<DLManagedTensorVersioned>,
        ));
    }
}

/// A capsule never consumed frees its tensor (a consumed one was renamed `used_...`).
unsafe extern "C" fn capsule_gone(cap: *mut pyo3::ffi::PyObject) {
    if pyo3::ffi::PyCapsule_IsValid(cap, VERSIONED.as_ptr()) == 1 {
        let m = pyo3::ffi::PyCapsule_GetPointer(cap, VERSIONED.as_ptr());
        delete_versioned(m as *mut DLManagedTensorVersioned);
    } else if pyo3::ffi::PyCapsule_IsValid(cap, LEGACY.as_ptr()) == 1 {
        let m = pyo3::ffi::PyCapsule_GetPointer(cap, LEGACY.as_ptr());
        delete_legacy(m as *mut DLManagedTensor);
    }
}

#[pymethods]
impl DLArray {
    /// The DLPack capsule of this array (`versioned` when the consumer reads DLPack 1).
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__(
        &self,
        py: Python<'_>,
        stream: Option<Bound<'_, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<PyObject> {
        // Blazar's work on the array is issued on its stream (the legacy default stream)
        // but may still run: the consumer's stream is ordered after it (DLPack's
        // `stream` semantics; nothing to do on the CPU).
        if let Source::Device(d) = &*self.src {
            let stream = match &stream {
                None => None,
                Some(s) if s.is_none() => None,
                Some(s) => Some(s.extract::<i64>().map_err(|_| {
                    PyTypeError::new_err("`stream` must be an integer (a DLPack stream number)")
                })?),
            };
            py.allow_threads(|| d.order_before(stream))
                .map_err(|m| crate::error_new(&m))?;
        }
        if let Some((t, id)) = dl_device {
            if (t, id) != (self.device.device_type, self.device.device_id) {
                return Err(PyBufferError::new_err(
                    "a Blazar result is handed out on its own device only",
                ));
            }
        }
        if copy == Some(true) {
            return Err(PyBufferError::new_err(
                "a Blazar result is handed out without a copy (copy=True is not supported)",
            ));
        }
        let tensor = DLTensor {
            data: self.src.ptr() as *mut c_void,
            device: self.device,
            ndim: self.shape.len() as i32,
            dtype: self.dtype,
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            byte_offset: 0,
        };
        let versioned = max_version.is_some_and(|(major, _)| major >= 1);
        // SAFETY: each holder is leaked into its capsule and freed exactly once, by the
        // consumer's call of the deleter or by the capsule's destructor if never used;
        // `shape` points into the holder's own vector, which lives as long.
        let cap = unsafe {
            if versioned {
                let h = Box::into_raw(Box::new(Holder {
                    managed: DLManagedTensorVersioned {
                        version: DLPackVersion { major: 1, minor: 0 },
                        manager_ctx: std::ptr::null_mut(),
                        deleter: Some(delete_versioned),
                        flags: 0,
                        dl_tensor: tensor,
                    },
                    src: self.src.clone(),
                    shape: self.shape.clone(),
                }));
                (*h).managed.manager_ctx = h as *mut c_void;
                (*h).managed.dl_tensor.shape = (*h).shape.as_mut_ptr();
                pyo3::ffi::PyCapsule_New(h as *mut c_void, VERSIONED.as_ptr(), Some(capsule_gone))
            } else {
                let h = Box::into_raw(Box::new(Holder {
                    managed: DLManagedTensor {
                        dl_tensor: tensor,
                        manager_ctx: std::ptr::null_mut(),
                        deleter: Some(delete_legacy),
                    },
                    src: self.src.clone(),
                    shape: self.shape.clone(),
                }));
                (*h).managed.manager_ctx = h as *mut c_void;
                (*h).managed.dl_tensor.shape = (*h).shape.as_mut_ptr();
                pyo3::ffi::PyCapsule_New(h as *mut c_void, LEGACY.as_ptr(), Some(capsule_gone))
            }
        };
        if cap.is_null() {
            return Err(PyErr::fetch(py));
        }
        // SAFETY: a new reference returned by `PyCapsule_New`.
        Ok(unsafe { PyObject::from_owned_ptr(py, cap) })
    }

    /// (DLPack device type, device id): (1, 0) for the CPU, (2, n) for GPU n.
    fn __dlpack_device__(&self) -> (i32, i32) {
        (self.device.device_type, self.device.device_id)
    }

    /// A NumPy view (no copy) of an array on the CPU; an array on a GPU is taken by a
    /// GPU library (`cupy.from_dlpack(r)`, `torch.from_dlpack(r)`).
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__(
        slf: &Bound<'_, Self>,
        dtype: Option<Bound<'_, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<PyObject> {
        let py = slf.py();
        if slf.get().device.device_type != CPU {
            return Err(PyTypeError::new_err(
                "this Blazar result is on a GPU: take it with cupy.from_dlpack(r) or \
                 torch.from_dlpack(r)",
            ));
        }
        let np = py.import("numpy")?;
        let mut a = np.call_method1("from_dlpack", (slf,))?;
        if let Some(d) = dtype {
            a = a.call_method1("astype", (d,))?;
        } else if copy == Some(true) {
            a = a.call_method0("copy")?;
        }
        Ok(a.unbind())
    }

    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.shape)
    }

    /// The NumPy name of the element type (`float32`, `complex64`, ...).
    #[getter]
    fn dtype(&self) -> String {
        match self.dtype.code {
            5 => format!("complex{}", self.dtype.bits),
            _ => type_name(self.dtype),
        }
    }

    #[getter]
    fn device(&self) -> String {
        match self.device.device_type {
            CPU => "cpu".into(),
            _ => format!("cuda:{}", self.device.device_id),
        }
    }

    fn __len__(&self) -> usize {
        self.shape.first().map_or(0, |&d| d as usize)
    }

    fn __repr__(&self) -> String {
        format!(
            "<blazar DLArray {} {:?} on {}>",
            self.dtype(),
            self.shape,
            self.device()
        )
    }
}
