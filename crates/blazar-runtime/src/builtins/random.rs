//! Random arrays: `rand` (uniform in [0, 1)) and `randn` (standard normal).
//!
//! Both take the same dims forms as `zeros`: no argument gives a scalar, `(N)` a vec,
//! `(M, N)` a mat, `(M, N, P)` a cube (more for `cube{K}`), or one dims vector such as
//! `size(x)`. Trailing singleton dimensions drop, leading ones stay (see
//! [`Array::canonical_dims`]). Numbers come from the context's seeded generator, so a
//! program is reproducible; elements are generated in row-major order.

use super::{Builtin, Ctx};
use crate::array::{Array, Buffer};
use crate::value::Prec;
use crate::{rt_bail, RtResult, Value};
use rand::Rng;
use rand_distr::StandardNormal;

use super::math::bi;

pub(super) static TABLE: &[Builtin] = &[
    bi("rand", rand, 0, usize::MAX).doc(
        "rand(n1, n2, ...) · rand()",
        "Uniform random numbers in [0, 1), with the extents given as for `zeros` (a single number without arguments). The generator has a fixed seed, so a program prints the same numbers every run.",
        "r = rand(2, 3)\nprint size(r), \" \", min(r) >= 0, \" \", max(r) < 1",
        "[2,3] 1 1",
    ),
    bi("randn", randn, 0, usize::MAX).doc(
        "randn(n1, n2, ...) · randn()",
        "Normally distributed random numbers (mean 0, standard deviation 1), extents as for `zeros`; fixed seed as `rand`.",
        "r = randn(1000)\nprint abs(mean(r)) < 0.2, \" \", abs(std(r) - 1) < 0.2",
        "1 1",
    ),
];

/// Largest number of elements a random array may have (guards against typos such as
/// `rand(1e12)` aborting the process on allocation).
const MAX_ELEMS: usize = 1 << 34;

fn rand(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    fill(ctx, "rand", args, |ctx| match ctx.prec {
        // Draw at the target precision so that rounding never yields 1.0.
        Prec::Single => ctx.rng.random::<f32>() as f64,
        Prec::Double => ctx.rng.random::<f64>(),
    })
}

fn randn(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    fill(ctx, "randn", args, |ctx| {
        let x: f64 = ctx.rng.sample(StandardNormal);
        ctx.prec.round(x)
    })
}

/// Builds a scalar (no args) or an array of the requested dims filled by `draw`.
fn fill(
    ctx: &mut Ctx,
    name: &str,
    args: &[Value],
    mut draw: impl FnMut(&mut Ctx) -> f64,
) -> RtResult<Value> {
    let Some(dims) = parse_dims(name, args)? else {
        return Ok(Value::Real(draw(ctx)));
    };
    let n = dims.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    let n = match n {
        Some(n) if n <= MAX_ELEMS => n,
        _ => rt_bail!("{name}: the array is too large ({dims:?})"),
    };
    let buf = match ctx.prec {
        Prec::Single => {
            let mut v: Vec<f32> = Vec::new();
            if v.try_reserve_exact(n).is_err() {
                rt_bail!("{name}: out of memory for {n} elements");
            }
            v.extend((0..n).map(|_| draw(ctx) as f32));
            Buffer::F32(v)
        }
        Prec::Double => {
            let mut v: Vec<f64> = Vec::new();
            if v.try_reserve_exact(n).is_err() {
                rt_bail!("{name}: out of memory for {n} elements");
            }
            v.extend((0..n).map(|_| draw(ctx)));
            Buffer::F64(v)
        }
    };
    Ok(Value::array(Array::new(dims, buf)))
}

/// One extent: a non-negative integral number.
fn extent(name: &str, v: &Value) -> RtResult<usize> {
    match v.as_f64() {
        Some(x) if x.fract() == 0.0 && (0.0..9.0e15).contains(&x) => Ok(x as usize),
        Some(x) => rt_bail!("{name}: dimensions must be non-negative integers, got {x}"),
        None => rt_bail!("{name}: expected dimensions, got {}", v.kind_name()),
    }
}

