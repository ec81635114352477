//! Signal and image processing with MATLAB's names and semantics, by family:
//! [`convolve`] (`conv conv2 filter2`), [`filters`] (`fspecial imgaussfilt imrotate`),
//! [`interp`] (`interp1 interp2 polyfit polyval`) and [`hist`] (`hist histc imhist`);
//! this module holds the argument readers they share.
//!
//! Host builtins over real arrays, computed in f64 and stored at the program's
//! precision. Positions (interpolation coordinates) are 0-based, as everywhere in
//! Quasar; everything else follows MATLAB.

pub(super) mod convolve;
pub(super) mod filters;
pub(super) mod hist;
pub(super) mod interp;

use super::arrange::array_arg;
use crate::array::Array;
use crate::ops::real_buffer;
use crate::value::{Prec, Value};
use crate::{rt_bail, RtResult};

/// A real 2-D view of an argument: rows, columns (a vec is 1×N, a scalar 1×1) and the
/// values in row-major order. More than two dimensions is an error.
pub(super) struct Grid {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
    /// The argument was a vec (or scalar): results of the same shape are vecs too.
    pub is_vec: bool,
}

pub(super) fn grid(name: &str, what: &str, v: &Value, prec: Prec) -> RtResult<Grid> {
    if let Value::Str(_) = v {
        rt_bail!("{name}: {what} must be a real array, got a string");
    }
    let a = array_arg(name, v, prec)?;
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("{name}: {what} must be a real array, got {}", v.kind_name());
    }
    let size = a.size();
    if size.len() > 2 {
        rt_bail!(
            "{name}: {what} must be a vector or a matrix, got an array of size {}",
            dims_text(&size)
        );
    }
    Ok(Grid {
        rows: size[0],
        cols: size[1],
        data: (0..a.len()).map(|i| a.buf.get_f64(i)).collect(),
        is_vec: a.dims.len() == 1,
    })
}

pub(super) fn reals(
    name: &str,
    what: &str,
    v: &Value,
    prec: Prec,
) -> RtResult<(Vec<usize>, Vec<f64>)> {
    if let Value::Str(_) = v {
        rt_bail!("{name}: {what} must be real numbers, got a string");
    }
    let a = array_arg(name, v, prec)?;
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("{name}: {what} must be real numbers, got {}", v.kind_name());
    }
    Ok((
        a.dims.clone(),
        (0..a.len()).map(|i| a.buf.get_f64(i)).collect(),
    ))
}

pub(super) fn dims_text(s: &[usize]) -> String {
    let parts: Vec<String> = s.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(","))
}

pub(super) fn text_arg<'a>(name: &str, what: &str, v: &'a Value) -> RtResult<&'a str> {
    match v {
        Value::Str(s) => Ok(s),
        other => rt_bail!("{name}: {what} must be a string, got {}", other.kind_name()),
    }
}

pub(super) fn real_arg(name: &str, what: &str, v: &Value) -> RtResult<f64> {
    match v.as_f64() {
        Some(x) if !matches!(v, Value::Complex(_)) => Ok(x),
        _ => rt_bail!(
            "{name}: {what} must be a real number, got {}",
            v.kind_name()
        ),
    }
}

pub(super) fn count_arg(name: &str, what: &str, v: &Value) -> RtResult<usize> {
    match v.as_i64() {
        Some(n) if n >= 1 => Ok(n as usize),
        _ => rt_bail!("{name}: {what} must be a positive integer"),
    }
}

pub(super) fn out(prec: Prec, dims: Vec<usize>, data: Vec<f64>) -> Value {
    Value::array(Array::new(dims, real_buffer(prec, data)))
}

/// A result of `rows`×`cols`: a vec when it has one row and `vec` says so.
pub(super) fn out_grid(prec: Prec, rows: usize, cols: usize, data: Vec<f64>, vec: bool) -> Value {
    if vec && rows == 1 {
        out(prec, vec![cols], data)
    } else {
        out(prec, vec![rows, cols], data)
    }
}

/// Checks that `xs` is non-empty and strictly increasing.
pub(super) fn ascending(name: &str, what: &str, xs: &[f64]) -> RtResult<()> {
    if xs.is_empty() {
        rt_bail!("{name}: {what} is empty");
    }
    if xs
        .windows(2)
        .any(|w| w[1].partial_cmp(&w[0]) != Some(std::cmp::Ordering::Greater))
    {
        rt_bail!("{name}: {what} must be strictly increasing");
    }
    Ok(())
}
