//! Reductions: `sum prod mean min max cumsum cumprod dotprod`.
//!
//! Without a dimension they reduce over all elements to a scalar; with a 0-based
//! dimension `d` (of `size(x)`, so a vec is 1×N) they reduce along it and the result
//! drops that extent (canonicalised; a one-element result is a scalar). Real sums
//! accumulate in f64 and round once. Int sums (and running sums) accumulate in 64 bits
//! and give `int64` (`uint64` for `uint64`), so no sum of a size that fits in memory
//! wraps (`sum_type`); products wrap in the element type, with 8- and 16-bit types
//! promoted to `int` as C does; `mean` of ints is real (summed in f64). `min(a, b)`
//! and `max(a, b)` are element-wise; `max(A, [], d)` reduces along `d`.

use super::math::{
    bi,
    binary::{max2, min2},
    expected_numeric,
};
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer, ElemType};
use crate::ops::{
    binary, complex_buffer, complexes_of, int_buffer, ints_of, real_buffer, reals_of, BinOp, HostOp,
};
use crate::value::{IntTy, Prec, Value};
use crate::{rt_bail, RtResult};
use num_complex::Complex64;

type C = Complex64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Red {
    Sum,
    Prod,
    Mean,
    Min,
    Max,
}

impl Red {
    fn name(self) -> &'static str {
        match self {
            Red::Sum => "sum",
            Red::Prod => "prod",
            Red::Mean => "mean",
            Red::Min => "min",
            Red::Max => "max",
        }
    }
}

/// Lanes of a reduction along one dimension: `outer × len × inner` elements.
#[derive(Clone, Copy)]
struct Lanes {
    outer: usize,
    len: usize,
    inner: usize,
}

impl Lanes {
    fn all(n: usize) -> Lanes {
        Lanes {
            outer: 1,
            len: n,
            inner: 1,
        }
    }

    fn along(size: &[usize], d: usize) -> Lanes {
        let outer = size[..d.min(size.len())].iter().product();
        let len = size.get(d).copied().unwrap_or(1);
        let inner = size.get(d + 1..).map(|s| s.iter().product()).unwrap_or(1);
        Lanes { outer, len, inner }
    }

    /// Folds every lane: the result has `outer * inner` accumulators.
    fn fold<T: Copy, A: Copy>(self, data: &[T], init: A, f: impl Fn(A, T) -> A) -> Vec<A> {
        let mut acc = vec![init; self.outer * self.inner];
        for o in 0..self.outer {
            let out = &mut acc[o * self.inner..(o + 1) * self.inner];
            for k in 0..self.len {
                let base = (o * self.len + k) * self.inner;
                if let Some(row) = data.get(base..base + self.inner) {
                    for (a, &x) in out.iter_mut().zip(row) {
                        *a = f(*a, x);
                    }
                }
            }
        }
        acc
    }

    /// Running fold along every lane: the result has one value per element.
    fn scan<T: Copy, A: Copy>(self, data: &[T], init: A, f: impl Fn(A, T) -> A) -> Vec<A> {
        let mut out = Vec::with_capacity(data.len());
        let mut acc = vec![init; self.inner];
        for o in 0..self.outer {
            acc.iter_mut().for_each(|a| *a = init);
            for k in 0..self.len {
                let base = (o * self.len + k) * self.inner;
                if let Some(row) = data.get(base..base + self.inner) {
                    for (a, &x) in acc.iter_mut().zip(row) {
                        *a = f(*a, x);
                        out.push(*a);
                    }
                }
            }
        }
        out
    }
}

/// The int type of sums and running sums of ints of type `t`: 64 bits, so that a sum of
/// up to 2^32 values of 32 bits cannot wrap. `uint64` sums stay `uint64` (wrapping, as
/// their `+` does). AIR's accumulators follow this (`air::Builder::accumulator`).
fn sum_type(t: IntTy) -> IntTy {
    match t {
        IntTy::U64 => IntTy::U64,
        _ => IntTy::I64,
    }
}

