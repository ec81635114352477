//! Linear algebra: `trace inv det logdet norm svd symeig eig chol linsolve` (alias
//! `solve`), through the `faer` crate (ARCHITECTURE.md says why faer).
//!
//! Arguments are real matrices (a vec is 1×N, a scalar 1×1; int elements are read as
//! reals); they are factored in the program's precision (f32 by default, as NumPy
//! factors an f32 array in f32; f64 with `--double`), except `eig` and the 2-norm, which
//! use f64, and the results are stored at the program's precision. Shapes follow MATLAB: `[U, S, V] = svd(A)` with `A = U*S*transpose(V)` and
//! `S` a matrix the shape of `A`, `s = svd(A)` the singular values (descending);
//! `[V, d] = symeig(A)` with `d` the eigenvalues of the symmetric `A` ascending (a vec)
//! and `V`'s columns the eigenvectors (only the lower triangle of `A` is read);
//! `[V, D] = eig(A)` with `D` diagonal, `d = eig(A)` a vec (complex unless every
//! eigenvalue is real); `chol(A)` the upper triangular `R` with `transpose(R)*R = A`;
//! `linsolve(A, b)` solves `A x = b` (LU for a square `A`, least squares through QR
//! otherwise); `logdet(A)` is `log(abs(det(A)))`, computed from the LU factors so it does
//! not overflow; `norm` is MATLAB's (see [`norm`]).

use super::arrange::numeric;
use super::math::bi;
use super::{Builtin, Ctx};
use crate::array::Array;
use crate::ops::{complex_buffer, real_buffer};
use crate::value::{Prec, Value};
use crate::{rt_bail, RtError, RtResult};
use faer::{Mat, MatRef};
use num_complex::Complex64;

mod decomp;
mod dense;
pub(super) use decomp::{eig_all, svd_all, symeig_all};
use dense::by_prec;

/// A real matrix argument as a faer matrix (a vec is one row, a scalar 1×1).
pub(super) fn matrix(name: &str, v: &Value) -> RtResult<Mat<f64>> {
    if let Some(x) = v.as_f64() {
        return Ok(Mat::from_fn(1, 1, |_, _| x));
    }
    if matches!(v, Value::Complex(_)) {
        rt_bail!("{name}: complex matrices are not supported");
    }
    let a = numeric(name, v)?;
    if a.elem().is_complex() {
        rt_bail!("{name}: complex matrices are not supported");
    }
    let size = a.size();
    if size.len() > 2 {
        rt_bail!("{name}: expected a matrix, got a cube");
    }
    let (m, n) = (size[0], size[1]);
    let data = crate::ops::reals_of(&a.buf);
    Ok(Mat::from_fn(m, n, |i, j| data[i * n + j]))
}

/// A matrix that must be square.
pub(super) fn square(name: &str, v: &Value) -> RtResult<Mat<f64>> {
    let a = matrix(name, v)?;
    if a.nrows() != a.ncols() {
        rt_bail!(
            "{name}: the matrix must be square, got {}x{}",
            a.nrows(),
            a.ncols()
        );
    }
    Ok(a)
}

/// A faer matrix as a Quasar value (canonical dims: 1×N is a vec).
pub(super) fn mat_value(a: MatRef<'_, f64>, prec: Prec) -> Value {
    let (m, n) = (a.nrows(), a.ncols());
    let mut data = Vec::with_capacity(m * n);
    for i in 0..m {
        data.extend((0..n).map(|j| a[(i, j)]));
    }
    let dims = Array::canonical_dims(&[m, n]);
    Value::array(Array::new(dims, real_buffer(prec, data)))
}

/// A vector value from reals.
pub(super) fn vec_value(v: Vec<f64>, prec: Prec) -> Value {
    Value::array(Array::new(vec![v.len()], real_buffer(prec, v)))
}

/// A vector value from complex numbers.
pub(super) fn cvec_value(v: Vec<Complex64>, prec: Prec) -> Value {
    Value::array(Array::new(vec![v.len()], complex_buffer(prec, v)))
}

fn finite(name: &str, a: &Mat<f64>) -> RtResult<()> {
    let ok = (0..a.ncols()).all(|j| (0..a.nrows()).all(|i| a[(i, j)].is_finite()));
    if !ok {
        rt_bail!("{name}: the matrix has NaN or infinite elements");
    }
    Ok(())
}

/// `trace(A)`: the sum of the diagonal of a square matrix.
fn trace(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = square("trace", &args[0])?;
    let t: f64 = (0..a.nrows()).map(|i| a[(i, i)]).sum();
    Ok(Value::Real(ctx.prec.round(t)))
}

/// `inv(A)`: the inverse of a square, non-singular matrix.
fn inv(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    if let Some(x) = args[0].as_f64() {
        if x == 0.0 {
            rt_bail!("inv: the matrix is singular");
        }
        return Ok(Value::Real(ctx.prec.round(1.0 / x)));
    }
    let a = square("inv", &args[0])?;
    finite("inv", &a)?;
    match by_prec!(ctx.prec, inv(&a)) {
        Some(r) => Ok(mat_value(r.as_ref(), ctx.prec)),
        None => rt_bail!("inv: the matrix is singular"),
    }
}

