//! Array indexing in host code: element, slice, gather, position and mask reads and writes.
//!
//! # Shape seen by an index
//! The *logical shape* `L` is [`Array::size`] (a vec of N is `[1, N]`). With `k` index
//! arguments:
//! - `k == L.len()`: one coordinate per dimension;
//! - `k > L.len()`: `L` is padded with trailing 1s (`x[i, j, 0]` on a mat, `v[0, j]` on a vec);
//! - `k < L.len()`: the last argument runs linearly (row-major) over the remaining
//!   trailing dimensions folded together (MATLAB rule); `k == 1` is a linear index over
//!   all elements.
//!
//! Folding and padding keep the row-major order, so the offset of a coordinate tuple is
//! always computed with the strides of this *effective shape*.
//!
//! # Index arguments
//! - an integer scalar (`Value::Int`, or a `Value::Real` that is integral; `2.5` is an error);
//! - `:` ([`IndexArg::All`]) and ranges ([`IndexArg::Range`], inclusive, possibly reversed
//!   or empty; a zero step is an error);
//! - an integer array (any int element type, or a real array with integral elements): a
//!   list of coordinates (gather), taken in row-major order whatever its rank;
//! - *position*: a single argument that is an **int-typed** vector (rank 1) of length
//!   `L.len() >= 2` on an array of rank >= 2 addresses one element (`x[pos]` with an
//!   `ivec3` on a cube). On a vec a single int vector is a gather. Real-typed vectors are
//!   never positions (they are gathers of linear indices);
//! - *mask*: a single real-typed (F32/F64) array with exactly the dims of the indexed array
//!   whose elements are all 0 or 1. It is checked before the gather rule, so such an array
//!   is never a list of 0/1 coordinates;
//! - complex, cell, string, function and object values are errors.
//!
//! # Results of reads
//! All-scalar arguments (or a position) give the element as a [`Value`] (the stored value
//! for cells). Otherwise a new array (same element type, default access) whose dims are the
//! numbers of coordinates of the arguments in order, 1 for a scalar argument, with
//! trailing singleton dimensions dropped down to two and a 1×N result a vec (MATLAB rule,
//! [`slice_dims`]: `A[:, j]` is an M×1 mat, `A[i, :]` a vec of N, `x[:, :, 0]` a mat,
//! `x[i, :, :]` a 1×N×C cube). A single argument gives a vec. A mask read is a vec of the
//! selected elements in row-major order.
//!
//! # Boundary modes (LANGUAGE.md §5)
//! Reads: default, `checked` and `unchecked` (checked in host code) fail outside; `safe`
//! reads zero (of the element type, `Real(0)` for cells); `circular` takes the
//! non-negative remainder; `mirror` is `j = |i| mod 2n; if j >= n { 2n-1-j }`; `clamped`
//! clamps. A dimension of extent 0 reads zero under `safe` and fails otherwise.
//! Writes (the put modes): `checked` and `unchecked` (checked in host code) fail outside;
//! the default, `safe`, `circular`, `mirror` and `clamped` ignore writes outside (all map
//! to the put mode `safe`). A `'const` array refuses all writes.
//!
//! # Writes
//! Values are converted to the element type; a complex value into a real (or int) array and
//! a string, function or object into a numeric array are errors. The value is a scalar
//! (broadcast), or an array with as many elements as selected (row-major order, shapes
//! need not match; elements outside the bounds under a safe-like mode consume their
//! source element too), or for a mask write an array with the dims of the target (element
//! -wise select). Into a cell array, a single element stores the value itself; a slice
//! takes a cell array with the right count element-wise and broadcasts anything else.
//! Duplicate coordinates: the last write wins. The value array may be the target itself
//! (`A[0..2] = A[1..3]`): it is copied first.

mod moves;
mod select;
pub use crate::array::slice_dims;
pub use moves::{join, tile};
pub use select::copy_blocks;
#[cfg(test)]
mod tests;

use crate::aref::{ArrRead, ArrWrite, ArrayRef};
use crate::array::{Array, Buffer, ElemType, Mode};
use crate::value::{IntTy, Prec, Value};
use crate::{rt_bail, RtError, RtResult};
use num_complex::Complex64;

/// One index argument as evaluated by the interpreter.
#[derive(Clone, Debug)]
pub enum IndexArg {
    Value(Value),
    /// `:`
    All,
    /// `start..step..end`, inclusive; empty when it goes the wrong way.
    Range {
        start: i64,
        step: i64,
        end: i64,
    },
}

/// Where a coordinate is taken, for error messages.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Where {
    Dim(usize),
    Linear,
}

fn out_of_bounds(i: i64, n: usize, w: Where) -> RtError {
    match w {
        Where::Dim(d) => RtError::new(blazar_value::out_of_bounds_message(i, d, n)),
        Where::Linear => RtError::new(format!(
            "linear index {i} is out of bounds for {n} elements"
        )),
    }
}

