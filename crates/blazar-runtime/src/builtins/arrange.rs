//! Data movement: `vertcat horzcat cat circshift fliplr flipud rot90 meshgrid diag`.
//!
//! Host builtins over arrays of any element type and size (cells included). Shapes are
//! `size(x)`'s (a vec is 1×N, a scalar 1×1); results get the dims MATLAB keeps
//! (`Array::canonical_dims`). Each result is a new array: nothing is shared with the
//! arguments. The argument readers the other families share live here too.

use super::construct::shape::gather;
use super::math::bi;
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer, ElemType};
use crate::ops::{complex_buffer, int_buffer, real_buffer};
use crate::value::{Prec, Value};
use crate::{rt_bail, RtResult};

/// The argument as an array (scalars become 1×1), with its `size` padded to `rank`.
pub(super) fn array_arg(name: &str, v: &Value, prec: Prec) -> RtResult<Array> {
    match v {
        Value::Real(x) => Ok(Array::new(vec![1], real_buffer(prec, vec![*x]))),
        Value::Int(x, t) => Ok(Array::new(vec![1], int_buffer(*t, vec![*x]))),
        Value::Complex(z) => Ok(Array::new(vec![1], complex_buffer(prec, vec![*z]))),
        Value::Array(r) => Ok(r
            .try_borrow()
            .map_err(|_| crate::RtError::new(format!("{name}: array is being modified")))?
            .clone()),
        other => rt_bail!("{name}: expected an array, got {}", other.kind_name()),
    }
}

/// Shared with `stats`, `sort` and `linalg`: integer lists, 0-based dimensions and
/// borrows of numeric arrays.
/// A list of integers from an integer scalar or a numeric vector.
pub(super) fn int_list(name: &str, what: &str, v: &Value) -> RtResult<Vec<i64>> {
    let bad = || crate::RtError::new(format!("{name}: {what} must be integers"));
    match v {
        Value::Array(r) => {
            let a = r.try_borrow().map_err(|_| bad())?;
            if a.is_cell() || a.elem().is_complex() {
                return Err(bad());
            }
            (0..a.len())
                .map(|i| a.get_value(i).as_i64().ok_or_else(bad))
                .collect()
        }
        other => other.as_i64().map(|x| vec![x]).ok_or_else(bad),
    }
}

/// A 0-based dimension argument.
pub(super) fn dim(name: &str, v: &Value) -> RtResult<usize> {
    match v.as_i64() {
        Some(d) if (0..16).contains(&d) => Ok(d as usize),
        _ => rt_bail!("{name}: the dimension must be an integer from 0 to 15"),
    }
}

/// A borrow of a numeric (not cell) array argument.
pub(super) fn numeric<'a>(name: &str, v: &'a Value) -> RtResult<crate::ArrRead<'a>> {
    match v {
        Value::Array(r) => {
            let a = r
                .try_borrow()
                .map_err(|_| crate::RtError::new(format!("{name}: array is being modified")))?;
            if a.is_cell() {
                rt_bail!("{name}: expected a numeric array, got a cell");
            }
            Ok(a)
        }
        other => rt_bail!("{name}: expected an array, got {}", other.kind_name()),
    }
}

/// `size(a)` padded with ones to at least `rank` entries.
fn padded(a: &Array, rank: usize) -> Vec<usize> {
    let mut s = a.size();
    if s.len() < rank {
        s.resize(rank, 1);
    }
    s
}

/// The element type several arrays are joined in: the first one's when all agree, else
/// complex if any is complex, real if any is real, else the first int type.
fn joined_elem(parts: &[Array], prec: Prec) -> RtResult<ElemType> {
    let first = parts[0].elem();
    if parts.iter().all(|a| a.elem() == first) {
        return Ok(first);
    }
    if parts.iter().any(|a| a.is_cell()) {
        rt_bail!("cannot join cells with numeric arrays");
    }
    Ok(if parts.iter().any(|a| a.elem().is_complex()) {
        ElemType::complex(prec)
    } else if parts.iter().any(|a| a.elem().is_real_float()) {
        ElemType::real(prec)
    } else {
        first
    })
}

/// Appends `src[range]` to `dst` (both of the same variant).
fn extend(dst: &mut Buffer, src: &Buffer, range: std::ops::Range<usize>) {
    macro_rules! go {
        ($($var:ident),*) => {
            match (dst, src) {
                $((Buffer::$var(d), Buffer::$var(s)) => d.extend_from_slice(&s[range]),)*
                _ => unreachable!("joined buffers share their element type"),
            }
        };
    }
    go!(F32, F64, C32, C64, I8, I16, I32, I64, U8, U16, U32, U64, Cell)
}

