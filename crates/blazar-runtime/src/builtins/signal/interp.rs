//! `interp1 interp2 polyfit polyval`: interpolation on grids and polynomial fits.

use super::*;
use crate::builtins::math::bi;
use crate::builtins::{Builtin, Ctx};
use crate::value::Prec;
use crate::value::Value;
use crate::{rt_bail, RtResult};

#[derive(Clone, Copy, PartialEq)]
enum Method {
    Linear,
    Nearest,
}

fn method_arg(name: &str, v: Option<&Value>) -> RtResult<Method> {
    match v {
        None => Ok(Method::Linear),
        Some(v) => match text_arg(name, "the method", v)? {
            "linear" => Ok(Method::Linear),
            "nearest" => Ok(Method::Nearest),
            other => {
                rt_bail!("{name}: unknown method \"{other}\" (expected \"linear\" or \"nearest\")")
            }
        },
    }
}

/// Where `q` falls among the ascending `xs`: the cell index and the fraction within it,
/// or `None` outside `[xs[0], xs[last]]` (or for NaN).
fn locate(xs: &[f64], q: f64) -> Option<(usize, f64)> {
    let n = xs.len();
    if q.is_nan() || q < xs[0] || q > xs[n - 1] {
        return None;
    }
    if n == 1 {
        return Some((0, 0.0));
    }
    let k = xs.partition_point(|&x| x <= q).clamp(1, n - 1) - 1;
    Some((k, (q - xs[k]) / (xs[k + 1] - xs[k])))
}

/// Interpolates along one axis at a located point: linear, or the nearer sample (ties
/// to the higher one, as MATLAB).
fn weights(m: Method, k: usize, t: f64, n: usize) -> [(usize, f64); 2] {
    if n == 1 {
        return [(0, 1.0), (0, 0.0)];
    }
    match m {
        Method::Linear => [(k, 1.0 - t), (k + 1, t)],
        Method::Nearest => [(if t >= 0.5 { k + 1 } else { k }, 1.0), (k, 0.0)],
    }
}

/// `interp1(x, v, xq)`, `interp1(x, v, xq, method)`: the values v sampled at the
/// strictly increasing x, interpolated at xq (`"linear"` or `"nearest"`); NaN outside
/// [x[0], x[end]], as MATLAB. `interp1(v, xq)`: the samples at 0, 1, 2, ...
fn interp1(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = "interp1";
    let (x, v, q, m) = match args {
        [v, q] => {
            let (_, vv) = reals(name, "the values", v, ctx.prec)?;
            ((0..vv.len()).map(|i| i as f64).collect(), vv, q, None)
        }
        [v, q, s @ Value::Str(_)] => {
            let (_, vv) = reals(name, "the values", v, ctx.prec)?;
            ((0..vv.len()).map(|i| i as f64).collect(), vv, q, Some(s))
        }
        [x, v, q, rest @ ..] => {
            let (_, xx) = reals(name, "the sample points", x, ctx.prec)?;
            let (_, vv) = reals(name, "the values", v, ctx.prec)?;
            (xx, vv, q, rest.first())
        }
        _ => rt_bail!("{name}: expected (x, v, xq) or (v, xq)"),
    };
    if x.len() != v.len() {
        rt_bail!(
            "{name}: the sample points and the values differ in length ({} and {})",
            x.len(),
            v.len()
        );
    }
    ascending(name, "the sample points", &x)?;
    let method = method_arg(name, m)?;
    let (qd, qs) = reals(name, "the query points", q, ctx.prec)?;
    let res = qs
        .iter()
        .map(|&p| match locate(&x, p) {
            None => f64::NAN,
            Some((k, t)) => weights(method, k, t, x.len())
                .iter()
                .map(|&(i, w)| if w == 0.0 { 0.0 } else { w * v[i] })
                .sum(),
        })
        .collect();
    match q {
        Value::Array(_) => Ok(out(ctx.prec, qd, res)),
        _ => Ok(Value::Real(ctx.prec.round(res[0]))),
    }
}