/// The int type of products (C promotion of 8- and 16-bit types).
fn promoted(t: IntTy) -> IntTy {
    match t {
        IntTy::I8 | IntTy::I16 | IntTy::U8 | IntTy::U16 => IntTy::I32,
        t => t,
    }
}

fn borrow<'a>(name: &str, v: &'a Value) -> RtResult<crate::ArrRead<'a>> {
    match v {
        Value::Array(r) => {
            let a = r.try_borrow().map_err(|_| expected_numeric(name, v))?;
            if a.is_cell() {
                return Err(expected_numeric(name, v));
            }
            Ok(a)
        }
        _ => Err(expected_numeric(name, v)),
    }
}

fn real_fold(op: Red, lanes: Lanes, buf: &Buffer) -> Vec<f64> {
    macro_rules! go {
        ($data:expr) => {
            match op {
                Red::Sum | Red::Mean => lanes.fold($data, 0.0, |a, x| a + x as f64),
                Red::Prod => lanes.fold($data, 1.0, |a, x| a * x as f64),
                Red::Min => lanes.fold($data, f64::NAN, |a: f64, x| a.min(x as f64)),
                Red::Max => lanes.fold($data, f64::NAN, |a: f64, x| a.max(x as f64)),
            }
        };
    }
    let mut v = match buf {
        Buffer::F32(d) => go!(d.as_slice()),
        _ => go!(&reals_of(buf)[..]),
    };
    if op == Red::Mean {
        v.iter_mut().for_each(|x| *x /= lanes.len as f64);
    }
    v
}

fn int_fold(op: Red, lanes: Lanes, buf: &Buffer, t: IntTy) -> (IntTy, Vec<i64>) {
    let data = ints_of(buf);
    let u = t == IntTy::U64;
    match op {
        Red::Sum => (
            sum_type(t),
            lanes.fold(&data, 0i64, |a, x| a.wrapping_add(x)),
        ),
        Red::Prod => (
            promoted(t),
            lanes.fold(&data, 1i64, |a, x| a.wrapping_mul(x)),
        ),
        Red::Min if u => (
            t,
            lanes.fold(&data, -1i64, |a, x| (a as u64).min(x as u64) as i64),
        ),
        Red::Max if u => (
            t,
            lanes.fold(&data, 0i64, |a, x| (a as u64).max(x as u64) as i64),
        ),
        Red::Min => (t, lanes.fold(&data, i64::MAX, |a, x| a.min(x))),
        Red::Max => (t, lanes.fold(&data, i64::MIN, |a, x| a.max(x))),
        Red::Mean => (t, vec![]), // handled as reals
    }
}

/// Reduces `v` with `op`, over everything (`dim = None`) or along `dim`.
fn reduce(op: Red, v: &Value, dim: Option<usize>, prec: Prec) -> RtResult<Value> {
    let name = op.name();
    match v {
        Value::Int(x, t) if op == Red::Mean => return Ok(Value::Real(prec.round(t.to_f64(*x)))),
        Value::Complex(_) if matches!(op, Red::Min | Red::Max) => {
            rt_bail!("{name}: complex numbers are not ordered")
        }
        _ if v.is_scalar() => return Ok(v.clone()),
        _ => {}
    }
    let a = borrow(name, v)?;
    let size = a.size();
    let (lanes, out_dims) = match dim {
        None => (Lanes::all(a.len()), vec![1]),
        Some(d) => {
            let mut out = size.clone();
            if d < out.len() {
                out.remove(d);
            }
            (Lanes::along(&size, d), Array::canonical_dims(&out))
        }
    };
    if lanes.len == 0 && matches!(op, Red::Min | Red::Max) {
        rt_bail!("{name} of an empty array");
    }
    let buf = match a.elem() {
        ElemType::C32 | ElemType::C64 => {
            let z = complexes_of(&a.buf);
            let mut r = match op {
                Red::Sum | Red::Mean => lanes.fold(&z, C::new(0.0, 0.0), |s, x| s + x),
                Red::Prod => lanes.fold(&z, C::new(1.0, 0.0), |s, x| s * x),
                Red::Min | Red::Max => rt_bail!("{name}: complex numbers are not ordered"),
            };
            if op == Red::Mean {
                r.iter_mut().for_each(|x| *x /= lanes.len as f64);
            }
            complex_buffer(prec, r.into_iter().map(|z| prec.round_c(z)).collect())
        }
        ElemType::Int(t) if op != Red::Mean => {
            let (rt, r) = int_fold(op, lanes, &a.buf, t);
            int_buffer(rt, r.into_iter().map(|x| rt.wrap(x)).collect())
        }
        _ => real_buffer(prec, real_fold(op, lanes, &a.buf)),
    };
    if buf.len() == 1 {
        return Ok(buf.get_value(0));
    }
    Ok(Value::array(Array::new(out_dims, buf)))
}

