//! User-sized buffers never abort the process: before a buffer whose size the program
//! decides is allocated, the allocator is asked for it ([`reserve`]), and a refusal
//! becomes a located "out of memory" error. Buffers under [`PROBE_BYTES`] are not
//! probed (the allocator always has them or the process is lost anyway).
//!
//! The probe catches what the system refuses outright (with Linux's default
//! overcommit, more than RAM and swap together; the host [pool](crate::pool) is
//! emptied before a refusal stands); a size it grants may still exhaust
//! memory when touched. Strings have a fixed bound besides ([`MAX_STRING`]): doubling
//! one in a loop grows by what the system grants until it is killed.

use crate::array::ElemType;
use crate::{rt_bail, RtResult};

/// Buffers of at least this many bytes are probed first (64 MiB).
pub const PROBE_BYTES: usize = 1 << 26;

/// The longest string a program may build (256 MiB).
pub const MAX_STRING: usize = 1 << 28;

/// Whether the allocator grants `bytes` now; when it refuses, the host
/// [pool](crate::pool) gives its buffers back first and the allocator is asked again.
fn grantable(bytes: usize) -> bool {
    if Vec::<u8>::new().try_reserve_exact(bytes).is_ok() {
        return true;
    }
    if crate::pool::stats().buffers == 0 {
        return false;
    }
    crate::pool::release();
    Vec::<u8>::new().try_reserve_exact(bytes).is_ok()
}

/// An "out of memory" error from `name` when `bytes` cannot be allocated now; `None`
/// (a size that overflows) is one too.
pub fn reserve(name: &str, bytes: Option<usize>) -> RtResult<()> {
    let Some(bytes) = bytes else {
        rt_bail!("{name}: out of memory (the array's size overflows)");
    };
    if bytes < PROBE_BYTES {
        return Ok(());
    }
    if !grantable(bytes) {
        rt_bail!(
            "{name}: out of memory: cannot allocate {:.1} GB",
            bytes as f64 / 1e9
        );
    }
    Ok(())
}

/// [`reserve`] for `n` elements of `elem` (`None`: a count that overflows).
pub fn reserve_elems(name: &str, n: Option<usize>, elem: ElemType) -> RtResult<()> {
    reserve(name, n.and_then(|n| n.checked_mul(elem.size_bytes())))
}

/// Dims as `size()` prints them (`[1,N]` for a vec).
fn fmt_size(d: &[usize]) -> String {
    let d: Vec<String> = match d {
        [n] => vec!["1".into(), n.to_string()],
        _ => d.iter().map(|x| x.to_string()).collect(),
    };
    format!("[{}]", d.join(","))
}

/// For an operation's result of `dims` with elements of `bytes` each: its element
/// count, or an "out of memory" error (located at the operation by the caller).
pub fn result(dims: &[usize], bytes: usize) -> RtResult<usize> {
    let n = dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    let total = n.and_then(|n| n.checked_mul(bytes));
    match (n, total) {
        (Some(n), Some(t)) if t < PROBE_BYTES => Ok(n),
        (Some(n), Some(t)) if grantable(t) => Ok(n),
        (_, t) => rt_bail!(
            "out of memory: a result of size {} needs {}",
            fmt_size(dims),
            t.map_or(
                "more bytes than there are addresses".to_string(),
                |t| format!("{:.1} GB", t as f64 / 1e9)
            )
        ),
    }
}

/// The number of elements of an array with `dims`, or an "out of memory" error when
/// it overflows.
pub fn count(name: &str, dims: &[usize]) -> RtResult<usize> {
    match dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d)) {
        Some(n) => Ok(n),
        None => rt_bail!("{name}: out of memory (the array's size overflows)"),
    }
}

/// An error when a string of `len` bytes is longer than [`MAX_STRING`] or cannot be
/// allocated.
pub fn reserve_string(name: &str, len: Option<usize>) -> RtResult<()> {
    match len {
        Some(n) if n <= MAX_STRING => reserve(name, Some(n)),
        Some(n) => rt_bail!(
            "{name}: out of memory: a string of {} MiB is longer than the 256 MiB strings may hold",
            n.div_ceil(1 << 20)
        ),
        None => rt_bail!("{name}: out of memory (the string's length overflows)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allocation_that_cannot_succeed_is_an_error_not_an_abort() {
        // A petabyte: refused by the allocator on any machine, reported as a message.
        let e = reserve("zeros", Some(1 << 50)).unwrap_err();
        assert_eq!(
            e.message,
            "zeros: out of memory: cannot allocate 1125899.9 GB"
        );
        assert!(reserve("zeros", None).is_err());
        assert!(reserve("zeros", Some(1 << 20)).is_ok());
        assert!(reserve_elems("x", Some(1 << 60), ElemType::F64).is_err());
        assert!(count("x", &[1 << 40, 1 << 40]).is_err());
        assert!(reserve_string("strcat", Some(MAX_STRING + 1)).is_err());
        assert!(reserve_string("strcat", Some(100)).is_ok());
    }
}
