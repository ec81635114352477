//! Statistics and queries: `median std var any all isempty isscalar find
//! find_index_min find_index_max`.
//!
//! As `sum` and `mean` do, `median`, `std`, `var`, `any` and `all` reduce over all
//! elements without a dimension (a scalar) and along a 0-based dimension `d` of
//! `size(x)` with one (that extent drops). `std` and `var` normalise by N − 1 (MATLAB's
//! and NumPy's `ddof=1`); a single element has variance 0. `find(x)` gives the 0-based
//! linear indices of the non-zero elements of a vector, and one row of positions per
//! non-zero element of a matrix or cube (K×2 or K×3, in storage order); `[i, j] =
//! find(A)` and `[i, j, v] = find(A)` split the positions per dimension (MATLAB's form).

use super::arrange::{dim, numeric};
use super::math::bi;
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::ops::{complexes_of, real_buffer, reals_of};
use crate::value::{Prec, Value};
use crate::{rt_bail, RtResult};

/// The lanes of `size` along `d`: `outer × len × inner` elements.
pub(super) struct Lanes {
    pub outer: usize,
    pub len: usize,
    pub inner: usize,
}

impl Lanes {
    pub fn along(size: &[usize], d: usize) -> Lanes {
        Lanes {
            outer: size[..d.min(size.len())].iter().product(),
            len: size.get(d).copied().unwrap_or(1),
            inner: size.get(d + 1..).map_or(1, |s| s.iter().product()),
        }
    }

    /// Element indices of lane `l` (`0..outer*inner`), in order along the dimension.
    pub fn lane(&self, l: usize) -> impl Iterator<Item = usize> + '_ {
        let (o, i) = (l / self.inner, l % self.inner);
        (0..self.len).map(move |k| (o * self.len + k) * self.inner + i)
    }

    pub fn count(&self) -> usize {
        self.outer * self.inner
    }
}

/// The dims of a reduction along `d` (that extent removed).
fn reduced_dims(size: &[usize], d: usize) -> Vec<usize> {
    let mut out = size.to_vec();
    if d < out.len() {
        out.remove(d);
    }
    Array::canonical_dims(&out)
}

/// Applies `f` to every lane (all elements without a dimension) of a real view of
/// `args[0]`; a one-element result is a scalar.
fn per_lane(
    name: &str,
    args: &[Value],
    prec: Prec,
    f: impl Fn(&mut Vec<f64>) -> f64,
) -> RtResult<Value> {
    if let Some(x) = args[0].as_f64() {
        if args[0].as_complex().is_some_and(|z| z.im == 0.0) {
            return Ok(Value::Real(prec.round(f(&mut vec![x]))));
        }
    }
    if matches!(args[0], Value::Complex(_)) {
        rt_bail!("{name}: complex numbers are not supported");
    }
    let a = numeric(name, &args[0])?;
    if a.elem().is_complex() {
        rt_bail!("{name}: complex numbers are not supported");
    }
    let data = reals_of(&a.buf);
    let size = a.size();
    let (lanes, dims) = match args.get(1) {
        None => (Lanes::along(&[a.len()], 0), vec![1]),
        Some(v) => {
            let d = dim(name, v)?;
            (Lanes::along(&size, d), reduced_dims(&size, d))
        }
    };
    if lanes.len == 0 {
        rt_bail!("{name} of an empty array");
    }
    let mut scratch = Vec::with_capacity(lanes.len);
    let out: Vec<f64> = (0..lanes.count())
        .map(|l| {
            scratch.clear();
            scratch.extend(lanes.lane(l).map(|i| data[i]));
            f(&mut scratch)
        })
        .collect();
    let buf = real_buffer(prec, out);
    if buf.len() == 1 {
        return Ok(buf.get_value(0));
    }
    Ok(Value::array(Array::new(dims, buf)))
}

/// The median of `v` (reordered in place); NaN when any element is NaN.
fn median_of(v: &mut Vec<f64>) -> f64 {
    if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    let n = v.len();
    let mid = n / 2;
    let (_, m, _) = v.select_nth_unstable_by(mid, f64::total_cmp);
    let hi = *m;
    if n % 2 == 1 {
        return hi;
    }
    let lo = v[..mid].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (lo + hi) / 2.0
}

fn variance_of(v: &mut Vec<f64>) -> f64 {
    let n = v.len() as f64;
    if v.len() < 2 {
        return 0.0;
    }
    let mean = v.iter().sum::<f64>() / n;
    v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
}

fn median(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    per_lane("median", args, ctx.prec, median_of)
}