/// Grid coordinates: a vector, or a meshgrid matrix whose rows (`along_cols`) or columns
/// repeat them.
fn axis_of(name: &str, what: &str, v: &Value, along_cols: bool, prec: Prec) -> RtResult<Vec<f64>> {
    let g = grid(name, what, v, prec)?;
    if g.rows == 1 || g.cols == 1 {
        return Ok(g.data);
    }
    Ok(if along_cols {
        g.data[..g.cols].to_vec()
    } else {
        (0..g.rows).map(|i| g.data[i * g.cols]).collect()
    })
}

/// `interp2(V, Xq, Yq)`, `interp2(V, Xq, Yq, method)`: the matrix V interpolated at
/// column coordinates Xq and row coordinates Yq (0-based: V[i, j] sits at x = j,
/// y = i); `interp2(X, Y, V, Xq, Yq, method)`: V sampled at the grid of vectors (or
/// meshgrid matrices) X (columns) and Y (rows). `"linear"` (the default) or
/// `"nearest"`; NaN outside the grid, as MATLAB.
fn interp2(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = "interp2";
    let prec = ctx.prec;
    let (xs, ys, v, xq, yq, m) = match args {
        [v, xq, yq, rest @ ..]
            if rest.len() <= 1 && (rest.is_empty() || matches!(rest[0], Value::Str(_))) =>
        {
            let g = grid(name, "the values", v, prec)?;
            let xs = (0..g.cols).map(|j| j as f64).collect();
            let ys = (0..g.rows).map(|i| i as f64).collect();
            (xs, ys, g, xq, yq, rest.first())
        }
        [x, y, v, xq, yq, rest @ ..] if rest.len() <= 1 => {
            let g = grid(name, "the values", v, prec)?;
            let xs = axis_of(name, "X", x, true, prec)?;
            let ys = axis_of(name, "Y", y, false, prec)?;
            if xs.len() != g.cols || ys.len() != g.rows {
                rt_bail!(
                    "{name}: the grid has {} columns and {} rows but V is of size [{},{}]",
                    xs.len(),
                    ys.len(),
                    g.rows,
                    g.cols
                );
            }
            (xs, ys, g, xq, yq, rest.first())
        }
        _ => rt_bail!("{name}: expected (V, Xq, Yq[, method]) or (X, Y, V, Xq, Yq[, method])"),
    };
    ascending(name, "the column coordinates", &xs)?;
    ascending(name, "the row coordinates", &ys)?;
    let method = method_arg(name, m)?;
    let (qd, qx) = reals(name, "Xq", xq, prec)?;
    let (qd2, qy) = reals(name, "Yq", yq, prec)?;
    if qx.len() != qy.len() {
        rt_bail!(
            "{name}: Xq and Yq differ in size ({} and {})",
            dims_text(&qd),
            dims_text(&qd2)
        );
    }
    let res = qx
        .iter()
        .zip(&qy)
        .map(|(&px, &py)| match (locate(&xs, px), locate(&ys, py)) {
            (Some((kx, tx)), Some((ky, ty))) => {
                let mut s = 0.0;
                for (i, wy) in weights(method, ky, ty, ys.len()) {
                    for (j, wx) in weights(method, kx, tx, xs.len()) {
                        if wx * wy != 0.0 {
                            s += wx * wy * v.data[i * v.cols + j];
                        }
                    }
                }
                s
            }
            _ => f64::NAN,
        })
        .collect();
    match xq {
        Value::Array(_) => Ok(out(prec, qd, res)),
        _ => Ok(Value::Real(prec.round(res[0]))),
    }
}

/// The least-squares solution of the m×n system `a x = b` (m ≥ n, full column rank), by
/// Householder QR.
fn least_squares(mut a: Vec<f64>, mut b: Vec<f64>, m: usize, n: usize) -> Option<Vec<f64>> {
    for k in 0..n {
        let norm = (k..m).map(|i| a[i * n + k].powi(2)).sum::<f64>().sqrt();
        if norm == 0.0 {
            return None;
        }
        let alpha = if a[k * n + k] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (k..m).map(|i| a[i * n + k]).collect();
        v[0] -= alpha;
        let vv: f64 = v.iter().map(|x| x * x).sum();
        if vv == 0.0 {
            continue;
        }
        for j in k..n {
            let d: f64 = (k..m).map(|i| v[i - k] * a[i * n + j]).sum();
            for i in k..m {
                a[i * n + j] -= 2.0 * d / vv * v[i - k];
            }
        }
        let d: f64 = (k..m).map(|i| v[i - k] * b[i]).sum();
        for i in k..m {
            b[i] -= 2.0 * d / vv * v[i - k];
        }
    }
    let top = (0..n).map(|k| a[k * n + k].abs()).fold(0.0, f64::max);
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        if a[k * n + k].abs() <= top * 1e-13 {
            return None;
        }
        let s: f64 = (k + 1..n).map(|j| a[k * n + j] * x[j]).sum();
        x[k] = (b[k] - s) / a[k * n + k];
    }
    Some(x)
}

