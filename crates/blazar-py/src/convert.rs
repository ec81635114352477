//! Python objects ↔ Blazar values.
//!
//! In: numbers, strings, NumPy arrays (lent without a copy when C-contiguous, aligned and
//! writable; see `borrow`), objects with `__dlpack__` on the CPU (lent the same way) and
//! on the GPU (their device memory is the array's device copy, see `dlpack`),
//! `__array__`-likes, lists (cells), tuples of numbers (vectors), dicts (objects). Out:
//! numbers, strings, NumPy arrays (a result whose elements only the call holds is moved
//! into NumPy without a copy; an argument returned is the caller's own array), or, when
//! arrays came in through DLPack, `DLArray`s on their device; cells as lists, objects as
//! dicts.

use crate::{borrow, dlpack};
use blazar_runtime::{Array, ArrayRef, Buffer, ElemType, IntTy, Object, Prec, Value};
use num_complex::{Complex32, Complex64};
use numpy::npyffi::flags;
use numpy::{Element, PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::cell::RefCell;
use std::rc::Rc;

/// The arrays lent to one call.
#[derive(Default)]
pub struct Lending {
    items: Vec<Lent>,
    /// GPU arrays taken through DLPack.
    foreign: Vec<crate::dlpack_in::Foreign>,
    /// The module's GPU, where it has one.
    cuda: Option<blazar_cuda::External>,
    /// Where results go out as `DLArray`s: set when an array came in through DLPack
    /// (from a producer other than NumPy).
    out: Option<dlpack::DLDevice>,
    /// The streams the callers of GPU arrays work on (`dlpack_in::caller_stream`), to be
    /// ordered after the call's work; `None` once an array's library is not known.
    streams: Option<Vec<u64>>,
}

struct Lent {
    /// The caller's array.
    obj: Py<PyAny>,
    aref: ArrayRef,
    ptr: usize,
    slot: borrow::Slot,
    dims: Vec<usize>,
    /// The DLPack tensor the memory came from (its deleter runs when the loan ends).
    keep: Option<dlpack::Taken>,
}

impl Lending {
    pub fn new(cuda: Option<blazar_cuda::External>) -> Lending {
        Lending {
            cuda,
            streams: Some(Vec::new()),
            ..Lending::default()
        }
    }

    /// Notes the stream the caller of a GPU array works on (`None`: not known).
    pub(crate) fn add_caller_stream(&mut self, s: Option<u64>) {
        match (s, &mut self.streams) {
            (Some(s), Some(v)) if !v.contains(&s) => v.push(s),
            (Some(_), _) => {}
            (None, _) => self.streams = None,
        }
    }

    /// The end of a call on a GPU: when every GPU array came from a library whose
    /// current stream is known, the call's work is issued (launches deferred behind a
    /// compile included) and those streams are ordered after it, without waiting for
    /// the device (as CuPy returns); `false` when the caller must wait instead.
    pub fn order_streams(&self) -> Result<bool, String> {
        let (Some(cuda), Some(streams)) = (&self.cuda, &self.streams) else {
            return Ok(false);
        };
        if self.foreign.is_empty() || self.out.is_none_or(|d| d.device_type != dlpack::CUDA) {
            return Ok(false);
        }
        cuda.flush()?;
        for &s in streams {
            cuda.order_before(s)?;
        }
        Ok(true)
    }

    /// Writes made during the call to arrays lent from a GPU go back into the lender's
    /// device memory (the caller's CuPy or PyTorch array is the argument): the host's
    /// writes are uploaded, and a strided view's contiguous copy is scattered back.
    pub fn settle_foreign(&self) -> Result<(), String> {
        let Some(cuda) = &self.cuda else {
            return Ok(());
        };
        for f in &self.foreign {
            f.settle(cuda)?;
        }
        Ok(())
    }

    /// Ends the loans of a finished call (results already converted and dropped): the
    /// device's last writes come home, an array a module global still holds is detached
    /// into memory of its own, and memory Blazar holds anyway keeps its owner alive.
    pub fn finish(self) {
        for l in self.items {
            {
                let mut host = l.aref.data.write_host();
                if Rc::strong_count(&l.aref.data) > 1 && buf_ptr(&host.buf) == l.ptr {
                    let copy = host.buf.clone();
                    drop(std::mem::replace(&mut host.buf, copy));
                }
            }
            drop(l.aref);
            if !borrow::release(l.slot) {
                std::mem::forget(l.obj);
                std::mem::forget(l.keep);
            }
        }
    }
}

fn buf_ptr(b: &Buffer) -> usize {
    blazar_value::with_buffer!(b, v => v.as_ptr() as usize, cell c => c.as_ptr() as usize)
}

fn type_error(what: &Bound<'_, PyAny>) -> PyErr {
    let ty = what
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!(
        "a Python `{ty}` cannot be passed to Blazar (numbers, strings, NumPy arrays, \
         lists, tuples of numbers and dicts can)"
    ))
}