/// Concatenates arrays along 0-based dimension `d`; empty arrays are left out.
pub(super) fn concat(name: &str, d: usize, parts: Vec<Array>, prec: Prec) -> RtResult<Value> {
    let parts: Vec<Array> = parts.into_iter().filter(|a| a.len() > 0).collect();
    if parts.is_empty() {
        return Ok(Value::array(Array::zeros(vec![0], ElemType::real(prec))));
    }
    let rank = parts
        .iter()
        .map(|a| a.size().len())
        .max()
        .unwrap_or(2)
        .max(d + 1);
    let sizes: Vec<Vec<usize>> = parts.iter().map(|a| padded(a, rank)).collect();
    for s in &sizes[1..] {
        let same = (0..rank).all(|k| k == d || s[k] == sizes[0][k]);
        if !same {
            rt_bail!(
                "{name}: dimensions do not agree: {} and {} (joining along dimension {d})",
                dims_text(&sizes[0]),
                dims_text(s)
            );
        }
    }
    let elem = joined_elem(&parts, prec)?;
    let outer: usize = sizes[0][..d].iter().product();
    let inner: usize = sizes[0][d + 1..].iter().product();
    let mut out_dims = sizes[0].clone();
    out_dims[d] = sizes.iter().map(|s| s[d]).sum();
    let total = super::construct::check_count(name, &out_dims)?;
    super::construct::reserve(name, total.checked_mul(elem.size_bytes()))?;
    let parts: Vec<Array> = parts.into_iter().map(|a| a.convert(elem)).collect();
    let mut buf = Buffer::zeros(elem, 0);
    for o in 0..outer {
        for (a, s) in parts.iter().zip(&sizes) {
            let block = s[d] * inner;
            extend(&mut buf, &a.buf, o * block..(o + 1) * block);
        }
    }
    Ok(Value::array(Array::new(
        Array::canonical_dims(&out_dims),
        buf,
    )))
}

