//! Discrete Fourier transforms: `fft1`, `fft2`, `fft3` and their inverses.
//!
//! The transforms are computed in f64 with `rustfft` and the result is stored as a
//! complex array at the program's precision, with the same dims as the input.
//! `fft1` transforms along the last dimension (a vec, each row of a mat, each `(i,j)`
//! fibre of a cube); `fft2` along dims 0 and 1 (each channel of a cube separately);
//! `fft3` along dims 0, 1 and 2. Inputs of lower rank than the transform are treated
//! as having leading singleton dimensions, so all their dimensions are transformed.
//! Inverses are normalised by `1/n` per transformed dimension.

use super::{Builtin, Ctx};
use crate::array::{Array, ElemType};
use crate::{rt_bail, RtResult, Value};
use num_complex::Complex64;
use rustfft::{FftDirection, FftPlanner};

use super::math::bi;

pub(super) static TABLE: &[Builtin] = &[
    bi("fft1", fft1, 1, 1).doc(
        "fft1(x)",
        "The discrete Fourier transform of x along its last dimension (each row of a matrix), as a complex array; unnormalised, as MATLAB's fft.",
        "print fft1([1, 1, 1, 1])",
        "[4+0i,0+0i,0+0i,0+0i]",
    ),
    bi("ifft1", ifft1, 1, 1).doc(
        "ifft1(X)",
        "The inverse of `fft1` (divides by the length), as a complex array.",
        "print real(ifft1(fft1([1, 2, 3, 4])))",
        "[1,2,3,4]",
    ),
    bi("fft2", fft2, 1, 1).doc(
        "fft2(x)",
        "The 2-D discrete Fourier transform over the last two dimensions (each channel of an image cube separately).",
        "print fft2([[1, 1], [1, 1]])",
        "[ [4+0i,0+0i],\n  [0+0i,0+0i] ]",
    ),
    bi("ifft2", ifft2, 1, 1).doc(
        "ifft2(X)",
        "The inverse of `fft2`.",
        "print real(ifft2(fft2([[1, 2], [3, 4]])))",
        "[ [1,2],\n  [3,4] ]",
    ),
    bi("fft3", fft3, 1, 1).doc(
        "fft3(x)",
        "The 3-D discrete Fourier transform over the last three dimensions.",
        "print real(fft3(ones(2, 2, 2)))[0, 0, 0]",
        "8",
    ),
    bi("ifft3", ifft3, 1, 1).doc(
        "ifft3(X)",
        "The inverse of `fft3`.",
        "x = reshape(0..7, [2, 2, 2])\nprint max(abs(real(ifft3(fft3(x))) - x)) < 1e-5",
        "1",
    ),
];

fn fft1(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    transform(ctx, "fft1", &args[0], 1, false)
}

fn ifft1(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    transform(ctx, "ifft1", &args[0], 1, true)
}

fn fft2(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    transform(ctx, "fft2", &args[0], 2, false)
}

fn ifft2(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    transform(ctx, "ifft2", &args[0], 2, true)
}

fn fft3(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    transform(ctx, "fft3", &args[0], 3, false)
}

fn ifft3(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    transform(ctx, "ifft3", &args[0], 3, true)
}

/// The input as dims and complex data; scalars become 1-element vectors.
fn input(name: &str, v: &Value) -> RtResult<(Vec<usize>, Vec<Complex64>)> {
    match v {
        Value::Real(_) | Value::Int(..) | Value::Complex(_) => {
            Ok((vec![1], vec![v.as_complex().unwrap_or_default()]))
        }
        Value::Array(a) => {
            let a = a.borrow();
            if a.is_cell() {
                rt_bail!("{name}: expected a numeric array, got a cell array");
            }
            Ok((a.dims.clone(), a.to_c_vec()))
        }
        other => rt_bail!(
            "{name}: expected a numeric array, got {}",
            other.kind_name()
        ),
    }
}

/// Which axes an `ndim`-dimensional transform touches in an array of `rank`.
/// `fft1` uses the last axis; `fft2`/`fft3` the first two/three (all of them when the
/// rank is smaller, as if leading singleton dimensions were present).
fn axes(rank: usize, ndim: usize) -> Vec<usize> {
    if ndim == 1 {
        vec![rank - 1]
    } else {
        (0..ndim.min(rank)).collect()
    }
}

fn transform(ctx: &mut Ctx, name: &str, v: &Value, ndim: usize, inverse: bool) -> RtResult<Value> {
    let (dims, mut data) = input(name, v)?;
    if dims.is_empty() || data.len() != dims.iter().product::<usize>() {
        rt_bail!("{name}: malformed array");
    }
    let mut planner = FftPlanner::<f64>::new();
    for ax in axes(dims.len(), ndim) {
        fft_axis(&mut planner, &mut data, &dims, ax, inverse);
    }
    let out = Array::from_complex(dims, data, ctx.prec);
    debug_assert_eq!(out.elem(), ElemType::complex(ctx.prec));
    Ok(Value::array(out))
}