/// `det(A)`: the determinant of a square matrix.
fn det(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = square("det", &args[0])?;
    if a.nrows() == 0 {
        return Ok(Value::Real(1.0));
    }
    Ok(Value::Real(ctx.prec.round(by_prec!(ctx.prec, det(&a)))))
}

/// `logdet(A)`: `log(abs(det(A)))` (`-Inf` for a singular matrix).
fn logdet(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = square("logdet", &args[0])?;
    finite("logdet", &a)?;
    Ok(Value::Real(ctx.prec.round(by_prec!(ctx.prec, logdet(&a)))))
}

/// `chol(A)`: the upper triangular Cholesky factor of a symmetric positive definite
/// matrix (the lower triangle of `A` is read).
fn chol(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = square("chol", &args[0])?;
    finite("chol", &a)?;
    match by_prec!(ctx.prec, chol_upper(&a)) {
        Some(r) => Ok(mat_value(r.as_ref(), ctx.prec)),
        None => rt_bail!("chol: the matrix is not positive definite"),
    }
}

/// `linsolve(A, b)` / `solve(A, b)`: `x` with `A x = b` (least squares when `A` is not
/// square). A vector `b` gives a vector `x`; a matrix `b` solves for each column.
fn linsolve(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    if let (Some(a), Some(b)) = (args[0].as_f64(), args[1].as_f64()) {
        if a == 0.0 {
            rt_bail!("linsolve: the matrix is singular");
        }
        return Ok(Value::Real(ctx.prec.round(b / a)));
    }
    let a = matrix("linsolve", &args[0])?;
    finite("linsolve", &a)?;
    let b_is_vec = match &args[1] {
        Value::Array(r) => r.data.meta().is_ok_and(|m| m.rank() == 1),
        _ => true,
    };
    let mut b = matrix("linsolve", &args[1])?;
    if b_is_vec {
        b = b.transpose().to_owned();
    }
    if b.nrows() != a.nrows() {
        rt_bail!(
            "linsolve: the right-hand side has {} rows, the matrix {}",
            b.nrows(),
            a.nrows()
        );
    }
    let Some(x) = by_prec!(ctx.prec, solve(&a, &b)) else {
        rt_bail!("linsolve: the matrix is singular");
    };
    if b_is_vec {
        return Ok(vec_value(
            (0..x.nrows()).map(|i| x[(i, 0)]).collect(),
            ctx.prec,
        ));
    }
    Ok(mat_value(x.as_ref(), ctx.prec))
}

/// `norm(x)`, `norm(x, p)`. Vectors: the p-norm (`p` a positive number or `inf`,
/// default 2). Matrices: `p` = 2 (default) the largest singular value, 1 the largest
/// column sum of magnitudes, `inf` the largest row sum, `"fro"` the Frobenius norm.
fn norm(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = matrix("norm", &args[0])?;
    let is_vec = a.nrows() == 1 || a.ncols() == 1;
    let p = match args.get(1) {
        None => 2.0,
        Some(Value::Str(s)) if &**s == "fro" => -1.0,
        Some(Value::Str(s)) if &**s == "inf" || &**s == "Inf" => f64::INFINITY,
        Some(v) => match v.as_f64() {
            Some(p) if p > 0.0 => p,
            _ => rt_bail!("norm: p must be a positive number, inf or \"fro\""),
        },
    };
    let all = || (0..a.ncols()).flat_map(|j| (0..a.nrows()).map(move |i| (i, j)));
    let r = if p < 0.0 || (is_vec && p == 2.0) {
        all()
            .map(|(i, j)| a[(i, j)] * a[(i, j)])
            .sum::<f64>()
            .sqrt()
    } else if is_vec {
        let mags = all().map(|(i, j)| a[(i, j)].abs());
        if p.is_infinite() {
            mags.fold(0.0, f64::max)
        } else {
            mags.map(|x| x.powf(p)).sum::<f64>().powf(1.0 / p)
        }
    } else if p == 1.0 {
        (0..a.ncols())
            .map(|j| (0..a.nrows()).map(|i| a[(i, j)].abs()).sum::<f64>())
            .fold(0.0, f64::max)
    } else if p.is_infinite() {
        (0..a.nrows())
            .map(|i| (0..a.ncols()).map(|j| a[(i, j)].abs()).sum::<f64>())
            .fold(0.0, f64::max)
    } else if p == 2.0 {
        finite("norm", &a)?;
        let s = a
            .singular_values()
            .map_err(|_| RtError::new("norm: the singular value decomposition did not converge"))?;
        s.first().copied().unwrap_or(0.0)
    } else {
        rt_bail!("norm: a matrix norm is 1, 2, inf or \"fro\"");
    };
    Ok(Value::Real(ctx.prec.round(r)))
}

pub(super) static TABLE: &[Builtin] = &[
    bi("trace", trace, 1, 1),
    bi("inv", inv, 1, 1),
    bi("det", det, 1, 1),
    bi("logdet", logdet, 1, 1),
    bi("chol", chol, 1, 1),
    bi("linsolve", linsolve, 2, 2),
    bi("solve", linsolve, 2, 2),
    bi("norm", norm, 1, 2),
    bi("svd", decomp::svd, 1, 1),
    bi("symeig", decomp::symeig, 1, 1),
    bi("eig", decomp::eig, 1, 1),
];

#[cfg(test)]
mod tests;
