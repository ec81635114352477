//! Shape builtins: `size numel length ndims reshape repmat transpose squeeze pos2ind ind2pos`.
//!
//! Sizes follow `Array::size` (a vec of N is `[1, N]`); results that are arrays get the
//! dims MATLAB keeps (`Array::canonical_dims`: trailing singleton dimensions drop, leading
//! ones stay, 1×N is a vec), except `transpose` of a vec, which is an N×1 matrix.

use super::{check_count, dims_from_args, to_array};
use crate::array::{Array, Buffer, ElemType};
use crate::builtins::math::bi;
use crate::builtins::{Builtin, Ctx};
use crate::value::{IntTy, Value};
use crate::ArrayRef;
use crate::{rt_bail, RtResult};

/// Builds a buffer of the same type from the elements at `idx`.
pub(in crate::builtins) fn gather(buf: &Buffer, idx: &[usize]) -> Buffer {
    macro_rules! g {
        ($($var:ident),*) => {
            match buf {
                $(Buffer::$var(v) => Buffer::$var(idx.iter().filter_map(|&i| v.get(i).cloned()).collect()),)*
            }
        };
    }
    g!(F32, F64, C32, C64, I8, I16, I32, I64, U8, U16, U32, U64, Cell)
}

fn int_vec(v: Vec<i64>) -> Value {
    let n = v.len();
    Value::array(Array::new(
        vec![n],
        Buffer::I32(v.into_iter().map(|x| x as i32).collect()),
    ))
}

fn int_value(x: usize) -> Value {
    if x <= i32::MAX as usize {
        Value::int(x as i64)
    } else {
        Value::Int(x as i64, IntTy::I64)
    }
}

/// `size(x)` of any value: scalars are 1×1, strings 1×len.
fn size_of(name: &str, v: &Value) -> RtResult<Vec<usize>> {
    Ok(match v {
        Value::Array(r) => r
            .meta()
            .map_err(|_| crate::RtError::new(format!("{name}: array is being modified")))?
            .size(),
        Value::Str(s) => vec![1, s.chars().count()],
        Value::Func(_) => rt_bail!("{name}: a function has no size"),
        _ => vec![1, 1],
    })
}

/// A list of integers from a scalar or a numeric vector.
fn int_list(name: &str, what: &str, v: &Value) -> RtResult<Vec<i64>> {
    let bad = || crate::RtError::new(format!("{name}: {what} must be integers"));
    match v {
        Value::Array(r) => {
            let a = r.try_borrow().map_err(|_| bad())?;
            if a.is_cell() || a.elem().is_complex() {
                return Err(bad());
            }
            (0..a.len())
                .map(|i| match a.get_value(i).as_i64() {
                    Some(x) => Ok(x),
                    None => Err(bad()),
                })
                .collect()
        }
        other => other.as_i64().map(|x| vec![x]).ok_or_else(bad),
    }
}

/// `size(x)`, `size(x, d)` (0-based, dims past the rank are 1), `size(x, [d0, d1])`.
fn size(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let s = size_of("size", &args[0])?;
    let at = |d: i64| -> RtResult<i64> {
        if d < 0 {
            rt_bail!("size: dimension must be non-negative, got {d}");
        }
        Ok(s.get(d as usize).copied().unwrap_or(1) as i64)
    };
    match args.get(1) {
        None => Ok(int_vec(s.iter().map(|&x| x as i64).collect())),
        Some(d @ (Value::Real(_) | Value::Int(..))) => {
            let d = d
                .as_i64()
                .ok_or_else(|| crate::RtError::new("size: dimension must be an integer"))?;
            Ok(Value::int(at(d)?))
        }
        Some(d) => {
            let ds = int_list("size", "dimensions", d)?;
            Ok(int_vec(ds.into_iter().map(at).collect::<RtResult<_>>()?))
        }
    }
}

