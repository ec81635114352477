//! The decompositions with several outputs: `svd`, `symeig`, `eig` (shapes in the
//! parent module's comment).

use super::{
    by_cprec, by_prec, cfinite, cmat_value, cvec_value, finite, mat_value, operand, square_operand,
    vec_value, Operand,
};
use crate::builtins::Ctx;
use crate::value::Value;
use crate::{rt_bail, RtError, RtResult};
use faer::{c64, Mat};
use num_complex::Complex64;

/// `[U, S, V] = svd(A)`: full U (m×m), S (m×n, the singular values descending on its
/// diagonal), V (n×n); `svd(A, "econ")`: U m×k, S k×k, V n×k with k = min(m, n), and
/// `svd(A, 0)` the same for a tall `A` (m > n; otherwise the full form), as MATLAB. One
/// output: the singular values as a vec. A complex `A` gives complex U and V.
pub(in crate::builtins) fn svd_all(
    ctx: &mut Ctx,
    args: &[Value],
    nout: usize,
) -> RtResult<Vec<Value>> {
    let a = operand("svd", &args[0])?;
    let (m, n) = a.shape();
    let thin = match args.get(1) {
        None => false,
        Some(Value::Str(s)) if &**s == "econ" => true,
        Some(v) if v.as_f64() == Some(0.0) => m > n,
        Some(_) => rt_bail!("svd: the second argument must be \"econ\" or 0"),
    };
    let vectors = nout > 1;
    let prec = ctx.prec;
    let failed = || RtError::new("svd: the decomposition did not converge");
    let (s, u, v) = match a {
        Operand::Real(a) => {
            finite("svd", &a)?;
            let (s, uv) = by_prec!(prec, svd(&a, vectors, thin)).ok_or_else(failed)?;
            let uv = uv.map(|(u, v)| (mat_value(u.as_ref(), prec), mat_value(v.as_ref(), prec)));
            (s, uv.as_ref().map(|p| p.0.clone()), uv.map(|p| p.1))
        }
        Operand::Complex(a) => {
            cfinite("svd", &a)?;
            let (s, uv) = by_cprec!(prec, svd(&a, vectors, thin)).ok_or_else(failed)?;
            let uv = uv.map(|(u, v)| (cmat_value(u.as_ref(), prec), cmat_value(v.as_ref(), prec)));
            (s, uv.as_ref().map(|p| p.0.clone()), uv.map(|p| p.1))
        }
    };
    let (Some(u), Some(v)) = (u, v) else {
        return Ok(vec![vec_value(s, prec)]);
    };
    let (sm, sn) = if thin { (s.len(), s.len()) } else { (m, n) };
    let smat = Mat::from_fn(sm, sn, |i, j| if i == j { s[i] } else { 0.0 });
    Ok(vec![u, mat_value(smat.as_ref(), prec), v])
}

pub(in crate::builtins) fn svd(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(svd_all(ctx, args, 1)?.swap_remove(0))
}

/// `[V, d] = symeig(A)`; one output: `d`. A complex (Hermitian) `A` gives real `d` and
/// complex `V`.
pub(in crate::builtins) fn symeig_all(
    ctx: &mut Ctx,
    args: &[Value],
    nout: usize,
) -> RtResult<Vec<Value>> {
    let prec = ctx.prec;
    let failed = || RtError::new("symeig: the decomposition did not converge");
    let (d, v) = match square_operand("symeig", &args[0])? {
        Operand::Real(a) => {
            let (d, v) = by_prec!(prec, symeig(&a, nout > 1)).ok_or_else(failed)?;
            (d, v.map(|v| mat_value(v.as_ref(), prec)))
        }
        Operand::Complex(a) => {
            let (d, v) = by_cprec!(prec, symeig(&a, nout > 1)).ok_or_else(failed)?;
            (d, v.map(|v| cmat_value(v.as_ref(), prec)))
        }
    };
    match v {
        Some(v) => Ok(vec![v, vec_value(d, prec)]),
        None => Ok(vec![vec_value(d, prec)]),
    }
}

pub(in crate::builtins) fn symeig(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(symeig_all(ctx, args, 1)?.swap_remove(0))
}