/// A Python object as a Blazar value.
pub fn to_value(obj: &Bound<'_, PyAny>, prec: Prec, lending: &mut Lending) -> PyResult<Value> {
    if let Ok(a) = obj.downcast::<PyUntypedArray>() {
        return array_in(a, prec, lending);
    }
    if obj.is_instance_of::<PyBool>() {
        return Ok(Value::int(obj.extract::<bool>()? as i64));
    }
    if obj.is_instance_of::<PyInt>() {
        let i: i64 = obj.extract()?;
        return Ok(if i32::try_from(i).is_ok() {
            Value::int(i)
        } else {
            Value::Int(i, IntTy::I64)
        });
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(Value::Real(obj.extract()?));
    }
    if let Ok(z) = obj.downcast::<PyComplex>() {
        return Ok(Value::Complex(Complex64::new(z.real(), z.imag())));
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(Value::str(&s.extract::<String>()?));
    }
    if let Ok(l) = obj.downcast::<PyList>() {
        let vals = l
            .iter()
            .map(|x| to_value(&x, prec, lending))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Value::array(Array::cell(vec![vals.len()], vals)));
    }
    if let Ok(t) = obj.downcast::<PyTuple>() {
        let vals = t
            .iter()
            .map(|x| to_value(&x, prec, lending))
            .collect::<PyResult<Vec<_>>>()?;
        if let Some(reals) = vals.iter().map(Value::as_f64).collect::<Option<Vec<_>>>() {
            return Ok(Value::array(Array::from_reals(
                vec![reals.len()],
                reals,
                prec,
            )));
        }
        return Ok(Value::array(Array::cell(vec![vals.len()], vals)));
    }
    if let Ok(d) = obj.downcast::<PyDict>() {
        let mut o = Object::default();
        for (k, v) in d.iter() {
            let k: String = k.extract()?;
            o.set(&k, to_value(&v, prec, lending)?);
        }
        return Ok(Value::Object(Rc::new(RefCell::new(o))));
    }
    let py = obj.py();
    let np = py.import("numpy")?;
    if obj.is_instance(&np.getattr("generic")?)? {
        return to_value(&obj.call_method0("item")?, prec, lending);
    }
    if obj.hasattr("__dlpack__")? && obj.hasattr("__dlpack_device__")? {
        return crate::dlpack_in::array(obj, lending);
    }
    if obj.hasattr("__array__")? {
        return to_value(&np.call_method1("asarray", (obj,))?, prec, lending);
    }
    Err(type_error(obj))
}

/// A NumPy array as a Blazar array: lent when its memory can be, else copied.
fn array_in(a: &Bound<'_, PyUntypedArray>, prec: Prec, lending: &mut Lending) -> PyResult<Value> {
    let dims: Vec<usize> = a.shape().to_vec();
    if dims.is_empty() {
        // A 0-d array is a number.
        return to_value(&a.call_method0("item")?, prec, lending);
    }
    // The same array passed twice is one Blazar array.
    let data = unsafe { (*a.as_array_ptr()).data } as usize;
    for l in &lending.items {
        if l.ptr == data && l.obj.bind(a.py()).is(a) {
            return Ok(Value::Array(l.aref.clone()));
        }
    }
    macro_rules! try_elem {
        ($($t:ty => $variant:ident),*) => {
            $(if let Ok(x) = a.downcast::<PyArrayDyn<$t>>() {
                return Ok(match lend(x, &dims, lending) {
                    Some(v) => Value::Array(v),
                    None => {
                        let v: Vec<$t> = x.readonly().as_array().iter().cloned().collect();
                        Value::array(Array::new(dims, Buffer::$variant(v)))
                    }
                });
            })*
        };
    }
    try_elem!(f32 => F32, f64 => F64, Complex32 => C32, Complex64 => C64,
              i8 => I8, i16 => I16, i32 => I32, i64 => I64,
              u8 => U8, u16 => U16, u32 => U32, u64 => U64);
    if let Ok(x) = a.downcast::<PyArrayDyn<bool>>() {
        let v: Vec<u8> = x.readonly().as_array().iter().map(|&b| b as u8).collect();
        return Ok(Value::array(Array::new(dims, Buffer::U8(v))));
    }
    let dtype = a.dtype().to_string();
    Err(PyTypeError::new_err(format!(
        "NumPy arrays of dtype {dtype} cannot be passed to Blazar (its element types: \
         float32, float64, complex64, complex128, int8..int64, uint8..uint64, bool)"
    )))
}