fn var(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    per_lane("var", args, ctx.prec, variance_of)
}

fn std(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    per_lane("std", args, ctx.prec, |v| variance_of(v).sqrt())
}

/// Whether each element is non-zero (NaN counts as non-zero, as in MATLAB).
fn nonzero(buf: &Buffer) -> Vec<bool> {
    match buf {
        Buffer::C32(_) | Buffer::C64(_) => complexes_of(buf)
            .iter()
            .map(|z| z.re != 0.0 || z.im != 0.0)
            .collect(),
        _ => reals_of(buf).iter().map(|&x| x != 0.0).collect(),
    }
}

fn logical(name: &str, args: &[Value], all: bool) -> RtResult<Value> {
    if let Some(z) = args[0].as_complex() {
        return Ok(Value::int(i64::from(z.re != 0.0 || z.im != 0.0)));
    }
    let a = numeric(name, &args[0])?;
    let nz = nonzero(&a.buf);
    let size = a.size();
    let (lanes, dims) = match args.get(1) {
        None => (Lanes::along(&[a.len()], 0), vec![1]),
        Some(v) => {
            let d = dim(name, v)?;
            (Lanes::along(&size, d), reduced_dims(&size, d))
        }
    };
    let out: Vec<i32> = (0..lanes.count())
        .map(|l| {
            let mut it = lanes.lane(l);
            i32::from(if all {
                it.all(|i| nz[i])
            } else {
                it.any(|i| nz[i])
            })
        })
        .collect();
    if out.len() == 1 {
        return Ok(Value::int(out[0] as i64));
    }
    Ok(Value::array(Array::from_ints(dims, out)))
}

/// `any(x)`, `any(x, d)`: 1 where some element is non-zero.
fn any(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    logical("any", args, false)
}

/// `all(x)`, `all(x, d)`: 1 where every element is non-zero (`all` of nothing is 1).
fn all(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    logical("all", args, true)
}

/// `isempty(x)`: 1 for an array without elements or an empty string.
fn isempty(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let empty = match &args[0] {
        Value::Array(r) => {
            r.meta()
                .map_err(|_| crate::RtError::new("isempty: array is being modified"))?
                .len()
                == 0
        }
        Value::Str(s) => s.is_empty(),
        _ => false,
    };
    Ok(Value::int(i64::from(empty)))
}

/// `isscalar(x)`: 1 for a number and for a numeric array of one element.
fn isscalar(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let one = match &args[0] {
        Value::Real(_) | Value::Int(..) | Value::Complex(_) => true,
        Value::Array(r) => {
            let m = r
                .meta()
                .map_err(|_| crate::RtError::new("isscalar: array is being modified"))?;
            m.len() == 1 && !m.is_cell()
        }
        _ => false,
    };
    Ok(Value::int(i64::from(one)))
}

/// `find(x)`: see the module comment. With several outputs, `[i, j] = find(A)` (and
/// `[i, j, v]`) gives one vector per dimension of `size(A)` (a vec is 1×N) with the
/// non-zero elements' positions, then their values.
pub(super) fn find_all(ctx: &mut Ctx, args: &[Value], nout: usize) -> RtResult<Vec<Value>> {
    let owned;
    let a = match &args[0] {
        v @ (Value::Real(_) | Value::Int(..) | Value::Complex(_)) => {
            owned = super::arrange::array_arg("find", v, ctx.prec)?;
            &owned
        }
        v => {
            owned = numeric("find", v)?.clone();
            &owned
        }
    };
    let hits: Vec<usize> = nonzero(&a.buf)
        .iter()
        .enumerate()
        .filter_map(|(i, &nz)| nz.then_some(i))
        .collect();
    if hits.iter().any(|&i| i > i32::MAX as usize) {
        rt_bail!("find: the array is too large for int indices");
    }
    let k = hits.len();
    if nout <= 1 && a.rank() <= 1 {
        let idx = hits.into_iter().map(|i| i as i32).collect();
        return Ok(vec![Value::array(Array::from_ints(vec![k], idx))]);
    }
    let dims = if nout > 1 { a.size() } else { a.dims.clone() };
    let r = dims.len();
    let mut pos = vec![0i32; k * r];
    for (row, h) in hits.iter().enumerate() {
        let mut rest = *h;
        for d in (0..r).rev() {
            pos[row * r + d] = (rest % dims[d]) as i32;
            rest /= dims[d];
        }
    }
    if nout <= 1 {
        return Ok(vec![Value::array(Array::from_ints(vec![k, r], pos))]);
    }
    let mut out: Vec<Value> = (0..r.min(nout))
        .map(|d| {
            let col = (0..k).map(|row| pos[row * r + d]).collect();
            Value::array(Array::from_ints(vec![k], col))
        })
        .collect();
    if nout > r {
        let vals = super::construct::shape::gather(&a.buf, &hits);
        out.push(Value::array(Array::new(vec![k], vals)));
    }
    Ok(out)
}