/// `numel(x)`: element count; a string's length in characters.
fn numel(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(int_value(match &args[0] {
        Value::Str(s) => s.chars().count(),
        Value::Array(_) => size_of("numel", &args[0])?.iter().product(),
        Value::Func(_) => rt_bail!("numel: a function has no elements"),
        _ => 1,
    }))
}

/// `length(x)`: the largest extent of an array (0 when it is empty), the number of
/// characters of a string, 1 for a number (as MATLAB).
fn length(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(int_value(match &args[0] {
        Value::Str(s) => s.chars().count(),
        Value::Array(_) => {
            let size = size_of("length", &args[0])?;
            if size.contains(&0) {
                0
            } else {
                size.into_iter().max().unwrap_or(0)
            }
        }
        Value::Func(_) => rt_bail!("length: a function has no elements"),
        _ => 1,
    }))
}

/// `ndims(x)`: the rank of an array (vec 1, mat 2, cube 3); 0 for scalars, 1 for strings.
fn ndims(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(Value::int(match &args[0] {
        Value::Array(r) => r.meta().map(|a| a.rank() as i64).unwrap_or(1),
        Value::Str(_) => 1,
        _ => 0,
    }))
}

/// `reshape(x, dims...)`: a view of `x`'s elements with new dims and the same element
/// count (no copy: writes through either name are seen through the other); a scalar
/// or string argument becomes a new array.
fn reshape(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let dims = dims_from_args("reshape", &args[1..])?;
    match &args[0] {
        Value::Array(r) => reshape_view(r, dims).map(Value::Array),
        v => {
            let mut a = to_array("reshape", v, ctx.prec)?;
            check_reshape(a.len(), &dims, || a.size())?;
            a.dims = Array::canonical_dims(&dims);
            Ok(Value::array(a))
        }
    }
}

/// `reshape(r, dims)` of an array: the view (the interpreter calls it directly for
/// dims given as scalars, without the builtin's argument values). `dims` become the
/// view's own (canonical) dims: no other allocation on success.
pub fn reshape_view(r: &ArrayRef, dims: Vec<usize>) -> RtResult<ArrayRef> {
    // A view has the element count of its store.
    let len = r
        .data
        .meta_host()
        .map_err(|_| crate::RtError::new("reshape: array is being modified"))?
        .len();
    check_reshape(len, &dims, || {
        r.meta().map(|m| m.size()).unwrap_or_default()
    })?;
    Ok(r.reshaped(Array::into_canonical_dims(dims)))
}

/// Errors unless `dims` hold `len` elements; `size` (the operand's, for the message)
/// is asked only then.
fn check_reshape(len: usize, dims: &[usize], size: impl FnOnce() -> Vec<usize>) -> RtResult<()> {
    let n = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    if n != Some(len) {
        let text = |d: &[usize]| {
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("x")
        };
        let n = n.map_or_else(|| "too many".to_string(), |n| n.to_string());
        rt_bail!(
            "reshape: cannot reshape {} ({len} elements) to {} ({n} elements)",
            text(&size()),
            text(dims)
        );
    }
    Ok(())
}

/// `repmat(x, [m, n, ...])` or `repmat(x, m, n, ...)`: tiles `x` (a vec is 1×N).
fn repmat(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let reps = dims_from_args("repmat", &args[1..])?;
    let a = to_array("repmat", &args[0], ctx.prec)?;
    let mut s = a.size();
    let r = s.len().max(reps.len());
    s.resize(r, 1);
    let mut reps = reps;
    reps.resize(r, 1);
    let out: Vec<usize> = s
        .iter()
        .zip(&reps)
        .map(|(x, k)| x.checked_mul(*k).unwrap_or(usize::MAX))
        .collect();
    let n = check_count("repmat", &out)?;
    // The gather's index list and the result.
    crate::alloc::reserve_elems("repmat", n.checked_mul(2), ElemType::F64)?;
    let mut idx = Vec::with_capacity(n);
    if n > 0 {
        let mut strides = vec![1usize; r];
        for k in (0..r.saturating_sub(1)).rev() {
            strides[k] = strides[k + 1] * s[k + 1];
        }
        let mut pos = vec![0usize; r];
        for _ in 0..n {
            idx.push(
                pos.iter()
                    .zip(&s)
                    .zip(&strides)
                    .map(|((p, d), st)| (p % d) * st)
                    .sum(),
            );
            for k in (0..r).rev() {
                pos[k] += 1;
                if pos[k] < out[k] {
                    break;
                }
                pos[k] = 0;
            }
        }
    }
    Ok(Value::array(Array::new(
        Array::canonical_dims(&out),
        gather(&a.buf, &idx),
    )))
}

