//! Linear algebra: `trace inv det logdet norm svd symeig eig chol linsolve` (alias
//! `solve`), through the `faer` crate (ARCHITECTURE.md says why faer).
//!
//! Arguments are matrices (a vec is 1×N, a scalar 1×1; int elements are read as
//! reals), real or complex (`complex.rs`: where MATLAB takes complex ones, every
//! function here, `chol` and `symeig` of a Hermitian matrix); they are factored in the
//! program's precision (f32 / c32 by default, as NumPy factors an f32 array in f32;
//! f64 with `--double`), except `eig` and the 2-norm, which use f64, and the results
//! are stored at the program's precision. `svd(A, "econ")` (and `svd(A, 0)` for a tall
//! `A`) give the economy-size factors, as MATLAB. Shapes follow MATLAB: `[U, S, V] = svd(A)` with `A = U*S*transpose(V)` and
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

mod complex;
mod decomp;
mod dense;
use complex::by_cprec;
pub(super) use decomp::{eig_all, svd_all, symeig_all};
use dense::by_prec;
use faer::c64;

/// A matrix argument, real or complex.
pub(super) enum Operand {
    Real(Mat<f64>),
    Complex(Mat<c64>),
}

impl Operand {
    pub(super) fn shape(&self) -> (usize, usize) {
        match self {
            Operand::Real(a) => (a.nrows(), a.ncols()),
            Operand::Complex(a) => (a.nrows(), a.ncols()),
        }
    }

    /// The matrix as complex (a real one widened).
    pub(super) fn complex(self) -> Mat<c64> {
        match self {
            Operand::Real(a) => Mat::from_fn(a.nrows(), a.ncols(), |i, j| c64::new(a[(i, j)], 0.0)),
            Operand::Complex(a) => a,
        }
    }
}

/// A matrix argument, real or complex (a vec is one row, a scalar 1×1).
pub(super) fn operand(name: &str, v: &Value) -> RtResult<Operand> {
    let is_complex = match v {
        Value::Complex(_) => true,
        Value::Array(r) => r.meta().is_ok_and(|m| m.elem().is_complex()),
        _ => false,
    };
    if !is_complex {
        return matrix(name, v).map(Operand::Real);
    }
    if let Value::Complex(z) = v {
        return Ok(Operand::Complex(Mat::from_fn(1, 1, |_, _| *z)));
    }
    let a = numeric(name, v)?;
    let size = a.size();
    if size.len() > 2 {
        rt_bail!("{name}: expected a matrix, got a cube");
    }
    let (m, n) = (size[0], size[1]);
    let data = crate::ops::complexes_of(&a.buf);
    Ok(Operand::Complex(Mat::from_fn(m, n, |i, j| data[i * n + j])))
}

/// A square matrix argument, real or complex.
pub(super) fn square_operand(name: &str, v: &Value) -> RtResult<Operand> {
    let a = operand(name, v)?;
    let (m, n) = a.shape();
    if m != n {
        rt_bail!("{name}: the matrix must be square, got {m}x{n}");
    }
    match &a {
        Operand::Real(r) => finite(name, r)?,
        Operand::Complex(c) => cfinite(name, c)?,
    }
    Ok(a)
}

/// A complex faer matrix as a Quasar value.
pub(super) fn cmat_value(a: MatRef<'_, c64>, prec: Prec) -> Value {
    let (m, n) = (a.nrows(), a.ncols());
    let mut data = Vec::with_capacity(m * n);
    for i in 0..m {
        data.extend((0..n).map(|j| a[(i, j)]));
    }
    let dims = Array::canonical_dims(&[m, n]);
    Value::array(Array::new(dims, complex_buffer(prec, data)))
}

fn cfinite(name: &str, a: &Mat<c64>) -> RtResult<()> {
    let ok = (0..a.ncols()).all(|j| (0..a.nrows()).all(|i| a[(i, j)].is_finite()));
    if !ok {
        rt_bail!("{name}: the matrix has NaN or infinite elements");
    }
    Ok(())
}

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

/// A complex scalar value rounded to the program's precision.
fn cscalar(z: c64, prec: Prec) -> Value {
    Value::Complex(prec.round_c(z))
}

/// `trace(A)`: the sum of the diagonal of a square matrix.
fn trace(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    match square_operand("trace", &args[0])? {
        Operand::Real(a) => {
            let t: f64 = (0..a.nrows()).map(|i| a[(i, i)]).sum();
            Ok(Value::Real(ctx.prec.round(t)))
        }
        Operand::Complex(a) => Ok(cscalar((0..a.nrows()).map(|i| a[(i, i)]).sum(), ctx.prec)),
    }
}

