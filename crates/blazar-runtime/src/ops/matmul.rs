//! The matrix product `A * B` of arrays of rank ≤ 2 (a vec counts as a 1×N row).
//!
//! Real products run on faer's blocked, multi-threaded GEMM: f32
//! operands at single precision in f32 (as BLAS, cuBLAS and NumPy do: results agree with
//! an f64 product to about 1e-6 relative, not to the last bit), anything else in f64,
//! rounded once per result element. Int products wrap to the common int type (exact);
//! complex products use the plain triple loop. A 1×1 result is returned as a scalar.

use super::broadcast::{
    common_int, complex_buffer, complexes_of, int_buffer, ints_of, real_buffer, reals_of,
};
use crate::array::{Array, Buffer, ElemType};
use crate::value::{Prec, Value};
use crate::{rt_bail, RtResult};
use num_complex::Complex64;
use std::ops::{Add, Mul};

mod tiles;

fn as_matrix(a: &Array) -> Option<(usize, usize)> {
    match a.dims.as_slice() {
        [n] => Some((1, *n)),
        [m, n] => Some((*m, *n)),
        _ => None,
    }
}

/// Whether `a * b` is a defined matrix product.
pub(super) fn conformable(a: &Array, b: &Array) -> bool {
    matches!((as_matrix(a), as_matrix(b)), (Some((_, k)), Some((k2, _))) if k == k2)
}

fn fmt_size(d: &[usize]) -> String {
    let s = if d.len() == 1 {
        vec![1, d[0]]
    } else {
        d.to_vec()
    };
    let parts: Vec<String> = s.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// `c[m×n] = a[m×k] · b[k×n]` in row-major order (i-p-j loops for locality).
fn product<T: Copy + Default + Add<Output = T> + Mul<Output = T>>(
    a: &[T],
    b: &[T],
    m: usize,
    k: usize,
    n: usize,
) -> Vec<T> {
    let mut c = vec![T::default(); m * n];
    for i in 0..m {
        let row = &mut c[i * n..(i + 1) * n];
        for p in 0..k {
            let x = a[i * k + p];
            let brow = &b[p * n..(p + 1) * n];
            for (cj, &bj) in row.iter_mut().zip(brow) {
                *cj = *cj + x * bj;
            }
        }
    }
    c
}

#[derive(Clone, Copy, Default)]
struct Wrapping(i64);

impl Add for Wrapping {
    type Output = Wrapping;
    fn add(self, o: Wrapping) -> Wrapping {
        Wrapping(self.0.wrapping_add(o.0))
    }
}

impl Mul for Wrapping {
    type Output = Wrapping;
    fn mul(self, o: Wrapping) -> Wrapping {
        Wrapping(self.0.wrapping_mul(o.0))
    }
}

/// `x[m×k] · y[k×n]` of row-major slices through faer's GEMM (the `gemm` crate's
/// kernels for this CPU). The result goes to memory from the host pool (every element
/// is written). Large products are cut into tiles of the result, about four a thread
/// of rayon's pool (`blazar run --threads N` sizes it; [`tiles::grid`]), each a
/// sequential faer product of views (no operand is copied): faer's own threading starts a worker group per
/// product, which cost more than the product itself at 512² on 16 threads.
fn gemm<T: faer::traits::ComplexField + blazar_value::pool::PoolElem + From<u8>>(
    x: &[T],
    y: &[T],
    m: usize,
    k: usize,
    n: usize,
) -> Vec<T> {
    if x.len() < m * k || y.len() < k * n || m * n == 0 || k == 0 {
        return vec![T::default(); m * n];
    }
    let mut c = T::unwrap(blazar_value::pool::take(T::ELEM, m * n));
    let grid = tiles::grid(m, k, n, rayon::current_num_threads(), tiles::MIN_TILE_WORK);
    tiled(&mut c, x, y, m, k, n, grid);
    c
}

/// `c = x · y` in `rows × cols` tiles of `c` (bands of whole tiles; see [`tiles`]), run
/// on rayon's pool, each a sequential faer product.
fn tiled<T: faer::traits::ComplexField + From<u8>>(
    c: &mut [T],
    x: &[T],
    y: &[T],
    m: usize,
    k: usize,
    n: usize,
    grid: tiles::Grid,
) {
    use rayon::prelude::*;
    let a = faer::MatRef::from_row_major_slice(&x[..m * k], m, k);
    let b = faer::MatRef::from_row_major_slice(&y[..k * n], k, n);
    let dst = faer::MatMut::from_row_major_slice_mut(&mut c[..m * n], m, n);
    let one = |dst: faer::MatMut<'_, T>, a: faer::MatRef<'_, T>, b: faer::MatRef<'_, T>| {
        faer::linalg::matmul::matmul(dst, faer::Accum::Replace, a, b, T::from(1), faer::Par::Seq)
    };
    if grid.rows >= m && grid.cols >= n {
        return one(dst, a, b);
    }
    dst.par_row_chunks_mut(grid.rows)
        .enumerate()
        .for_each(|(i, band)| {
            let r0 = i * grid.rows;
            let a = a.subrows(r0, band.nrows());
            band.par_col_chunks_mut(grid.cols)
                .enumerate()
                .for_each(|(j, tile)| {
                    let c0 = j * grid.cols;
                    one(tile, a, b.subcols(c0, grid.cols.min(n - c0)))
                });
        });
}