/// The canonical dims requested by `args`, or `None` for a scalar (no arguments).
fn parse_dims(name: &str, args: &[Value]) -> RtResult<Option<Vec<usize>>> {
    let raw: Vec<usize> = match args {
        [] => return Ok(None),
        [Value::Array(a)] => {
            let a = a.borrow();
            if a.is_cell() || a.elem().is_complex() {
                rt_bail!("{name}: expected a vector of dimensions");
            }
            if a.is_empty() {
                rt_bail!("{name}: the dimensions vector is empty");
            }
            (0..a.len())
                .map(|i| extent(name, &a.get_value(i)))
                .collect::<RtResult<_>>()?
        }
        _ => args
            .iter()
            .map(|v| extent(name, v))
            .collect::<RtResult<_>>()?,
    };
    Ok(Some(Array::canonical_dims(&raw)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::testing::{array as arr, ctx};
    use crate::ElemType;

    #[test]
    fn rand_shapes_and_range() {
        let mut c = ctx(Prec::Single);
        assert!(matches!(rand(&mut c, &[]).unwrap(), Value::Real(x) if (0.0..1.0).contains(&x)));
        let v = arr(&rand(&mut c, &[Value::int(5)]).unwrap());
        assert_eq!(v.dims, vec![5]);
        assert_eq!(v.elem(), ElemType::F32);
        let m = arr(&rand(&mut c, &[Value::Real(3.0), Value::int(4)]).unwrap());
        assert_eq!(m.dims, vec![3, 4]);
        let q = arr(&rand(&mut c, &[Value::int(20), Value::int(30), Value::int(3)]).unwrap());
        assert_eq!(q.dims, vec![20, 30, 3]);
        assert!(q.to_f64_vec().iter().all(|x| (0.0..1.0).contains(x)));
        let mean = q.to_f64_vec().iter().sum::<f64>() / q.len() as f64;
        assert!((mean - 0.5).abs() < 0.05, "{mean}");
        let dv = Value::array(Array::from_ints(vec![3], vec![1, 1, 4]));
        assert_eq!(arr(&rand(&mut c, &[dv]).unwrap()).dims, vec![1, 1, 4]);
        let dv = Value::array(Array::from_ints(vec![2], vec![2, 3]));
        assert_eq!(arr(&randn(&mut c, &[dv]).unwrap()).dims, vec![2, 3]);
        assert_eq!(
            arr(&rand(&mut c, &[Value::int(1), Value::int(1)]).unwrap()).dims,
            vec![1]
        );
        assert_eq!(arr(&rand(&mut c, &[Value::int(0)]).unwrap()).len(), 0);
    }

    #[test]
    fn bad_dims_are_errors() {
        let mut c = ctx(Prec::Double);
        assert!(rand(&mut c, &[Value::int(-1)]).is_err());
        assert!(rand(&mut c, &[Value::Real(2.5)]).is_err());
        assert!(randn(&mut c, &[Value::str("x")]).is_err());
        assert!(rand(&mut c, &[Value::Real(1e12), Value::Real(1e12)]).is_err());
        assert!(rand(&mut c, &[Value::Real(f64::NAN)]).is_err());
    }

    #[test]
    fn randn_is_reproducible_and_normal() {
        let mut a = ctx(Prec::Double);
        let mut b = ctx(Prec::Double);
        let x = arr(&randn(&mut a, &[Value::int(2000)]).unwrap()).to_f64_vec();
        let y = arr(&randn(&mut b, &[Value::int(2000)]).unwrap()).to_f64_vec();
        assert_eq!(x, y);
        let mean = x.iter().sum::<f64>() / x.len() as f64;
        let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / x.len() as f64;
        assert!(mean.abs() < 0.1 && (var - 1.0).abs() < 0.15, "{mean} {var}");
        let z = arr(&randn(&mut a, &[Value::int(5)]).unwrap()).to_f64_vec();
        assert_ne!(&z[..], &x[..5]);
    }
}