/// `inv(A)`: the inverse of a square, non-singular matrix.
fn inv(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    if let Some(x) = args[0].as_f64() {
        if x == 0.0 {
            rt_bail!("inv: the matrix is singular");
        }
        return Ok(Value::Real(ctx.prec.round(1.0 / x)));
    }
    let r = match square_operand("inv", &args[0])? {
        Operand::Real(a) => by_prec!(ctx.prec, inv(&a)).map(|r| mat_value(r.as_ref(), ctx.prec)),
        Operand::Complex(a) => {
            by_cprec!(ctx.prec, inv(&a)).map(|r| cmat_value(r.as_ref(), ctx.prec))
        }
    };
    r.ok_or_else(|| RtError::new("inv: the matrix is singular"))
}

/// `det(A)`: the determinant of a square matrix.
fn det(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    match square_operand("det", &args[0])? {
        Operand::Real(a) if a.nrows() == 0 => Ok(Value::Real(1.0)),
        Operand::Real(a) => Ok(Value::Real(ctx.prec.round(by_prec!(ctx.prec, det(&a))))),
        Operand::Complex(a) if a.nrows() == 0 => Ok(Value::Real(1.0)),
        Operand::Complex(a) => Ok(cscalar(by_cprec!(ctx.prec, det(&a)), ctx.prec)),
    }
}

/// `logdet(A)`: `log(abs(det(A)))` (`-Inf` for a singular matrix).
fn logdet(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let r = match square_operand("logdet", &args[0])? {
        Operand::Real(a) => by_prec!(ctx.prec, logdet(&a)),
        Operand::Complex(a) => by_cprec!(ctx.prec, logdet(&a)),
    };
    Ok(Value::Real(ctx.prec.round(r)))
}

/// `chol(A)`: the upper triangular Cholesky factor of a symmetric (Hermitian) positive
/// definite matrix, `R^H R = A` (the lower triangle of `A` is read).
fn chol(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let r = match square_operand("chol", &args[0])? {
        Operand::Real(a) => {
            by_prec!(ctx.prec, chol_upper(&a)).map(|r| mat_value(r.as_ref(), ctx.prec))
        }
        Operand::Complex(a) => {
            by_cprec!(ctx.prec, chol_upper(&a)).map(|r| cmat_value(r.as_ref(), ctx.prec))
        }
    };
    r.ok_or_else(|| RtError::new("chol: the matrix is not positive definite"))
}

/// `linsolve(A, b)` / `solve(A, b)`: `x` with `A x = b` (least squares when `A` is not
/// square). A vector `b` gives a vector `x`; a matrix `b` solves for each column. A
/// complex `A` or `b` gives a complex `x`.
fn linsolve(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    if let (Some(a), Some(b)) = (args[0].as_f64(), args[1].as_f64()) {
        if a == 0.0 {
            rt_bail!("linsolve: the matrix is singular");
        }
        return Ok(Value::Real(ctx.prec.round(b / a)));
    }
    let a = operand("linsolve", &args[0])?;
    let b_is_vec = match &args[1] {
        Value::Array(r) => r.meta().is_ok_and(|m| m.rank() == 1),
        _ => true,
    };
    let b = operand("linsolve", &args[1])?;
    let (am, bshape) = (a.shape().0, b.shape());
    let b_rows = if b_is_vec { bshape.1 } else { bshape.0 };
    if b_rows != am {
        rt_bail!("linsolve: the right-hand side has {b_rows} rows, the matrix {am}");
    }
    let singular = || RtError::new("linsolve: the matrix is singular");
    let prec = ctx.prec;
    let x = match (a, b) {
        (Operand::Real(a), Operand::Real(mut b)) => {
            finite("linsolve", &a)?;
            if b_is_vec {
                b = b.transpose().to_owned();
            }
            let x = by_prec!(prec, solve(&a, &b)).ok_or_else(singular)?;
            if b_is_vec {
                return Ok(vec_value((0..x.nrows()).map(|i| x[(i, 0)]).collect(), prec));
            }
            mat_value(x.as_ref(), prec)
        }
        (a, b) => {
            let (a, mut b) = (a.complex(), b.complex());
            cfinite("linsolve", &a)?;
            if b_is_vec {
                b = b.transpose().to_owned();
            }
            let x = by_cprec!(prec, solve(&a, &b)).ok_or_else(singular)?;
            if b_is_vec {
                return Ok(cvec_value(
                    (0..x.nrows()).map(|i| x[(i, 0)]).collect(),
                    prec,
                ));
            }
            cmat_value(x.as_ref(), prec)
        }
    };
    Ok(x)
}