/// The matrix product of two numeric arrays.
pub(super) fn matmul(a: &Array, b: &Array, prec: Prec) -> RtResult<Value> {
    let ((m, k), (k2, n)) = match (as_matrix(a), as_matrix(b)) {
        (Some(x), Some(y)) => (x, y),
        _ => rt_bail!(
            "operator `*` is the matrix product and needs arrays of rank 1 or 2, got sizes {} and {}; \
             use `.*` for element-wise multiplication",
            fmt_size(&a.dims),
            fmt_size(&b.dims)
        ),
    };
    if k != k2 {
        rt_bail!("matrix product: inner dimensions differ ({m}x{k} times {k2}x{n})");
    }
    if a.len() != m * k || b.len() != k * n {
        rt_bail!("matrix product: malformed array");
    }
    crate::alloc::result(&[m, n], 16)?;
    let buf = match (a.elem(), b.elem()) {
        (ElemType::Int(ta), ElemType::Int(tb)) => {
            let t = common_int(ta, tb);
            let (x, y) = (ints_of(&a.buf), ints_of(&b.buf));
            let x: Vec<Wrapping> = x.iter().map(|&v| Wrapping(v)).collect();
            let y: Vec<Wrapping> = y.iter().map(|&v| Wrapping(v)).collect();
            int_buffer(
                t,
                product(&x, &y, m, k, n)
                    .into_iter()
                    .map(|w| t.wrap(w.0))
                    .collect(),
            )
        }
        (ea, eb) if ea.is_complex() || eb.is_complex() => {
            let (x, y) = (complexes_of(&a.buf), complexes_of(&b.buf));
            let c: Vec<Complex64> = product(&x, &y, m, k, n);
            complex_buffer(prec, c.into_iter().map(|z| prec.round_c(z)).collect())
        }
        (ElemType::F32, ElemType::F32) if prec == Prec::Single => {
            let (Buffer::F32(x), Buffer::F32(y)) = (&a.buf, &b.buf) else {
                rt_bail!("matrix product: malformed array");
            };
            Buffer::F32(gemm(x, y, m, k, n))
        }
        _ => {
            let (x, y) = (reals_of(&a.buf), reals_of(&b.buf));
            real_buffer(prec, gemm(&x, &y, m, k, n))
        }
    };
    if m * n == 1 {
        return Ok(buf.get_value(0));
    }
    Ok(Value::array(Array::new(
        Array::canonical_dims(&[m, n]),
        buf,
    )))
}