/// The array's memory as a Blazar array, registered as lent; `None` when the array's
/// layout or flags do not allow it (the caller copies).
fn lend<T: Element + Clone>(
    x: &Bound<'_, PyArrayDyn<T>>,
    dims: &[usize],
    lending: &mut Lending,
) -> Option<ArrayRef>
where
    Buffer: FromVec<T>,
{
    let raw = unsafe { &*x.as_array_ptr() };
    let need =
        flags::NPY_ARRAY_C_CONTIGUOUS | flags::NPY_ARRAY_ALIGNED | flags::NPY_ARRAY_WRITEABLE;
    let len: usize = dims.iter().product();
    if raw.flags & need != need || len == 0 {
        return None;
    }
    let ptr = raw.data as *mut T;
    if !ptr.is_aligned() {
        return None;
    }
    let slot = borrow::lend(ptr as *const u8)?;
    // SAFETY: `len` elements of T, C-contiguous and aligned, live as long as `obj` (kept
    // in `lending` until `finish`, or forever); the allocator never frees lent memory.
    let v = unsafe { Vec::from_raw_parts(ptr, len, len) };
    let aref = ArrayRef::new(Array::new(dims.to_vec(), Buffer::from_vec(v)));
    lending.items.push(Lent {
        obj: x.clone().into_any().unbind(),
        aref: aref.clone(),
        ptr: ptr as usize,
        slot,
        dims: dims.to_vec(),
        keep: None,
    });
    Some(aref)
}

/// The buffer variant of an element type.
pub trait FromVec<T> {
    fn from_vec(v: Vec<T>) -> Buffer;
}

macro_rules! from_vec {
    ($($t:ty => $variant:ident),*) => {
        $(impl FromVec<$t> for Buffer {
            fn from_vec(v: Vec<$t>) -> Buffer {
                Buffer::$variant(v)
            }
        })*
    };
}
from_vec!(f32 => F32, f64 => F64, Complex32 => C32, Complex64 => C64,
          i8 => I8, i16 => I16, i32 => I32, i64 => I64,
          u8 => U8, u16 => U16, u32 => U32, u64 => U64);

/// A Blazar value as a Python object.
pub fn from_value(py: Python<'_>, v: Value, lending: &Lending) -> PyResult<PyObject> {
    Ok(match v {
        Value::Real(x) => x.into_pyobject(py)?.into_any().unbind(),
        Value::Int(i, t) => match t {
            IntTy::U64 => (i as u64).into_pyobject(py)?.into_any().unbind(),
            _ => i.into_pyobject(py)?.into_any().unbind(),
        },
        Value::Complex(z) => PyComplex::from_doubles(py, z.re, z.im).into_any().unbind(),
        Value::Str(s) => PyString::new(py, &s).into_any().unbind(),
        Value::Array(a) => array_out(py, a, lending)?,
        Value::Object(o) => {
            let d = PyDict::new(py);
            let fields = o.borrow().fields.clone();
            for (k, v) in fields {
                d.set_item(&*k, from_value(py, v, lending)?)?;
            }
            d.into_any().unbind()
        }
        Value::Func(_) => {
            return Err(crate::error_new(
                "a function value cannot be returned to Python",
            ))
        }
    })
}

fn array_out(py: Python<'_>, a: ArrayRef, lending: &Lending) -> PyResult<PyObject> {
    let meta = a
        .meta()
        .map_err(|_| crate::error_new("an array is still being written"))?;
    let dims = meta.dims.clone();
    let lent = lending.items.iter().map(|l| (&l.obj, &l.aref, &l.dims));
    for (obj, aref, lent_dims) in
        lent.chain(lending.foreign.iter().map(|f| (&f.obj, &f.arr, &f.dims)))
    {
        if a.same_store(aref) {
            let obj = obj.clone_ref(py);
            return if dims == *lent_dims {
                Ok(obj)
            } else {
                Ok(obj.bind(py).call_method1("reshape", (dims,))?.unbind())
            };
        }
    }
    if let (Some(device), false) = (lending.out, meta.is_cell()) {
        return crate::dlpack_in::result(py, a, &dims, meta.elem(), device, lending);
    }
    if meta.is_cell() {
        let host = a.borrow();
        let Buffer::Cell(cells) = host.buf() else {
            unreachable!("a cell array's buffer holds cells")
        };
        let cells = cells.clone();
        drop(host);
        return cell_list(py, &dims, &cells, lending);
    }
    // Elements only this call holds move into NumPy; others are copied.
    let sole = Rc::strong_count(&a.data) == 1;
    if sole {
        let buf = {
            let mut host = a.borrow_mut();
            let empty = Buffer::zeros(host.buf.elem(), 0);
            std::mem::replace(&mut host.buf, empty)
        };
        if !borrow::is_lent(buf_ptr(&buf) as *const u8) {
            return blazar_value::with_buffer!(buf,
                v => shaped(PyArray1::from_vec(py, v).into_any(), &dims),
                cell _c => unreachable!("cells handled above"));
        }
        return blazar_value::with_buffer!(&buf,
            v => shaped(PyArray1::from_slice(py, v).into_any(), &dims),
            cell _c => unreachable!("cells handled above"));
    }
    let host = a.borrow();
    blazar_value::with_buffer!(host.buf(),
        v => shaped(PyArray1::from_slice(py, v).into_any(), &dims),
        cell _c => unreachable!("cells handled above"))
}

