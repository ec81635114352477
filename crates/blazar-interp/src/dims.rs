//! The index space of a launch: reading the `dims` argument (an int, a vector, or
//! `[[data dims], [block dims]]`) and the default and largest block shapes.

use blazar_runtime::Value;

/// The threads of a block on the CPU: at most this many.
pub const MAX_BLOCK: usize = 1024;

/// The default block shape for an index space (documented in ARCHITECTURE.md): per-dim
/// caps 256 (1-d); 16×16 (2-d); 8×16×4 (3-d); 4×8×8×4 (4-d); each extent the largest
/// divisor of the data extent under its cap, so blocks tile the space exactly.
pub fn default_block(dims: &[usize]) -> Vec<usize> {
    let caps: &[usize] = match dims.len() {
        1 => &[256],
        2 => &[16, 16],
        3 => &[8, 16, 4],
        _ => &[4, 8, 8, 4],
    };
    dims.iter()
        .zip(caps)
        .map(|(&d, &c)| {
            (1..=c.min(d.max(1)))
                .rev()
                .find(|b| d % b == 0)
                .unwrap_or(1)
        })
        .collect()
}

/// `max_block_size(kernel, dims)`: `dims` shrunk (halving the largest extent) until a
/// block has at most [`MAX_BLOCK`] threads.
pub fn max_block(dims: &[usize]) -> Vec<usize> {
    let mut b: Vec<usize> = dims.iter().map(|&d| d.max(1)).collect();
    while b.iter().product::<usize>() > MAX_BLOCK {
        if let Some(m) = b.iter_mut().max() {
            *m = m.div_ceil(2);
        }
    }
    b
}

fn int_list(v: &Value) -> Option<Vec<i64>> {
    match v {
        Value::Array(a) => {
            let a = a.borrow();
            (0..a.len()).map(|i| a.get_value(i).as_i64()).collect()
        }
        v => v.as_i64().map(|x| vec![x]),
    }
}

/// Reads `dims`: an int, a vector, or a 2-row matrix `[[data dims], [block dims]]`.
pub fn read_dims(v: &Value) -> Result<(Vec<usize>, Option<Vec<usize>>), String> {
    let to_usize = |xs: Vec<i64>| -> Result<Vec<usize>, String> {
        xs.into_iter()
            .map(|x| {
                usize::try_from(x).map_err(|_| format!("negative extent {x} in the dimensions"))
            })
            .collect()
    };
    if let Value::Array(a) = v {
        let arr = a.borrow();
        if arr.rank() == 2 && arr.dims[0] == 2 && !arr.is_cell() {
            let n = arr.dims[1];
            let vals: Option<Vec<i64>> = (0..2 * n).map(|i| arr.get_value(i).as_i64()).collect();
            let vals = vals.ok_or("the dimensions must be integers")?;
            return Ok((
                to_usize(vals[..n].to_vec())?,
                Some(to_usize(vals[n..].to_vec())?),
            ));
        }
    }
    let xs = int_list(v).ok_or("the dimensions must be an int or a vector of ints")?;
    Ok((to_usize(xs)?, None))
}