/// Resolves one coordinate under a read mode: `Some(in-range index)`, `None` (reads as
/// zero, `safe`) or an error (default, `checked`, `unchecked` in host code).
pub fn resolve_read(i: i64, n: usize, mode: Mode, dim: usize) -> RtResult<Option<usize>> {
    read_at(i, n, mode, Where::Dim(dim))
}

#[inline]
pub(crate) fn read_at(i: i64, n: usize, mode: Mode, w: Where) -> RtResult<Option<usize>> {
    if i >= 0 && (i as u64) < n as u64 {
        return Ok(Some(i as usize));
    }
    match mode {
        Mode::Safe => Ok(None),
        Mode::Default | Mode::Checked | Mode::Unchecked => Err(out_of_bounds(i, n, w)),
        _ if n == 0 => Err(out_of_bounds(i, n, w)),
        Mode::Circular => Ok(Some((i as i128).rem_euclid(n as i128) as usize)),
        Mode::Mirror => {
            let n2 = 2 * n as u128;
            let j = i.unsigned_abs() as u128 % n2;
            Ok(Some(if j >= n as u128 { n2 - 1 - j } else { j } as usize))
        }
        Mode::Clamped => Ok(Some(if i < 0 { 0 } else { n - 1 })),
    }
}

/// Resolves one coordinate of a write: `None` means the write is ignored (the put mode
/// `safe`, which every mode but `checked` and `unchecked` maps to).
#[inline]
pub(crate) fn write_at(i: i64, n: usize, mode: Mode, w: Where) -> RtResult<Option<usize>> {
    if i >= 0 && (i as u64) < n as u64 {
        return Ok(Some(i as usize));
    }
    match mode {
        Mode::Default | Mode::Safe | Mode::Circular | Mode::Mirror | Mode::Clamped => Ok(None),
        Mode::Checked | Mode::Unchecked => Err(out_of_bounds(i, n, w)),
    }
}

/// Host read `a[args]` with the access mode of `a`.
pub fn get(a: &ArrayRef, args: &[IndexArg]) -> RtResult<Value> {
    let arr = borrow(a)?;
    check_shape(arr.dims(), arr.buf())?;
    let plan = select::plan(arr.dims(), args, a.mode.mode, false)?;
    if plan.all_scalar {
        return Ok(match plan.scalar_offset() {
            Some(o) => arr.buf().get_value(o),
            None => zero_value(arr.elem()),
        });
    }
    let buf = select::gather(arr.buf(), &plan.sels, plan.count);
    Ok(Value::array(Array::new(plan.shape, buf)))
}

/// Host write `a[args] = v` (element, slice, gather or mask assignment).
pub fn set(a: &ArrayRef, args: &[IndexArg], v: &Value, _prec: Prec) -> RtResult<()> {
    check_writable(a)?;
    let (dims, elem) = {
        let arr = borrow(a)?;
        check_shape(arr.dims(), arr.buf())?;
        (arr.dims().to_vec(), arr.elem())
    };
    let plan = select::plan(&dims, args, a.mode.mode, true)?;
    if let Value::Array(r) = v {
        // A single cell element stores the array itself: fall through to the broadcast.
        if !(elem == ElemType::Cell && plan.all_scalar) {
            // Copy the value array first when it shares the target's elements (the
            // target itself or a view of it).
            let owned;
            let guard;
            let src: &Array = if r.same_store(a) {
                owned = borrow(r)?.to_array();
                &owned
            } else {
                guard = borrow(r)?;
                &guard
            };
            check_shape(&src.dims, &src.buf)?;
            let same_pos = plan.mask && src.dims == dims;
            let fits = same_pos || src.len() == plan.count;
            if elem != ElemType::Cell {
                if !fits {
                    rt_bail!(
                        "cannot assign {} values to {} elements",
                        src.len(),
                        plan.count
                    );
                }
                if src.elem().is_complex() && !elem.is_complex() {
                    rt_bail!("cannot store a complex value in a real array");
                }
                if let Buffer::Cell(vals) = &src.buf {
                    for x in vals {
                        check_storable(elem, x)?;
                    }
                }
            }
            if elem != ElemType::Cell || (src.is_cell() && fits) {
                let mut arr = borrow_mut(a)?;
                select::scatter(&mut arr.buf, &src.buf, &plan.sels, same_pos);
                return Ok(());
            }
        }
    }
    // A scalar, or any value into cells: broadcast.
    check_storable(elem, v)?;
    let mut arr = borrow_mut(a)?;
    select::for_each_offset(&plan.sels, |o| {
        if let Some(o) = o {
            arr.buf.set_value(o, v);
        }
    });
    Ok(())
}