fn shaped(a: Bound<'_, PyAny>, dims: &[usize]) -> PyResult<PyObject> {
    if dims.len() == 1 {
        return Ok(a.unbind());
    }
    Ok(a.call_method1("reshape", (dims.to_vec(),))?.unbind())
}

/// A cell array as nested lists, one level per dimension.
fn cell_list(
    py: Python<'_>,
    dims: &[usize],
    cells: &[Value],
    lending: &Lending,
) -> PyResult<PyObject> {
    if dims.len() <= 1 {
        let items = cells
            .iter()
            .map(|c| from_value(py, c.clone(), lending))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(PyList::new(py, items)?.into_any().unbind());
    }
    let inner: usize = dims[1..].iter().product();
    let items = (0..dims[0])
        .map(|i| cell_list(py, &dims[1..], &cells[i * inner..(i + 1) * inner], lending))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyList::new(py, items)?.into_any().unbind())
}

/// Lends `len` elements of `elem` at `ptr` (owned by `obj`, and by `keep` when they came
/// through DLPack) to Blazar as `lend` does; gives `keep` back when they cannot be lent
/// (unaligned, or the address is lent already): the caller copies.
pub(crate) fn lend_raw(
    obj: &Bound<'_, PyAny>,
    ptr: usize,
    dims: &[usize],
    elem: ElemType,
    keep: dlpack::Taken,
    lending: &mut Lending,
) -> Result<ArrayRef, dlpack::Taken> {
    let len: usize = dims.iter().product();
    if len == 0 || ptr % elem.size_bytes().min(8) != 0 || elem == ElemType::Cell {
        return Err(keep);
    }
    let Some(slot) = borrow::lend(ptr as *const u8) else {
        return Err(keep);
    };
    macro_rules! raw {
        ($($e:pat => $v:ident($t:ty)),*) => {
            match elem {
                // SAFETY: `len` aligned elements of the type at `ptr`, C-contiguous and
                // writable, alive while `keep` is (kept until `finish`, or forever); the
                // allocator never frees lent memory.
                $($e => Buffer::$v(unsafe { Vec::from_raw_parts(ptr as *mut $t, len, len) }),)*
                ElemType::Cell => unreachable!("refused above"),
            }
        };
    }
    let buf = raw!(ElemType::F32 => F32(f32), ElemType::F64 => F64(f64),
                   ElemType::C32 => C32(Complex32), ElemType::C64 => C64(Complex64),
                   ElemType::Int(IntTy::I8) => I8(i8), ElemType::Int(IntTy::I16) => I16(i16),
                   ElemType::Int(IntTy::I32) => I32(i32), ElemType::Int(IntTy::I64) => I64(i64),
                   ElemType::Int(IntTy::U8) => U8(u8), ElemType::Int(IntTy::U16) => U16(u16),
                   ElemType::Int(IntTy::U32) => U32(u32), ElemType::Int(IntTy::U64) => U64(u64));
    let aref = ArrayRef::new(Array::new(dims.to_vec(), buf));
    lending.items.push(Lent {
        obj: obj.clone().unbind(),
        aref: aref.clone(),
        ptr,
        slot,
        dims: dims.to_vec(),
        keep: Some(keep),
    });
    Ok(aref)
}

impl Lending {
    /// The module's GPU.
    pub(crate) fn cuda(&self) -> Option<&blazar_cuda::External> {
        self.cuda.as_ref()
    }

    /// Results go out as `DLArray`s on `device`.
    pub(crate) fn set_out(&mut self, device: dlpack::DLDevice) {
        self.out = Some(device);
    }

    /// The GPU arrays taken so far.
    pub(crate) fn foreign(&self) -> &[crate::dlpack_in::Foreign] {
        &self.foreign
    }

    /// Records a GPU array taken from its caller.
    pub(crate) fn add_foreign(&mut self, f: crate::dlpack_in::Foreign) {
        self.foreign.push(f);
    }

    /// The CPU array already lent from `obj`, if any.
    pub(crate) fn lent_from(&self, obj: &Bound<'_, PyAny>) -> Option<ArrayRef> {
        self.items
            .iter()
            .find(|l| l.obj.bind(obj.py()).is(obj))
            .map(|l| l.aref.clone())
    }
}
