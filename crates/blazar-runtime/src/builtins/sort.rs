//! Ordering: `sort` (with indices) and `unique`.
//!
//! `sort(x)` sorts along the first dimension of `size(x)` that is not 1 (a vec's only
//! axis, a matrix's columns), `sort(x, d)` along 0-based dimension `d`, and
//! `sort(x, "descend")` / `sort(x, d, "descend")` from large to small. The sort is
//! stable and NaN counts as larger than every number (last ascending, first
//! descending), as in MATLAB. `[s, idx] = sort(x)` also gives the 0-based positions
//! along the dimension that the sorted elements came from (`int`). The element type is
//! kept; complex numbers are not ordered.
//!
//! `unique(x)` gives the distinct elements of `x` in ascending order as a vec;
//! `[u, first, back] = unique(x)` also gives the linear index of the first occurrence of
//! each `u[k]` and, for every element of `x`, its position in `u` (`u[back] == x`).

use super::arrange::dim;
use super::arrange::first_nonsingleton;
use super::construct::shape::gather;
use super::math::bi;
use super::stats::Lanes;
use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::ops::{ints_of, reals_of};
use crate::value::Value;
use crate::{rt_bail, RtResult};
use std::cmp::Ordering;

/// Sort keys of a numeric buffer: exact for ints, reals otherwise.
enum Keys<'a> {
    Int(std::borrow::Cow<'a, [i64]>),
    Real(std::borrow::Cow<'a, [f64]>),
}

impl Keys<'_> {
    fn of<'a>(name: &str, buf: &'a Buffer) -> RtResult<Keys<'a>> {
        Ok(match buf {
            Buffer::C32(_) | Buffer::C64(_) => rt_bail!("{name}: complex numbers are not ordered"),
            Buffer::Cell(_) => rt_bail!("{name}: expected a numeric array, got a cell"),
            Buffer::F32(_) | Buffer::F64(_) => Keys::Real(reals_of(buf)),
            Buffer::U64(v) => Keys::Real(std::borrow::Cow::Owned(
                v.iter().map(|&x| x as f64).collect(),
            )),
            _ => Keys::Int(ints_of(buf)),
        })
    }

    fn cmp(&self, a: usize, b: usize) -> Ordering {
        match self {
            Keys::Int(v) => v[a].cmp(&v[b]),
            // NaN above everything; -0.0 and 0.0 equal.
            Keys::Real(v) => match (v[a].is_nan(), v[b].is_nan()) {
                (false, false) => v[a].partial_cmp(&v[b]).unwrap_or(Ordering::Equal),
                (x, y) => x.cmp(&y),
            },
        }
    }
}

/// The argument as an owned array (scalars as one-element vectors).
fn owned(name: &str, v: &Value, prec: crate::value::Prec) -> RtResult<Array> {
    let a = super::arrange::array_arg(name, v, prec)?;
    if a.is_cell() {
        rt_bail!("{name}: expected a numeric array, got a cell");
    }
    Ok(a)
}

/// `sort` with its outputs: the sorted array and, when asked, the indices.
pub(super) fn sort_all(ctx: &mut Ctx, args: &[Value], nout: usize) -> RtResult<Vec<Value>> {
    let a = owned("sort", &args[0], ctx.prec)?;
    let mut rest = &args[1..];
    let mut descend = false;
    if let Some(Value::Str(s)) = rest.last() {
        descend = match &**s {
            "ascend" => false,
            "descend" => true,
            other => rt_bail!("sort: unknown order {other} (use ascend or descend)"),
        };
        rest = &rest[..rest.len() - 1];
    }
    let size = a.size();
    let d = match rest {
        [] => first_nonsingleton(&size),
        [d] => dim("sort", d)?,
        _ => rt_bail!("sort: expected sort(x), sort(x, dim) or sort(x, dim, order)"),
    };
    let keys = Keys::of("sort", &a.buf)?;
    let lanes = Lanes::along(&size, d);
    let mut order = vec![0usize; a.len()];
    let mut pos = vec![0i32; a.len()];
    let mut lane: Vec<usize> = Vec::with_capacity(lanes.len);
    for l in 0..lanes.count() {
        lane.clear();
        lane.extend(lanes.lane(l));
        let mut perm: Vec<usize> = (0..lane.len()).collect();
        perm.sort_by(|&x, &y| {
            let o = keys.cmp(lane[x], lane[y]);
            if descend {
                o.reverse()
            } else {
                o
            }
        });
        for (k, dst) in lanes.lane(l).enumerate() {
            order[dst] = lane[perm[k]];
            pos[dst] = perm[k] as i32;
        }
    }
    let sorted = Value::array(Array::new(a.dims.clone(), gather(&a.buf, &order)));
    let mut out = vec![sorted];
    if nout > 1 {
        out.push(Value::array(Array::from_ints(a.dims.clone(), pos)));
    }
    Ok(out)
}

fn sort(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(sort_all(ctx, args, 1)?.swap_remove(0))
}

/// `unique` with its outputs (see the module comment).
pub(super) fn unique_all(ctx: &mut Ctx, args: &[Value], nout: usize) -> RtResult<Vec<Value>> {
    let a = owned("unique", &args[0], ctx.prec)?;
    let keys = Keys::of("unique", &a.buf)?;
    let mut perm: Vec<usize> = (0..a.len()).collect();
    perm.sort_by(|&x, &y| keys.cmp(x, y));
    let mut firsts: Vec<usize> = Vec::new();
    let mut back = vec![0i32; a.len()];
    for (k, &i) in perm.iter().enumerate() {
        let new = k == 0 || keys.cmp(perm[k - 1], i) != Ordering::Equal || is_nan(&keys, i);
        if new {
            firsts.push(i);
        }
        back[i] = firsts.len() as i32 - 1;
    }
    let n = firsts.len();
    let mut out = vec![Value::array(Array::new(vec![n], gather(&a.buf, &firsts)))];
    if nout > 1 {
        let first: Vec<i32> = firsts.iter().map(|&i| i as i32).collect();
        out.push(Value::array(Array::from_ints(vec![n], first)));
    }
    if nout > 2 {
        out.push(Value::array(Array::from_ints(a.dims.clone(), back)));
    }
    Ok(out)
}

/// NaNs are never equal to each other, so each one is its own unique value.
fn is_nan(keys: &Keys, i: usize) -> bool {
    matches!(keys, Keys::Real(v) if v[i].is_nan())
}

fn unique(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(unique_all(ctx, args, 1)?.swap_remove(0))
}

pub(super) static TABLE: &[Builtin] = &[
    bi("sort", sort, 1, 3).doc(
        "sort(x) · sort(x, d) · sort(x, d, \"descend\") · [s, idx] = sort(x)",
        "The elements of x in ascending order (along dimension d of a matrix; \"descend\" for the reverse). With two outputs, also the indices they came from.",
        "print sort([3, 1, 2])\n[s, idx] = sort([30, 10, 20])\nprint s, \" \", idx",
        "[1,2,3]\n[10,20,30] [1,2,0]",
    ),
    bi("unique", unique, 1, 1).doc(
        "unique(x) · [u, i, j] = unique(x)",
        "The distinct values of x, sorted; with more outputs, where each first occurs in x, and for each element of x its index in u.",
        "print unique([3, 1, 3, 2, 1])",
        "[1,2,3]",
    ),
];