/// `polyfit(x, y, n)`: the coefficients of the degree-n polynomial that fits y at x in
/// the least-squares sense, highest power first (as MATLAB).
fn polyfit(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (_, x) = reals("polyfit", "x", &args[0], ctx.prec)?;
    let (_, y) = reals("polyfit", "y", &args[1], ctx.prec)?;
    let n = match args[2].as_i64() {
        Some(n) if (0..=64).contains(&n) => n as usize,
        _ => rt_bail!("polyfit: the degree must be an integer from 0 to 64"),
    };
    if x.len() != y.len() {
        rt_bail!(
            "polyfit: x and y differ in length ({} and {})",
            x.len(),
            y.len()
        );
    }
    if x.len() < n + 1 {
        rt_bail!(
            "polyfit: a degree-{n} fit needs at least {} points, got {}",
            n + 1,
            x.len()
        );
    }
    let cols = n + 1;
    let mut a = Vec::with_capacity(x.len() * cols);
    for &xi in &x {
        for p in (0..cols).rev() {
            a.push(xi.powi(p as i32));
        }
    }
    match least_squares(a, y, x.len(), cols) {
        Some(c) => Ok(out(ctx.prec, vec![cols], c)),
        None => rt_bail!(
            "polyfit: the points do not determine a degree-{n} polynomial (too few distinct x)"
        ),
    }
}

/// `polyval(p, x)`: the polynomial with coefficients p (highest power first) at each
/// element of x.
fn polyval(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (_, p) = reals("polyval", "the coefficients", &args[0], ctx.prec)?;
    let (xd, x) = reals("polyval", "x", &args[1], ctx.prec)?;
    let res: Vec<f64> = x
        .iter()
        .map(|&xi| p.iter().fold(0.0, |acc, &c| acc * xi + c))
        .collect();
    match &args[1] {
        Value::Array(_) => Ok(out(ctx.prec, xd, res)),
        _ => Ok(Value::Real(ctx.prec.round(res[0]))),
    }
}

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi("interp1", interp1, 2, 4).doc(
        "interp1(x, v, xq) · interp1(x, v, xq, method) · interp1(v, xq)",
        "The values v sampled at the strictly increasing x, interpolated at xq (\"linear\", the default, or \"nearest\"); NaN outside [x[0], x[end]], as MATLAB. `interp1(v, xq)` takes the samples at 0, 1, 2, ...",
        "print interp1([0, 1, 2], [0, 10, 40], [0.5, 1.5, 3])",
        "[5,25,NaN]",
    ),
    bi("interp2", interp2, 3, 6).doc(
        "interp2(V, Xq, Yq) · interp2(V, Xq, Yq, method) · interp2(X, Y, V, Xq, Yq, method)",
        "The matrix V interpolated at column coordinates Xq and row coordinates Yq (0-based: V[i, j] sits at x = j, y = i), or sampled at the grid vectors X (columns) and Y (rows); \"linear\" (the default) or \"nearest\"; NaN outside the grid, as MATLAB.",
        "print interp2([[0, 10], [20, 30]], 0.5, 0.5)",
        "15",
    ),
    bi("polyfit", polyfit, 3, 3).doc(
        "polyfit(x, y, n)",
        "The coefficients of the degree-n polynomial that fits y at x in the least-squares sense, highest power first (as MATLAB).",
        "print round(polyfit([0, 1, 2], [1, 3, 5], 1))",
        "[2,1]",
    ),
    bi("polyval", polyval, 2, 2).doc(
        "polyval(p, x)",
        "The polynomial with coefficients p (highest power first) at each element of x.",
        "print polyval([1, 0, -1], [0, 1, 2])",
        "[-1,0,3]",
    ),
];
