//! N-dimensional arrays: element type, shape and row-major storage.
//!
//! An [`Array`] has a *rank* fixed by its type (`vec` 1, `mat` 2, `cube` 3, `cube{N}` N)
//! and `dims` with one extent per rank, the last index fastest in memory. A `vec` of
//! length N reports `size == [1, N]`. Arrays are shared by reference through
//! [`ArrayRef`](crate::ArrayRef), which also carries the boundary access mode of the
//! variable and, for a reshaped view, its own dims.

use crate::value::{IntTy, Prec, Value};
use num_complex::{Complex32, Complex64};

/// Element type of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    F32,
    F64,
    C32,
    C64,
    Int(IntTy),
    /// Elements are arbitrary values (cell arrays `vec[mat]`, `vec[??]`).
    Cell,
}

impl ElemType {
    /// The element type of `scalar` at a precision.
    pub fn real(prec: Prec) -> ElemType {
        match prec {
            Prec::Single => ElemType::F32,
            Prec::Double => ElemType::F64,
        }
    }

    pub fn complex(prec: Prec) -> ElemType {
        match prec {
            Prec::Single => ElemType::C32,
            Prec::Double => ElemType::C64,
        }
    }

    pub fn is_complex(self) -> bool {
        matches!(self, ElemType::C32 | ElemType::C64)
    }

    pub fn is_int(self) -> bool {
        matches!(self, ElemType::Int(_))
    }

    pub fn is_real_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }

    /// The name used in types: `scalar`, `cscalar`, `int`, `uint8`, `??` for cells.
    pub fn name(self) -> &'static str {
        match self {
            ElemType::F32 | ElemType::F64 => "scalar",
            ElemType::C32 | ElemType::C64 => "cscalar",
            ElemType::Int(t) => t.name(),
            ElemType::Cell => "??",
        }
    }

    /// Bytes per element (cells count one pointer).
    pub fn size_bytes(self) -> usize {
        match self {
            ElemType::F32 => 4,
            ElemType::F64 | ElemType::C32 => 8,
            ElemType::C64 => 16,
            ElemType::Int(IntTy::I8 | IntTy::U8) => 1,
            ElemType::Int(IntTy::I16 | IntTy::U16) => 2,
            ElemType::Int(IntTy::I32 | IntTy::U32) => 4,
            ElemType::Int(IntTy::I64 | IntTy::U64) => 8,
            ElemType::Cell => 8,
        }
    }
}

/// Typed, contiguous element storage.
#[derive(Clone, Debug)]
pub enum Buffer {
    F32(Vec<f32>),
    F64(Vec<f64>),
    C32(Vec<Complex32>),
    C64(Vec<Complex64>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    Cell(Vec<Value>),
}

/// Applies `$body` to the inner vector of any numeric buffer variant bound as `$v`;
/// `$cell` handles cells.
#[macro_export]
macro_rules! with_buffer {
    ($buf:expr, $v:ident => $body:expr, cell $c:ident => $cell:expr) => {
        match $buf {
            $crate::array::Buffer::F32($v) => $body,
            $crate::array::Buffer::F64($v) => $body,
            $crate::array::Buffer::C32($v) => $body,
            $crate::array::Buffer::C64($v) => $body,
            $crate::array::Buffer::I8($v) => $body,
            $crate::array::Buffer::I16($v) => $body,
            $crate::array::Buffer::I32($v) => $body,
            $crate::array::Buffer::I64($v) => $body,
            $crate::array::Buffer::U8($v) => $body,
            $crate::array::Buffer::U16($v) => $body,
            $crate::array::Buffer::U32($v) => $body,
            $crate::array::Buffer::U64($v) => $body,
            $crate::array::Buffer::Cell($c) => $cell,
        }
    };
}

impl Buffer {
    /// A buffer of `n` zeros (empty values for cells: real 0), in reused memory when
    /// the [host pool](crate::pool) has a buffer of its size class.
    pub fn zeros(elem: ElemType, n: usize) -> Buffer {
        crate::pool::zeroed(elem, n)
    }

    /// A buffer of `n` elements whose values are unspecified (left from an earlier use
    /// of the memory), for a caller that writes every element: a kernel's result.
    pub fn for_overwrite(elem: ElemType, n: usize) -> Buffer {
        crate::pool::take(elem, n)
    }

    /// The elements a buffer has room for.
    pub fn capacity(&self) -> usize {
        with_buffer!(self, v => v.capacity(), cell c => c.capacity())
    }

    /// `n` zeros in new memory with room for `cap` elements (`cap` ≥ `n`): the system
    /// hands out zeroed pages, so elements never written are never touched.
    pub(crate) fn fresh_zeros(elem: ElemType, n: usize, cap: usize) -> Buffer {
        let mut b = Buffer::fresh(elem, cap.max(n));
        with_buffer!(&mut b, v => v.truncate(n), cell c => c.truncate(n));
        b
    }