fn dim_arg(name: &str, v: &Value) -> RtResult<usize> {
    match v.as_i64() {
        Some(d) if d >= 0 => Ok(d as usize),
        _ => rt_bail!("{name}: the dimension must be a non-negative integer"),
    }
}

fn reduce_fn(op: Red, ctx: &Ctx, args: &[Value]) -> RtResult<Value> {
    let dim = match args.get(1) {
        Some(d) => Some(dim_arg(op.name(), d)?),
        None => None,
    };
    reduce(op, &args[0], dim, ctx.prec)
}

fn sum(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    reduce_fn(Red::Sum, ctx, args)
}

fn prod(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    reduce_fn(Red::Prod, ctx, args)
}

fn mean(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    reduce_fn(Red::Mean, ctx, args)
}

/// `min(A)`, `min(a, b)` (element-wise) or `min(A, [], d)`.
fn min(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    match args {
        [a] => reduce(Red::Min, a, None, ctx.prec),
        [a, b] => min2(a, b, ctx.prec),
        [a, _, d] => reduce(Red::Min, a, Some(dim_arg("min", d)?), ctx.prec),
        _ => rt_bail!("min: expected 1 to 3 arguments"),
    }
}

fn max(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    match args {
        [a] => reduce(Red::Max, a, None, ctx.prec),
        [a, b] => max2(a, b, ctx.prec),
        [a, _, d] => reduce(Red::Max, a, Some(dim_arg("max", d)?), ctx.prec),
        _ => rt_bail!("max: expected 1 to 3 arguments"),
    }
}

/// Running sums or products along a dimension; without one, along the second index
/// (Quasar's default: a vec's only axis, a matrix's rows, as published code computes
/// vertical sums as `transpose(cumsum(transpose(A)))`).
fn cumulative(name: &str, product: bool, ctx: &Ctx, args: &[Value]) -> RtResult<Value> {
    let v = &args[0];
    if v.is_scalar() {
        return Ok(v.clone());
    }
    let a = borrow(name, v)?;
    let size = a.size();
    let d = match args.get(1) {
        Some(d) => dim_arg(name, d)?,
        None => 1,
    };
    let lanes = Lanes::along(&size, d);
    let prec = ctx.prec;
    let buf = match a.elem() {
        ElemType::C32 | ElemType::C64 => {
            let z = complexes_of(&a.buf);
            let r = if product {
                lanes.scan(&z, C::new(1.0, 0.0), |s, x| s * x)
            } else {
                lanes.scan(&z, C::new(0.0, 0.0), |s, x| s + x)
            };
            complex_buffer(prec, r.into_iter().map(|z| prec.round_c(z)).collect())
        }
        ElemType::Int(t) => {
            let data = ints_of(&a.buf);
            let rt = if product { promoted(t) } else { sum_type(t) };
            let r = if product {
                lanes.scan(&data, 1i64, |s, x| rt.wrap(s.wrapping_mul(x)))
            } else {
                lanes.scan(&data, 0i64, |s, x| rt.wrap(s.wrapping_add(x)))
            };
            int_buffer(rt, r)
        }
        _ => {
            let data = reals_of(&a.buf);
            let r = if product {
                lanes.scan(&data, 1.0, |s, x| s * x)
            } else {
                lanes.scan(&data, 0.0, |s, x| s + x)
            };
            real_buffer(prec, r)
        }
    };
    Ok(Value::array(Array::new(a.dims.clone(), buf)))
}