/// Fast read `a[i]`, `a[i, j]`, ... with plain integer indices; no allocation.
pub fn get_scalar_index(a: &ArrayRef, idx: &[i64]) -> RtResult<Value> {
    let arr = borrow(a)?;
    match locate(arr.dims(), arr.buf(), idx, a.mode.mode, false)? {
        Some(o) => Ok(arr.buf().get_value(o)),
        None => Ok(zero_value(arr.elem())),
    }
}

/// Fast write `a[i, j, ...] = v` with plain integer indices.
pub fn set_scalar_index(a: &ArrayRef, idx: &[i64], v: &Value) -> RtResult<()> {
    check_writable(a)?;
    let mut arr = borrow_mut(a)?;
    if let (Value::Array(_), false) = (v, arr.is_cell()) {
        drop(arr);
        let args: Vec<IndexArg> = idx
            .iter()
            .map(|&i| IndexArg::Value(Value::Int(i, IntTy::I64)))
            .collect();
        return set(a, &args, v, Prec::default());
    }
    check_storable(arr.elem(), v)?;
    if let Some(o) = locate(&arr.dims, &arr.buf, idx, a.mode.mode, true)? {
        arr.buf.set_value(o, v);
    }
    Ok(())
}

/// The flat offset of integer coordinates, `None` when outside under a lenient mode.
fn locate(
    dims: &[usize],
    buf: &Buffer,
    idx: &[i64],
    mode: Mode,
    write: bool,
) -> RtResult<Option<usize>> {
    check_shape(dims, buf)?;
    let k = idx.len();
    if k == dims.len() && k > 0 {
        // One coordinate per dimension, all inside (the common case): the offset
        // directly. Anything else (outside, linear or padded indexing) below.
        let mut off = 0usize;
        let inside = idx.iter().zip(dims).all(|(&i, &n)| {
            off = off.wrapping_mul(n).wrapping_add(i as usize);
            i >= 0 && (i as u64) < n as u64
        });
        if inside {
            return Ok(Some(off));
        }
    }
    if k == 0 {
        rt_bail!("an index is required");
    }
    let linear = k == 1 && dims.len() >= 2;
    let mut off = 0usize;
    let mut inside = true;
    for (d, &i) in idx.iter().enumerate() {
        let n = select::eff_dim(dims, k, d);
        let w = if linear { Where::Linear } else { Where::Dim(d) };
        let r = if write {
            write_at(i, n, mode, w)?
        } else {
            read_at(i, n, mode, w)?
        };
        match r {
            Some(c) => off = off.wrapping_mul(n).wrapping_add(c),
            None => inside = false,
        }
    }
    Ok(inside.then_some(off))
}

fn borrow(a: &ArrayRef) -> RtResult<ArrRead<'_>> {
    a.try_borrow()
        .map_err(|_| RtError::new("the array is being modified"))
}

fn borrow_mut(a: &ArrayRef) -> RtResult<ArrWrite<'_>> {
    a.try_borrow_mut()
        .map_err(|_| RtError::new("the array is in use"))
}

fn check_writable(a: &ArrayRef) -> RtResult<()> {
    if a.mode.is_const {
        rt_bail!("cannot write to a 'const array");
    }
    Ok(())
}

/// Refuses arrays whose dims do not match their storage (never index past the buffer).
fn check_shape(dims: &[usize], buf: &Buffer) -> RtResult<()> {
    let n = dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    if n != Some(buf.len()) {
        rt_bail!(
            "malformed array: dims {:?} for {} elements",
            dims,
            buf.len()
        );
    }
    Ok(())
}

/// Whether `v` can be stored in an element of type `elem`.
fn check_storable(elem: ElemType, v: &Value) -> RtResult<()> {
    match (elem, v) {
        (ElemType::Cell, _) => Ok(()),
        (ElemType::C32 | ElemType::C64, Value::Complex(_)) => Ok(()),
        (_, Value::Complex(_)) => rt_bail!("cannot store a complex value in a real array"),
        (_, Value::Real(_) | Value::Int(..)) => Ok(()),
        (_, Value::Str(_)) => rt_bail!("cannot store a string in a numeric array"),
        (_, other) => rt_bail!(
            "cannot store a {} in an element of a numeric array",
            other.kind_name()
        ),
    }
}

/// Zero of an element type, as read outside the bounds under `safe`.
pub(crate) fn zero_value(elem: ElemType) -> Value {
    match elem {
        ElemType::F32 | ElemType::F64 | ElemType::Cell => Value::Real(0.0),
        ElemType::C32 | ElemType::C64 => Value::Complex(Complex64::new(0.0, 0.0)),
        ElemType::Int(t) => Value::Int(0, t),
    }
}