fn find(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(find_all(ctx, args, 1)?.swap_remove(0))
}

/// The linear index of the first smallest (or largest) element; NaNs are skipped.
fn find_extreme(name: &str, v: &Value, largest: bool) -> RtResult<Value> {
    if v.as_f64().is_some() {
        return Ok(Value::int(0));
    }
    let a = numeric(name, v)?;
    if a.elem().is_complex() {
        rt_bail!("{name}: complex numbers are not ordered");
    }
    let data = reals_of(&a.buf);
    let mut best: Option<usize> = None;
    for (i, &x) in data.iter().enumerate() {
        if x.is_nan() {
            continue;
        }
        let better = match best {
            None => true,
            Some(b) if largest => x > data[b],
            Some(b) => x < data[b],
        };
        if better {
            best = Some(i);
        }
    }
    match best {
        Some(i) if i <= i32::MAX as usize => Ok(Value::int(i as i64)),
        Some(i) => Ok(Value::Int(i as i64, crate::value::IntTy::I64)),
        None => rt_bail!("{name}: the array has no (non-NaN) elements"),
    }
}

fn find_index_min(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    find_extreme("find_index_min", &args[0], false)
}

fn find_index_max(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    find_extreme("find_index_max", &args[0], true)
}

pub(super) static TABLE: &[Builtin] = &[
    bi("median", median, 1, 2).doc(
        "median(x) · median(x, d)",
        "The median of the elements of x (the mean of the two middle values for an even count), or along dimension d.",
        "print median([3, 1, 2]), \" \", median([4, 1, 3, 2])",
        "2 2.5",
    ),
    bi("var", var, 1, 2).doc(
        "var(x) · var(x, d)",
        "The sample variance of the elements of x (divided by n - 1), or along dimension d.",
        "print var([1, 2, 3, 4, 5])",
        "2.5",
    ),
    bi("std", std, 1, 2).doc(
        "std(x) · std(x, d)",
        "The sample standard deviation sqrt(var(x)), or along dimension d.",
        "print std([2, 4, 4, 4, 6])",
        "1.4142135",
    ),
    bi("any", any, 1, 2).doc(
        "any(x) · any(x, d)",
        "1 if any element of x is non-zero, else 0 (along dimension d: a vector of such tests).",
        "print any([0, 0, 1]), \" \", any([0, 0])",
        "1 0",
    ),
    bi("all", all, 1, 2).doc(
        "all(x) · all(x, d)",
        "1 if every element of x is non-zero, else 0 (along dimension d: a vector of such tests).",
        "print all([1, 2, 3]), \" \", all([1, 0])",
        "1 0",
    ),
    bi("isempty", isempty, 1, 1).doc(
        "isempty(x)",
        "1 for an array without elements or an empty string, else 0.",
        "print isempty([]), \" \", isempty(zeros(0, 3)), \" \", isempty(\"\"), \" \", isempty([1])",
        "1 1 1 0",
    ),
    bi("isscalar", isscalar, 1, 1).doc(
        "isscalar(x)",
        "1 for a number or a numeric array of one element, else 0.",
        "print isscalar(3), \" \", isscalar([3]), \" \", isscalar([3, 4])",
        "1 1 0",
    ),
    bi("find", find, 1, 1).doc(
        "find(x) · [i, j, ...] = find(x)",
        "The linear indices of the non-zero elements of x; with several outputs, their row, column, ... indices.",
        "print find([0, 3, 0, 5])\n[i, j] = find([[0, 1], [1, 0]])\nprint i, \" \", j",
        "[1,3]\n[0,1] [1,0]",
    ),
    bi("find_index_min", find_index_min, 1, 1).doc(
        "find_index_min(x)",
        "The linear index of the smallest element of x (the first one, on ties).",
        "print find_index_min([4, -1, 9, -1])",
        "1",
    ),
    bi("find_index_max", find_index_max, 1, 1).doc(
        "find_index_max(x)",
        "The linear index of the largest element of x (the first one, on ties).",
        "print find_index_max([4, -1, 9, 9])",
        "2",
    ),
];