    fn fresh(elem: ElemType, n: usize) -> Buffer {
        match elem {
            ElemType::F32 => Buffer::F32(vec![0.0; n]),
            ElemType::F64 => Buffer::F64(vec![0.0; n]),
            ElemType::C32 => Buffer::C32(vec![Complex32::new(0.0, 0.0); n]),
            ElemType::C64 => Buffer::C64(vec![Complex64::new(0.0, 0.0); n]),
            ElemType::Int(t) => match t {
                IntTy::I8 => Buffer::I8(vec![0; n]),
                IntTy::I16 => Buffer::I16(vec![0; n]),
                IntTy::I32 => Buffer::I32(vec![0; n]),
                IntTy::I64 => Buffer::I64(vec![0; n]),
                IntTy::U8 => Buffer::U8(vec![0; n]),
                IntTy::U16 => Buffer::U16(vec![0; n]),
                IntTy::U32 => Buffer::U32(vec![0; n]),
                IntTy::U64 => Buffer::U64(vec![0; n]),
            },
            ElemType::Cell => Buffer::Cell(vec![Value::Real(0.0); n]),
        }
    }

    pub fn elem(&self) -> ElemType {
        match self {
            Buffer::F32(_) => ElemType::F32,
            Buffer::F64(_) => ElemType::F64,
            Buffer::C32(_) => ElemType::C32,
            Buffer::C64(_) => ElemType::C64,
            Buffer::I8(_) => ElemType::Int(IntTy::I8),
            Buffer::I16(_) => ElemType::Int(IntTy::I16),
            Buffer::I32(_) => ElemType::Int(IntTy::I32),
            Buffer::I64(_) => ElemType::Int(IntTy::I64),
            Buffer::U8(_) => ElemType::Int(IntTy::U8),
            Buffer::U16(_) => ElemType::Int(IntTy::U16),
            Buffer::U32(_) => ElemType::Int(IntTy::U32),
            Buffer::U64(_) => ElemType::Int(IntTy::U64),
            Buffer::Cell(_) => ElemType::Cell,
        }
    }