/// Transforms every fibre of `data` (row-major with `dims`) along `axis` in place.
fn fft_axis(
    planner: &mut FftPlanner<f64>,
    data: &mut [Complex64],
    dims: &[usize],
    axis: usize,
    inverse: bool,
) {
    let n = dims[axis];
    if n <= 1 || data.is_empty() {
        return;
    }
    let stride: usize = dims[axis + 1..].iter().product();
    let outer: usize = dims[..axis].iter().product();
    let dir = if inverse {
        FftDirection::Inverse
    } else {
        FftDirection::Forward
    };
    let fft = planner.plan_fft(n, dir);
    let mut scratch = vec![Complex64::default(); fft.get_inplace_scratch_len()];
    let scale = if inverse { 1.0 / n as f64 } else { 1.0 };
    let mut line = vec![Complex64::default(); n];
    for o in 0..outer {
        let base = o * n * stride;
        for s in 0..stride {
            if stride == 1 {
                let fibre = &mut data[base..base + n];
                fft.process_with_scratch(fibre, &mut scratch);
                if inverse {
                    fibre.iter_mut().for_each(|z| *z *= scale);
                }
                continue;
            }
            for (k, z) in line.iter_mut().enumerate() {
                *z = data[base + k * stride + s];
            }
            fft.process_with_scratch(&mut line, &mut scratch);
            for (k, z) in line.iter().enumerate() {
                data[base + k * stride + s] = *z * scale;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{array as arr, ctx};
    use crate::Prec;

    fn close(a: &[Complex64], b: &[Complex64], tol: f64) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).norm() <= tol)
    }

    #[test]
    fn fft1_of_known_vector() {
        let mut c = ctx(Prec::Single);
        let x = Value::array(Array::from_reals(
            vec![4],
            vec![1.0, 2.0, 3.0, 4.0],
            Prec::Single,
        ));
        let y = arr(&fft1(&mut c, &[x]).unwrap());
        assert_eq!(y.elem(), ElemType::C32);
        assert_eq!(y.dims, vec![4]);
        let want = [(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0), (-2.0, -2.0)];
        let want: Vec<_> = want.iter().map(|&(r, i)| Complex64::new(r, i)).collect();
        assert!(close(&y.to_c_vec(), &want, 1e-5));
    }

    #[test]
    fn fft1_on_rows_and_ints_and_scalars() {
        let mut c = ctx(Prec::Double);
        let x = Value::array(Array::from_ints(vec![2, 2], vec![1, 2, 3, 5]));
        let y = arr(&fft1(&mut c, &[x]).unwrap());
        assert_eq!(y.elem(), ElemType::C64);
        let want: Vec<_> = [3.0, -1.0, 8.0, -2.0]
            .iter()
            .map(|&r| Complex64::new(r, 0.0))
            .collect();
        assert!(close(&y.to_c_vec(), &want, 1e-12));
        let s = arr(&fft1(&mut c, &[Value::Real(7.0)]).unwrap());
        assert_eq!(s.dims, vec![1]);
        assert!(fft1(&mut c, &[Value::str("abc")]).is_err());
        let cell = Value::array(Array::cell(vec![1], vec![Value::Real(1.0)]));
        assert!(fft2(&mut c, &[cell]).is_err());
    }

    #[test]
    fn fft2_round_trip_on_cube() {
        let mut c = ctx(Prec::Double);
        let data: Vec<f64> = (0..3 * 5 * 2)
            .map(|i| ((i * 7) % 11) as f64 - 3.0)
            .collect();
        let x = Value::array(Array::from_reals(vec![3, 5, 2], data.clone(), Prec::Double));
        let f = fft2(&mut c, &[x]).unwrap();
        // The DC term of channel 0 is the sum of that channel.
        let fa = arr(&f);
        let sum0: f64 = data.iter().step_by(2).sum();
        assert!((fa.get_c(0) - Complex64::new(sum0, 0.0)).norm() < 1e-9);
        let back = arr(&ifft2(&mut c, &[f]).unwrap());
        assert_eq!(back.dims, vec![3, 5, 2]);
        let want: Vec<_> = data.iter().map(|&r| Complex64::new(r, 0.0)).collect();
        assert!(close(&back.to_c_vec(), &want, 1e-9));
    }

    #[test]
    fn fft3_round_trip_and_dc() {
        let mut c = ctx(Prec::Single);
        let data: Vec<f64> = (0..2 * 3 * 4).map(|i| (i % 5) as f64).collect();
        let x = Value::array(Array::from_reals(vec![2, 3, 4], data.clone(), Prec::Single));
        let f = fft3(&mut c, &[x]).unwrap();
        let total: f64 = data.iter().sum();
        assert!((arr(&f).get_c(0).re - total).abs() < 1e-4);
        let back = arr(&ifft3(&mut c, &[f]).unwrap());
        let want: Vec<_> = data.iter().map(|&r| Complex64::new(r, 0.0)).collect();
        assert!(close(&back.to_c_vec(), &want, 1e-4));
        let e = Value::array(Array::zeros(vec![0], ElemType::F32));
        assert_eq!(arr(&ifft1(&mut c, &[e]).unwrap()).dims, vec![0]);
    }
}