fn cumsum(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    cumulative("cumsum", false, ctx, args)
}

fn cumprod(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    cumulative("cumprod", true, ctx, args)
}

/// `dotprod(a, b)` = `sum(a .* b)` (no conjugation).
fn dotprod(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let p = binary(HostOp::dot(BinOp::Mul), &args[0], &args[1], ctx.prec)
        .map_err(|e| crate::RtError::new(format!("dotprod: {}", e.message)))?;
    reduce(Red::Sum, &p, None, ctx.prec)
}

pub(super) static TABLE: &[Builtin] = &[
    bi("sum", sum, 1, 2).doc(
        "sum(x) · sum(x, d)",
        "The sum of all elements of x, or along dimension d (counting from 0). Ints add in 64 bits and give `int64`.",
        "A = [[1, 2], [3, 4]]\nprint sum(A), \" \", sum(A, 0), \" \", sum(A, 1)",
        "10 [4,6] [3,7]",
    ),
    bi("prod", prod, 1, 2).doc(
        "prod(x) · prod(x, d)",
        "The product of all elements of x, or along dimension d. Ints multiply in their own type and wrap, as `*` does.",
        "print prod([1, 2, 3, 4]), \" \", prod([[1, 2], [3, 4]], 0)",
        "24 [3,8]",
    ),
    bi("mean", mean, 1, 2).doc(
        "mean(x) · mean(x, d)",
        "The arithmetic mean of all elements of x, or along dimension d; the mean of ints is a real.",
        "print mean([1, 2, 3, 4]), \" \", mean([[1, 2], [3, 4]], 1)",
        "2.5 [1.5,3.5]",
    ),
    bi("min", min, 1, 3).doc(
        "min(x) · min(a, b) · min(x, [], d)",
        "The smallest element of x; with two arrays, the smaller of each pair of elements (broadcast); `min(x, [], d)`, the smallest along dimension d. `find_index_min` gives where it is.",
        "print min([4, -1, 9]), \" \", min([1, 5], [4, 2]), \" \", min([[1, 5], [4, 2]], [], 0)",
        "-1 [1,2] [1,2]",
    ),
    bi("max", max, 1, 3).doc(
        "max(x) · max(a, b) · max(x, [], d)",
        "The largest element of x; with two arrays, the larger of each pair of elements (broadcast); `max(x, [], d)`, the largest along dimension d. `find_index_max` gives where it is.",
        "print max([4, -1, 9]), \" \", max([1, 5], [4, 2]), \" \", max(0, [-2, 3])",
        "9 [4,5] [0,3]",
    ),
    bi("cumsum", cumsum, 1, 2).doc(
        "cumsum(x) · cumsum(x, d)",
        "The running sums of the elements of x (along dimension d for a matrix).",
        "print cumsum([1, 2, 3, 4])",
        "[1,3,6,10]",
    ),
    bi("cumprod", cumprod, 1, 2).doc(
        "cumprod(x) · cumprod(x, d)",
        "The running products of the elements of x (along dimension d for a matrix).",
        "print cumprod([1, 2, 3, 4])",
        "[1,2,6,24]",
    ),
    bi("dotprod", dotprod, 2, 2).doc(
        "dotprod(a, b)",
        "The dot product sum(a .* b) of two arrays of the same shape.",
        "print dotprod([1, 2, 3], [4, 5, 6])",
        "32",
    ),
];

#[cfg(test)]
mod tests;
