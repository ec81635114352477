//! The decompositions with several outputs: `svd`, `symeig`, `eig` (shapes in the
//! parent module's comment).

use super::{by_prec, cvec_value, finite, mat_value, matrix, square, vec_value};
use crate::builtins::Ctx;
use crate::value::Value;
use crate::{rt_bail, RtError, RtResult};
use faer::Mat;
use num_complex::Complex64;

/// `[U, S, V] = svd(A)`: full U (m×m), S (m×n, the singular values descending on its
/// diagonal), V (n×n); one output: the singular values as a vec.
pub(in crate::builtins) fn svd_all(
    ctx: &mut Ctx,
    args: &[Value],
    nout: usize,
) -> RtResult<Vec<Value>> {
    let a = matrix("svd", &args[0])?;
    finite("svd", &a)?;
    let Some((s, uv)) = by_prec!(ctx.prec, svd(&a, nout > 1)) else {
        rt_bail!("svd: the decomposition did not converge");
    };
    let Some((u, v)) = uv else {
        return Ok(vec![vec_value(s, ctx.prec)]);
    };
    let (m, n) = (a.nrows(), a.ncols());
    let smat = Mat::from_fn(m, n, |i, j| if i == j { s[i] } else { 0.0 });
    Ok(vec![
        mat_value(u.as_ref(), ctx.prec),
        mat_value(smat.as_ref(), ctx.prec),
        mat_value(v.as_ref(), ctx.prec),
    ])
}

pub(in crate::builtins) fn svd(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(svd_all(ctx, args, 1)?.swap_remove(0))
}

/// `[V, d] = symeig(A)`; one output: `d`.
pub(in crate::builtins) fn symeig_all(
    ctx: &mut Ctx,
    args: &[Value],
    nout: usize,
) -> RtResult<Vec<Value>> {
    let a = square("symeig", &args[0])?;
    finite("symeig", &a)?;
    let Some((d, v)) = by_prec!(ctx.prec, symeig(&a, nout > 1)) else {
        rt_bail!("symeig: the decomposition did not converge");
    };
    match v {
        Some(v) => Ok(vec![
            mat_value(v.as_ref(), ctx.prec),
            vec_value(d, ctx.prec),
        ]),
        None => Ok(vec![vec_value(d, ctx.prec)]),
    }
}

pub(in crate::builtins) fn symeig(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    Ok(symeig_all(ctx, args, 1)?.swap_remove(0))
}

fn is_symmetric(a: &Mat<f64>) -> bool {
    let n = a.nrows();
    (0..n).all(|i| (0..i).all(|j| a[(i, j)] == a[(j, i)]))
}

/// `[V, D] = eig(A)`; one output: the eigenvalues as a vec. A symmetric `A` gives real
/// results in ascending order (as `symeig`); otherwise the eigenvalues come in the
/// order the QR algorithm finds them, complex unless every one is real.
pub(in crate::builtins) fn eig_all(
    ctx: &mut Ctx,
    args: &[Value],
    nout: usize,
) -> RtResult<Vec<Value>> {
    let a = square("eig", &args[0])?;
    finite("eig", &a)?;
    let prec = ctx.prec;
    let failed = || RtError::new("eig: the decomposition did not converge");
    if is_symmetric(&a) {
        let mut out = symeig_all(ctx, args, nout)?;
        if nout > 1 {
            let d = out.pop().expect("symeig gives two outputs");
            out.push(diag_of(&d, prec));
        }
        return Ok(out);
    }
    let n = a.nrows();
    if nout <= 1 {
        let d = a.eigenvalues().map_err(|_| failed())?;
        let d: Vec<Complex64> = d.into_iter().map(|z| Complex64::new(z.re, z.im)).collect();
        return Ok(vec![complex_or_real(d, prec)]);
    }
    let e = a.eigen().map_err(|_| failed())?;
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
        Value::Array(r) => r.data.borrow().to_f64_vec(),
        other => vec![other.as_f64().unwrap_or(0.0)],
    };
    let n = v.len();
    let m = Mat::from_fn(n, n, |i, j| if i == j { v[i] } else { 0.0 });
    mat_value(m.as_ref(), prec)
}