/// `norm(x)`, `norm(x, p)`. Vectors: the p-norm (`p` a positive number or `inf`,
/// default 2). Matrices: `p` = 2 (default) the largest singular value, 1 the largest
/// column sum of magnitudes, `inf` the largest row sum, `"fro"` the Frobenius norm.
fn norm(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let op = operand("norm", &args[0])?;
    // Every norm but a matrix's 2-norm depends on the magnitudes alone.
    let (a, complex) = match &op {
        Operand::Real(a) => (a.clone(), None),
        Operand::Complex(c) => (
            Mat::from_fn(c.nrows(), c.ncols(), |i, j| c[(i, j)].norm()),
            Some(c),
        ),
    };
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
        let failed = |_| RtError::new("norm: the singular value decomposition did not converge");
        let s = match complex {
            Some(c) => c.singular_values().map_err(failed)?,
            None => a.singular_values().map_err(failed)?,
        };
        s.first().copied().unwrap_or(0.0)
    } else {
        rt_bail!("norm: a matrix norm is 1, 2, inf or \"fro\"");
    };
    Ok(Value::Real(ctx.prec.round(r)))
}

pub(super) static TABLE: &[Builtin] = &[
    bi("trace", trace, 1, 1).doc(
        "trace(A)",
        "The sum of the diagonal of matrix A.",
        "print trace([[4, 1], [1, 3]])",
        "7",
    ),
    bi("inv", inv, 1, 1).doc(
        "inv(A)",
        "The inverse of square matrix A (an error when A is singular). To solve a system prefer `linsolve(A, b)`.",
        "print inv([[2, 0], [0, 4]])",
        "[ [0.5,0],\n  [0,0.25] ]",
    ),
    bi("det", det, 1, 1).doc(
        "det(A)",
        "The determinant of square matrix A.",
        "print det([[4, 1], [1, 3]])",
        "11",
    ),
    bi("logdet", logdet, 1, 1).doc(
        "logdet(A)",
        "log(abs(det(A))) of a square matrix, computed without overflowing the determinant.",
        "print logdet([[4, 0], [0, 4]]) == log(16)",
        "1",
    ),
    bi("chol", chol, 1, 1).doc(
        "chol(A)",
        "The Cholesky factor R of a symmetric positive definite matrix A: upper triangular with transpose(R) * R = A.",
        "print chol([[4, 2], [2, 5]])",
        "[ [2,1],\n  [0,2] ]",
    ),
    bi("linsolve", linsolve, 2, 2).doc(
        "linsolve(A, b)",
        "The solution x of the linear system A * x = b (least squares when A is not square).",
        "print linsolve([[2, 0], [0, 4]], [2, 8])",
        "[1,2]",
    ),
    bi("solve", linsolve, 2, 2).doc(
        "solve(A, b)",
        "The solution x of A * x = b; the same as `linsolve`.",
        "print solve([[1, 1], [1, -1]], [3, 1])",
        "[2,1]",
    ),
    bi("norm", norm, 1, 2).doc(
        "norm(x) · norm(x, p)",
        "Of a vector, the p-norm (p a positive number or `inf`; default 2). Of a matrix, the largest singular value (p = 2, the default), the largest column sum (1), the largest row sum (`inf`) or the Frobenius norm (\"fro\").",
        "print norm([3, 4]), \" \", norm([3, -4], 1), \" \", norm([[1, 2], [3, 4]], \"fro\") == sqrt(30)",
        "5 7 1",
    ),
    bi("svd", decomp::svd, 1, 2).doc(
        "svd(A) · [U, S, V] = svd(A)",
        "The singular values of A, largest first; with three outputs, U, S and V with A = U * S * transpose(V).",
        "print svd([[3, 0], [0, 4]])",
        "[4,3]",
    ),
    bi("symeig", decomp::symeig, 1, 1).doc(
        "symeig(A) · [V, D] = symeig(A)",
        "The eigenvalues of symmetric matrix A in ascending order; with two outputs, also its eigenvectors (the columns of V).",
        "print symeig([[2, 1], [1, 2]])",
        "[1,3]",
    ),
    bi("eig", decomp::eig, 1, 1).doc(
        "eig(A) · [V, D] = eig(A)",
        "The eigenvalues of square matrix A (complex when A is not symmetric); with two outputs, also its eigenvectors.",
        "print eig([[2, 0], [0, 1]])",
        "[1,2]",
    ),
];

#[cfg(test)]
mod tests;