fn is_symmetric(a: &Mat<f64>) -> bool {
    let n = a.nrows();
    (0..n).all(|i| (0..i).all(|j| a[(i, j)] == a[(j, i)]))
}

/// Whether `a` equals its conjugate transpose.
fn is_hermitian(a: &Mat<c64>) -> bool {
    let n = a.nrows();
    (0..n).all(|i| a[(i, i)].im == 0.0 && (0..i).all(|j| a[(i, j)] == a[(j, i)].conj()))
}

/// `[V, D] = eig(A)`; one output: the eigenvalues as a vec. A symmetric (Hermitian) `A`
/// gives real eigenvalues in ascending order (as `symeig`); otherwise the eigenvalues
/// come in the order the QR algorithm finds them, complex unless every one is real.
pub(in crate::builtins) fn eig_all(
    ctx: &mut Ctx,
    args: &[Value],
    nout: usize,
) -> RtResult<Vec<Value>> {
    let a = square_operand("eig", &args[0])?;
    let prec = ctx.prec;
    let failed = || RtError::new("eig: the decomposition did not converge");
    let hermitian = match &a {
        Operand::Real(r) => is_symmetric(r),
        Operand::Complex(c) => is_hermitian(c),
    };
    if hermitian {
        let mut out = symeig_all(ctx, args, nout)?;
        if nout > 1 {
            let d = out.pop().expect("symeig gives two outputs");
            out.push(diag_of(&d, prec));
        }
        return Ok(out);
    }
    let n = a.shape().0;
    if nout <= 1 {
        let d = match &a {
            Operand::Real(r) => r.eigenvalues(),
            Operand::Complex(c) => c.eigenvalues(),
        };
        let d = d.map_err(|_| failed())?;
        let d: Vec<Complex64> = d.into_iter().map(|z| Complex64::new(z.re, z.im)).collect();
        return Ok(vec![complex_or_real(d, prec)]);
    }
    let e = match &a {
        Operand::Real(r) => r.eigen(),
        Operand::Complex(c) => c.eigen(),
    };
    let e = e.map_err(|_| failed())?;
    let s = e.S().column_vector();
    let u = e.U();
    let d: Vec<Complex64> = (0..n).map(|i| Complex64::new(s[i].re, s[i].im)).collect();
    let v: Vec<Complex64> = (0..n * n)
        .map(|k| {
            let z = u[(k / n, k % n)];
            Complex64::new(z.re, z.im)
        })
        .collect();
    let real = d.iter().all(|z| z.im == 0.0) && v.iter().all(|z| z.im == 0.0);
    let dm: Vec<Complex64> = (0..n * n)
        .map(|k| {
            if k / n == k % n {
                d[k / n]
            } else {
                Complex64::new(0.0, 0.0)
            }
        })
        .collect();
    let to_value = |data: Vec<Complex64>| {
        let dims = crate::array::Array::canonical_dims(&[n, n]);
        let buf = if real {
            crate::ops::real_buffer(prec, data.iter().map(|z| z.re).collect())
        } else {
            crate::ops::complex_buffer(prec, data)
        };
        Value::array(crate::array::Array::new(dims, buf))
    };
    Ok(vec![to_value(v), to_value(dm)])
}

pub(in crate::builtins) fn eig(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(eig_all(ctx, args, 1)?.swap_remove(0))
}

fn complex_or_real(d: Vec<Complex64>, prec: crate::value::Prec) -> Value {
    if d.iter().all(|z| z.im == 0.0) {
        vec_value(d.into_iter().map(|z| z.re).collect(), prec)
    } else {
        cvec_value(d, prec)
    }
}

/// The diagonal matrix of a vector value.
fn diag_of(d: &Value, prec: crate::value::Prec) -> Value {
    let v: Vec<f64> = match d {
        Value::Array(r) => r.borrow().to_f64_vec(),
        other => vec![other.as_f64().unwrap_or(0.0)],
    };
    let n = v.len();
    let m = Mat::from_fn(n, n, |i, j| if i == j { v[i] } else { 0.0 });
    mat_value(m.as_ref(), prec)
}
