//! Argument readers shared by the data-movement, statistics and linear-algebra
//! builtins: integer lists, 0-based dimensions, option strings, real matrices.

use crate::array::Array;
use crate::value::Value;
use crate::{rt_bail, RtResult};
use std::cell::Ref;

/// A list of integers from an integer scalar or a numeric vector.
pub(super) fn int_list(name: &str, what: &str, v: &Value) -> RtResult<Vec<i64>> {
    let bad = || crate::RtError::new(format!("{name}: {what} must be integers"));
    match v {
        Value::Array(r) => {
            let a = r.data.try_borrow().map_err(|_| bad())?;
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
pub(super) fn numeric<'a>(name: &str, v: &'a Value) -> RtResult<Ref<'a, Array>> {
    match v {
        Value::Array(r) => {
            let a = r
                .data
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