    pub fn len(&self) -> usize {
        with_buffer!(self, v => v.len(), cell c => c.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Element `i` as a real number (the real part of complex elements; 0 for cells
    /// that do not hold a number).
    #[inline]
    pub fn get_f64(&self, i: usize) -> f64 {
        match self {
            Buffer::F32(v) => v[i] as f64,
            Buffer::F64(v) => v[i],
            Buffer::C32(v) => v[i].re as f64,
            Buffer::C64(v) => v[i].re,
            Buffer::I8(v) => v[i] as f64,
            Buffer::I16(v) => v[i] as f64,
            Buffer::I32(v) => v[i] as f64,
            Buffer::I64(v) => v[i] as f64,
            Buffer::U8(v) => v[i] as f64,
            Buffer::U16(v) => v[i] as f64,
            Buffer::U32(v) => v[i] as f64,
            Buffer::U64(v) => v[i] as f64,
            Buffer::Cell(v) => v[i].as_f64().unwrap_or(0.0),
        }
    }

    /// Element `i` as a complex number.
    #[inline]
    pub fn get_c(&self, i: usize) -> Complex64 {
        match self {
            Buffer::C32(v) => Complex64::new(v[i].re as f64, v[i].im as f64),
            Buffer::C64(v) => v[i],
            Buffer::Cell(v) => v[i].as_complex().unwrap_or_default(),
            _ => Complex64::new(self.get_f64(i), 0.0),
        }
    }

    /// Stores a real number at `i`, converting to the element type (integers truncate
    /// toward zero and saturate, as a C cast of an in-range value would).
    #[inline]
    pub fn set_f64(&mut self, i: usize, x: f64) {
        match self {
            Buffer::F32(v) => v[i] = x as f32,
            Buffer::F64(v) => v[i] = x,
            Buffer::C32(v) => v[i] = Complex32::new(x as f32, 0.0),
            Buffer::C64(v) => v[i] = Complex64::new(x, 0.0),
            Buffer::I8(v) => v[i] = x as i8,
            Buffer::I16(v) => v[i] = x as i16,
            Buffer::I32(v) => v[i] = x as i32,
            Buffer::I64(v) => v[i] = x as i64,
            Buffer::U8(v) => v[i] = x as u8,
            Buffer::U16(v) => v[i] = x as u16,
            Buffer::U32(v) => v[i] = x as u32,
            Buffer::U64(v) => v[i] = x as u64,
            Buffer::Cell(v) => v[i] = Value::Real(x),
        }
    }

    /// Stores a complex number at `i`; real element types keep the real part.
    #[inline]
    pub fn set_c(&mut self, i: usize, z: Complex64) {
        match self {
            Buffer::C32(v) => v[i] = Complex32::new(z.re as f32, z.im as f32),
            Buffer::C64(v) => v[i] = z,
            Buffer::Cell(v) => v[i] = Value::Complex(z),
            _ => self.set_f64(i, z.re),
        }
    }

    /// Element `i` as a [`Value`] of the element's scalar type.
    pub fn get_value(&self, i: usize) -> Value {
        match self {
            Buffer::F32(v) => Value::Real(v[i] as f64),
            Buffer::F64(v) => Value::Real(v[i]),
            Buffer::C32(v) => Value::Complex(Complex64::new(v[i].re as f64, v[i].im as f64)),
            Buffer::C64(v) => Value::Complex(v[i]),
            Buffer::I8(v) => Value::Int(v[i] as i64, IntTy::I8),
            Buffer::I16(v) => Value::Int(v[i] as i64, IntTy::I16),
            Buffer::I32(v) => Value::Int(v[i] as i64, IntTy::I32),
            Buffer::I64(v) => Value::Int(v[i], IntTy::I64),
            Buffer::U8(v) => Value::Int(v[i] as i64, IntTy::U8),
            Buffer::U16(v) => Value::Int(v[i] as i64, IntTy::U16),
            Buffer::U32(v) => Value::Int(v[i] as i64, IntTy::U32),
            Buffer::U64(v) => Value::Int(v[i] as i64, IntTy::U64),
            Buffer::Cell(v) => v[i].clone(),
        }
    }

    /// Stores a scalar value at `i`; returns false when the value cannot be stored in
    /// this element type (a string or array into a numeric buffer).
    pub fn set_value(&mut self, i: usize, val: &Value) -> bool {
        match (self, val) {
            (Buffer::Cell(v), val) => {
                v[i] = val.clone();
                true
            }
            (b, Value::Int(x, t)) => {
                match b {
                    Buffer::I64(v) => v[i] = *x,
                    Buffer::U64(v) => v[i] = *x as u64,
                    b => b.set_f64(i, t.to_f64(*x)),
                }
                true
            }
            (b, Value::Real(x)) => {
                b.set_f64(i, *x);
                true
            }
            (b, Value::Complex(z)) => {
                b.set_c(i, *z);
                true
            }
            _ => false,
        }
    }
}

/// Boundary access mode of a variable (LANGUAGE.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum Mode {
    /// No modifier: an error outside the bounds in host code, zero in kernels.
    #[default]
    Default,
    Safe,
    Circular,
    Mirror,
    Clamped,
    Checked,
    Unchecked,
}

impl Mode {
    pub fn from_name(name: &str) -> Option<Mode> {
        Some(match name {
            "safe" => Mode::Safe,
            "circular" => Mode::Circular,
            "mirror" => Mode::Mirror,
            "clamped" => Mode::Clamped,
            "checked" => Mode::Checked,
            "unchecked" => Mode::Unchecked,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Default => "",
            Mode::Safe => "safe",
            Mode::Circular => "circular",
            Mode::Mirror => "mirror",
            Mode::Clamped => "clamped",
            Mode::Checked => "checked",
            Mode::Unchecked => "unchecked",
        }
    }
}

/// How a variable accesses its array: boundary mode and read-only flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Access {
    pub mode: Mode,
    pub is_const: bool,
}

/// An N-d array with row-major storage.
#[derive(Clone, Debug)]
pub struct Array {
    /// One extent per rank: `[N]` for a vec, `[M, N]` for a mat, `[M, N, P]` for a cube.
    pub dims: Vec<usize>,
    pub buf: Buffer,
}

impl Array {
    pub fn new(dims: Vec<usize>, buf: Buffer) -> Array {
        debug_assert_eq!(dims.iter().product::<usize>(), buf.len());
        Array { dims, buf }
    }

    pub fn zeros(dims: Vec<usize>, elem: ElemType) -> Array {
        let n = dims.iter().product();
        Array {
            dims,
            buf: Buffer::zeros(elem, n),
        }
    }

    /// An array whose elements are unspecified ([`Buffer::for_overwrite`]), for a
    /// caller that writes every one.
    pub fn for_overwrite(dims: Vec<usize>, elem: ElemType) -> Array {
        let n = dims.iter().product();
        Array {
            dims,
            buf: Buffer::for_overwrite(elem, n),
        }
    }

    /// A vector from real values, stored at precision `prec`.
    pub fn from_reals(dims: Vec<usize>, data: Vec<f64>, prec: Prec) -> Array {
        let buf = match prec {
            Prec::Single => Buffer::F32(data.into_iter().map(|x| x as f32).collect()),
            Prec::Double => Buffer::F64(data),
        };
        Array::new(dims, buf)
    }

    pub fn from_complex(dims: Vec<usize>, data: Vec<Complex64>, prec: Prec) -> Array {
        let buf = match prec {
            Prec::Single => Buffer::C32(
                data.into_iter()
                    .map(|z| Complex32::new(z.re as f32, z.im as f32))
                    .collect(),
            ),
            Prec::Double => Buffer::C64(data),
        };
        Array::new(dims, buf)
    }

    pub fn from_ints(dims: Vec<usize>, data: Vec<i32>) -> Array {
        Array::new(dims, Buffer::I32(data))
    }

    pub fn cell(dims: Vec<usize>, data: Vec<Value>) -> Array {
        Array::new(dims, Buffer::Cell(data))
    }

    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// The number of elements (the product of the extents; a device-only array's host
    /// buffer may be empty until it is first read, see `store`).
    pub fn len(&self) -> usize {
        self.dims.iter().product()
    }

    /// An array whose elements will be written by a device: no host buffer yet.
    pub fn device_only(dims: Vec<usize>, elem: ElemType) -> Array {
        Array {
            dims,
            buf: Buffer::zeros(elem, 0),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn elem(&self) -> ElemType {
        self.buf.elem()
    }

    pub fn is_cell(&self) -> bool {
        matches!(self.buf, Buffer::Cell(_))
    }

    /// `size(x)`: the dims, with a vec reported as `[1, N]`.
    pub fn size(&self) -> Vec<usize> {
        if self.dims.len() == 1 {
            vec![1, self.dims[0]]
        } else {
            self.dims.clone()
        }
    }

    /// `size(x, d)` for a 0-based dimension; dimensions past the rank are 1.
    pub fn size_at(&self, d: usize) -> usize {
        self.size().get(d).copied().unwrap_or(1)
    }

    #[inline]
    pub fn get_f64(&self, i: usize) -> f64 {
        self.buf.get_f64(i)
    }

    #[inline]
    pub fn get_c(&self, i: usize) -> Complex64 {
        self.buf.get_c(i)
    }

    pub fn get_value(&self, i: usize) -> Value {
        self.buf.get_value(i)
    }

    /// All elements as reals.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        (0..self.len()).map(|i| self.buf.get_f64(i)).collect()
    }

    pub fn to_c_vec(&self) -> Vec<Complex64> {
        (0..self.len()).map(|i| self.buf.get_c(i)).collect()
    }

    /// A copy converted to another element type (cells keep their values).
    pub fn convert(&self, elem: ElemType) -> Array {
        if self.elem() == elem {
            return self.clone();
        }
        let mut out = Array::zeros(self.dims.clone(), elem);
        for i in 0..self.len() {
            let v = self.buf.get_value(i);
            out.buf.set_value(i, &v);
        }
        out
    }

    /// The dims an array of extents `dims` is stored with, as MATLAB keeps them:
    /// trailing singleton dimensions drop down to two (`[4,1,1]` is a 4×1 mat), leading
    /// ones stay (`[1,3,2]` is a 1×3×2 cube), and a 1×N result is a vec of N.
    pub fn canonical_dims(dims: &[usize]) -> Vec<usize> {
        Array::into_canonical_dims(dims.to_vec())
    }

    /// [`Array::canonical_dims`] of owned dims, changed in place (no allocation when
    /// they are already canonical, as the dims of most `reshape` calls are).
    pub fn into_canonical_dims(mut dims: Vec<usize>) -> Vec<usize> {
        match dims.len() {
            0 => dims.push(0),
            1 => {}
            _ => {
                while dims.len() > 2 && dims.last() == Some(&1) {
                    dims.pop();
                }
                if dims.len() == 2 && dims[0] == 1 {
                    dims.remove(0);
                }
            }
        }
        dims
    }
}

/// The dims of a slice whose index arguments select `lens` coordinates each (1 for a
/// scalar index), as MATLAB keeps them: every dimension stays, trailing singleton
/// dimensions drop down to two, and a 1×N result is a vec of N. So `A[:, j]` is an M×1
/// mat, `A[i, :]` a vec, `x[:, :, k]` a mat and `x[i, :, :]` a 1×N×C cube.
pub fn slice_dims(lens: &[usize]) -> Vec<usize> {
    match lens {
        // One length stays a vec of it; none is the empty vec (a slice always has one).
        [n] => vec![*n],
        [] => Vec::new(),
        _ => Array::into_canonical_dims(lens.to_vec()),
    }
}

#[cfg(test)]
#[path = "array_tests.rs"]
mod tests;