/// `transpose(A)`: mat [M,N] → [N,M] (a 1×N result is a vec); vec [N] → N×1 mat.
fn transpose(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let r = match &args[0] {
        Value::Array(r) => r,
        v if v.is_scalar() => return Ok(v.clone()),
        other => rt_bail!(
            "transpose: expected a vector or matrix, got {}",
            other.kind_name()
        ),
    };
    let a = r
        .try_borrow()
        .map_err(|_| crate::RtError::new("transpose: array is being modified"))?;
    match a.dims.as_slice() {
        [n] => Ok(Value::array(Array::new(vec![*n, 1], a.buf.clone()))),
        [m, n] => {
            let (m, n) = (*m, *n);
            let idx: Vec<usize> = (0..n)
                .flat_map(|j| (0..m).map(move |i| i * n + j))
                .collect();
            Ok(Value::array(Array::new(
                Array::canonical_dims(&[n, m]),
                gather(&a.buf, &idx),
            )))
        }
        d => rt_bail!(
            "transpose: expected a vector or matrix, got an array of rank {}",
            d.len()
        ),
    }
}

/// `squeeze(x)`: drops all singleton dimensions (keeping at least one).
fn squeeze(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let Value::Array(r) = &args[0] else {
        return Ok(args[0].clone());
    };
    let a = r
        .try_borrow()
        .map_err(|_| crate::RtError::new("squeeze: array is being modified"))?;
    let mut dims: Vec<usize> = a.dims.iter().copied().filter(|&d| d != 1).collect();
    if dims.is_empty() {
        dims.push(1);
    }
    Ok(Value::array(Array::new(dims, a.buf.clone())))
}

/// Row-major strides of `dims` after aligning `dims` and a position of length `len`
/// at the right (missing leading dims are 1, missing leading coordinates 0).
fn aligned(dims: &[i64], len: usize) -> RtResult<(Vec<i64>, Vec<i64>)> {
    let r = dims.len().max(len);
    let mut d = vec![1i64; r - dims.len()];
    d.extend_from_slice(dims);
    if d.iter().any(|&x| x <= 0) {
        rt_bail!("dimensions must be positive, got {dims:?}");
    }
    let mut st = vec![1i64; r];
    for k in (0..r.saturating_sub(1)).rev() {
        st[k] = st[k + 1].saturating_mul(d[k + 1]);
    }
    Ok((d, st))
}

/// `pos2ind(dims, pos)`: the row-major linear index of a position.
fn pos2ind(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let dims = int_list("pos2ind", "dimensions", &args[0])?;
    let pos = int_list("pos2ind", "positions", &args[1])?;
    let (d, st) = aligned(&dims, pos.len())
        .map_err(|e| crate::RtError::new(format!("pos2ind: {}", e.message)))?;
    let off = d.len() - pos.len();
    let i = pos.iter().enumerate().fold(0i64, |acc, (k, p)| {
        acc.wrapping_add(p.wrapping_mul(st[k + off]))
    });
    Ok(Value::int(i))
}