fn dims_text(s: &[usize]) -> String {
    s.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

fn all_arrays(name: &str, args: &[Value], prec: Prec) -> RtResult<Vec<Array>> {
    args.iter().map(|v| array_arg(name, v, prec)).collect()
}

/// `vertcat(a, b, ...)`: stacks along the rows (dimension 0).
fn vertcat(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    concat(
        "vertcat",
        0,
        all_arrays("vertcat", args, ctx.prec)?,
        ctx.prec,
    )
}

/// `horzcat(a, b, ...)`: joins along the columns (dimension 1).
fn horzcat(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    concat(
        "horzcat",
        1,
        all_arrays("horzcat", args, ctx.prec)?,
        ctx.prec,
    )
}

/// `cat(d, a, b, ...)`: joins along 0-based dimension `d`.
fn cat(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let d = match args[0].as_i64() {
        Some(d) if (0..16).contains(&d) => d as usize,
        _ => rt_bail!("cat: the dimension must be an integer from 0 to 15"),
    };
    concat("cat", d, all_arrays("cat", &args[1..], ctx.prec)?, ctx.prec)
}

/// The source index of every output element, for an output of size `out` (row-major),
/// given the map from output position to source position in an array of size `src`.
fn remap(out: &[usize], src: &[usize], f: impl Fn(&[usize], &mut [usize])) -> Vec<usize> {
    let n: usize = out.iter().product();
    let mut pos = vec![0usize; out.len()];
    let mut from = vec![0usize; src.len()];
    let mut idx = Vec::with_capacity(n);
    for _ in 0..n {
        f(&pos, &mut from);
        idx.push(from.iter().zip(src).fold(0, |acc, (&p, &s)| acc * s + p));
        for k in (0..out.len()).rev() {
            pos[k] += 1;
            if pos[k] < out[k] {
                break;
            }
            pos[k] = 0;
        }
    }
    idx
}

fn moved(a: &Array, out: Vec<usize>, idx: &[usize]) -> Value {
    Value::array(Array::new(Array::canonical_dims(&out), gather(&a.buf, idx)))
}

/// The first dimension of `size` whose extent is not 1 (MATLAB's default dimension).
pub(super) fn first_nonsingleton(size: &[usize]) -> usize {
    size.iter().position(|&e| e != 1).unwrap_or(0)
}

/// `circshift(x, k)` (along the first dimension that is not 1), `circshift(x, [k0, k1,
/// ...])` (per dimension) and `circshift(x, k, d)`: elements move `k` places towards
/// higher indices and wrap around.
fn circshift(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = array_arg("circshift", &args[0], ctx.prec)?;
    let shifts = int_list("circshift", "shifts", &args[1])?;
    let mut size = a.size();
    let mut per_dim = vec![0i64; size.len()];
    match args.get(2) {
        Some(d) => {
            let d = dim("circshift", d)?;
            if shifts.len() != 1 {
                rt_bail!("circshift: with a dimension the shift must be one integer");
            }
            if d >= per_dim.len() {
                size.resize(d + 1, 1);
                per_dim.resize(d + 1, 0);
            }
            per_dim[d] = shifts[0];
        }
        None if shifts.len() == 1 => per_dim[first_nonsingleton(&size)] = shifts[0],
        None => {
            if shifts.len() > size.len() {
                size.resize(shifts.len(), 1);
                per_dim.resize(shifts.len(), 0);
            }
            per_dim[..shifts.len()].copy_from_slice(&shifts);
        }
    }
    let idx = remap(&size, &size, |p, f| {
        for k in 0..p.len() {
            let e = size[k] as i64;
            f[k] = (p[k] as i64 - per_dim[k]).rem_euclid(e.max(1)) as usize;
        }
    });
    Ok(moved(&a, size.clone(), &idx))
}

fn flip_along(name: &str, v: &Value, d: usize, prec: Prec) -> RtResult<Value> {
    let a = array_arg(name, v, prec)?;
    let size = padded(&a, d + 1);
    let idx = remap(&size, &size, |p, f| {
        f.copy_from_slice(p);
        f[d] = size[d] - 1 - p[d];
    });
    Ok(moved(&a, size.clone(), &idx))
}

/// `fliplr(x)`: reverses the columns (dimension 1) of each slice.
fn fliplr(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    flip_along("fliplr", &args[0], 1, ctx.prec)
}

/// `flipud(x)`: reverses the rows (dimension 0).
fn flipud(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    flip_along("flipud", &args[0], 0, ctx.prec)
}

/// `rot90(A)`, `rot90(A, k)`: rotates each M×N slice by k·90° counter-clockwise.
fn rot90(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = array_arg("rot90", &args[0], ctx.prec)?;
    let k = match args.get(1) {
        None => 1,
        Some(v) => match v.as_i64() {
            Some(k) => k.rem_euclid(4),
            None => rt_bail!("rot90: the number of turns must be an integer"),
        },
    };
    let src = padded(&a, 2);
    let (m, n) = (src[0], src[1]);
    let mut out = src.clone();
    if k % 2 == 1 {
        out.swap(0, 1);
    }
    let idx = remap(&out, &src, |p, f| {
        f.copy_from_slice(p);
        let (i, j) = (p[0], p[1]);
        (f[0], f[1]) = match k {
            1 => (j, n - 1 - i),
            2 => (m - 1 - i, n - 1 - j),
            3 => (m - 1 - j, i),
            _ => (i, j),
        };
    });
    Ok(moved(&a, out, &idx))
}

/// The elements of a vector argument (any shape; all elements in order).
fn elements(name: &str, v: &Value, prec: Prec) -> RtResult<Array> {
    let a = array_arg(name, v, prec)?;
    if a.is_cell() {
        rt_bail!("{name}: expected a numeric vector, got a cell");
    }
    Ok(a)
}

/// `[X, Y] = meshgrid(x, y)`: X and Y are numel(y)×numel(x); `X[i, j] = x[j]`,
/// `Y[i, j] = y[i]`. `meshgrid(x)` is `meshgrid(x, x)`.
pub(super) fn meshgrid_all(ctx: &mut Ctx, args: &[Value], _nout: usize) -> RtResult<Vec<Value>> {
    let x = elements("meshgrid", &args[0], ctx.prec)?;
    let y = elements("meshgrid", args.get(1).unwrap_or(&args[0]), ctx.prec)?;
    let (nx, ny) = (x.len(), y.len());
    let dims = vec![ny, nx];
    let xi: Vec<usize> = (0..ny * nx).map(|k| k % nx).collect();
    let yi: Vec<usize> = (0..ny * nx).map(|k| k / nx).collect();
    Ok(vec![moved(&x, dims.clone(), &xi), moved(&y, dims, &yi)])
}

fn meshgrid(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(meshgrid_all(ctx, args, 1)?.swap_remove(0))
}

/// `diag(v)`, `diag(v, k)`: the square matrix with vector `v` on diagonal `k` (above
/// the main one for k > 0); `diag(A)`, `diag(A, k)`: diagonal `k` of matrix `A` as a
/// vector.
fn diag(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = array_arg("diag", &args[0], ctx.prec)?;
    let k = match args.get(1) {
        None => 0,
        Some(v) => match v.as_i64() {
            Some(k) => k,
            None => rt_bail!("diag: the diagonal must be an integer"),
        },
    };
    let size = a.size();
    if size.len() > 2 {
        rt_bail!(
            "diag: expected a vector or a matrix, got {}",
            dims_text(&size)
        );
    }
    let (m, n) = (size[0], size[1]);
    if m == 1 || n == 1 {
        let len = a.len();
        let side = len + k.unsigned_abs() as usize;
        let (r0, c0) = if k >= 0 {
            (0, k as usize)
        } else {
            ((-k) as usize, 0)
        };
        let mut out = Array::zeros(vec![side, side], a.elem());
        for i in 0..len {
            let v = a.get_value(i);
            out.buf.set_value((r0 + i) * side + c0 + i, &v);
        }
        return Ok(Value::array(out));
    }
    let (r0, c0) = if k >= 0 {
        (0, k as usize)
    } else {
        ((-k) as usize, 0)
    };
    let len = m.saturating_sub(r0).min(n.saturating_sub(c0));
    let idx: Vec<usize> = (0..len).map(|i| (r0 + i) * n + c0 + i).collect();
    Ok(Value::array(Array::new(vec![len], gather(&a.buf, &idx))))
}

pub(super) static TABLE: &[Builtin] = &[
    bi("vertcat", vertcat, 1, usize::MAX).doc(
        "vertcat(a, b, ...)",
        "The arrays stacked vertically (along the first dimension); vectors become rows of a matrix.",
        "print vertcat([1, 2], [3, 4])",
        "[ [1,2],\n  [3,4] ]",
    ),
    bi("horzcat", horzcat, 1, usize::MAX).doc(
        "horzcat(a, b, ...)",
        "The arrays joined side by side (along the second dimension, the last for vectors).",
        "print horzcat([1, 2], [3, 4])",
        "[1,2,3,4]",
    ),
    bi("cat", cat, 2, usize::MAX).doc(
        "cat(d, a, b, ...)",
        "The arrays joined along dimension d (counting from 0).",
        "print cat(0, [[1, 2]], [[3, 4]])\nprint cat(1, [[1, 2]], [[3, 4]])",
        "[ [1,2],\n  [3,4] ]\n[1,2,3,4]",
    ),
    bi("circshift", circshift, 2, 3).doc(
        "circshift(x, k) · circshift(x, k, d)",
        "x shifted circularly by k positions (along dimension d; k a vector shifts several dimensions): elements pushed off one end come back at the other.",
        "print circshift([1, 2, 3, 4], 1), \" \", circshift([1, 2, 3, 4], -1)",
        "[4,1,2,3] [2,3,4,1]",
    ),
    bi("fliplr", fliplr, 1, 1).doc(
        "fliplr(A)",
        "A with the order of its columns reversed (left to right).",
        "print fliplr([[1, 2], [3, 4]])",
        "[ [2,1],\n  [4,3] ]",
    ),
    bi("flipud", flipud, 1, 1).doc(
        "flipud(A)",
        "A with the order of its rows reversed (up to down).",
        "print flipud([[1, 2], [3, 4]])",
        "[ [3,4],\n  [1,2] ]",
    ),
    bi("rot90", rot90, 1, 2).doc(
        "rot90(A) · rot90(A, k)",
        "A rotated by 90 degrees counterclockwise (k times).",
        "print rot90([[1, 2], [3, 4]])",
        "[ [2,4],\n  [1,3] ]",
    ),
    bi("meshgrid", meshgrid, 1, 2).doc(
        "[X, Y] = meshgrid(x, y) · meshgrid(x)",
        "Coordinate matrices: X repeats vector x along rows and Y repeats y along columns, both numel(y)×numel(x).",
        "[X, Y] = meshgrid(0..2, 0..1)\nprint X\nprint Y",
        "[ [0,1,2],\n  [0,1,2] ]\n[ [0,0,0],\n  [1,1,1] ]",
    ),
    bi("diag", diag, 1, 2).doc(
        "diag(v) · diag(A) · diag(v, k)",
        "The square matrix with vector v on its diagonal (k-th diagonal, above for k > 0), or the diagonal of matrix A as a vector.",
        "print diag([1, 2])\nprint diag([[1, 2], [3, 4]])",
        "[ [1,0],\n  [0,2] ]\n[1,4]",
    ),
];