/// `ind2pos(dims, i)`: the position (int vector) of a row-major linear index.
fn ind2pos(_ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let dims = int_list("ind2pos", "dimensions", &args[0])?;
    let i = args[1]
        .as_i64()
        .ok_or_else(|| crate::RtError::new("ind2pos: the index must be an integer"))?;
    let (d, st) =
        aligned(&dims, 0).map_err(|e| crate::RtError::new(format!("ind2pos: {}", e.message)))?;
    let pos = (0..d.len())
        .map(|k| {
            if k == 0 {
                i.div_euclid(st[k])
            } else {
                i.div_euclid(st[k]).rem_euclid(d[k])
            }
        })
        .collect();
    Ok(int_vec(pos))
}

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi("size", size, 1, 2).doc(
        "size(x) · size(x, d) · [m, n, ...] = size(x)",
        "The extents of x as a vector (`size(x, d)`: the extent along dimension d, counting from 0). A vector of N elements has size [1, N]; with several outputs, dimensions past the rank are 1.",
        "A = zeros(2, 3)\nprint size(A), \" \", size(A, 1), \" \", size(5)\n[m, n, c] = size(A)\nprint m, \" \", n, \" \", c",
        "[2,3] 3 [1,1]\n2 3 1",
    ),
    bi("numel", numel, 1, 1).doc(
        "numel(x)",
        "The number of elements of an array (the length of a string, 1 for a number).",
        "print numel(zeros(2, 3)), \" \", numel(\"abc\"), \" \", numel(7)",
        "6 3 1",
    ),
    bi("ndims", ndims, 1, 1).doc(
        "ndims(x)",
        "The number of dimensions of x.",
        "print ndims(zeros(4)), \" \", ndims(zeros(2, 3)), \" \", ndims(zeros(2, 3, 4))",
        "1 2 3",
    ),
    bi("length", length, 1, 1).doc(
        "length(x)",
        "The largest extent of an array (0 when it is empty), the number of characters of a string, 1 for a number (MATLAB's `length`).",
        "print length(zeros(3, 5)), \" \", length(\"abc\"), \" \", length(7)",
        "5 3 1",
    ),
    bi("reshape", reshape, 2, usize::MAX).doc(
        "reshape(x, [n1, n2, ...]) · reshape(x, n1, n2, ...)",
        "The elements of x (in row-major order) with other extents, as a view that shares them: no copy is made, and a write through either is seen by both. The element count must not change.",
        "A = reshape(0..5, [2, 3])\nprint A",
        "[ [0,1,2],\n  [3,4,5] ]",
    ),
    bi("repmat", repmat, 2, usize::MAX).doc(
        "repmat(x, [r, c, ...]) · repmat(x, r, c, ...)",
        "x tiled r times along rows, c times along columns, and so on.",
        "print repmat([1, 2], [2, 2])",
        "[ [1,2,1,2],\n  [1,2,1,2] ]",
    ),
    bi("transpose", transpose, 1, 1).doc(
        "transpose(A)",
        "The matrix A with rows and columns swapped (Quasar has no postfix `'` operator: `'` starts a string). A vector becomes a column.",
        "print transpose([[1, 2, 3], [4, 5, 6]])",
        "[ [1,4],\n  [2,5],\n  [3,6] ]",
    ),
    bi("squeeze", squeeze, 1, 1).doc(
        "squeeze(x)",
        "x without its dimensions of extent 1.",
        "print size(squeeze(zeros(1, 3, 1, 2)))",
        "[3,2]",
    ),
    bi("pos2ind", pos2ind, 2, 2).doc(
        "pos2ind(dims, pos)",
        "The linear (row-major) index of position pos in an array of extents dims.",
        "print pos2ind([3, 4], [1, 2])",
        "6",
    ),
    bi("ind2pos", ind2pos, 2, 2).doc(
        "ind2pos(dims, i)",
        "The position of linear (row-major) index i in an array of extents dims; the inverse of `pos2ind`.",
        "print ind2pos([3, 4], 6)",
        "[1,2]",
    ),
];
