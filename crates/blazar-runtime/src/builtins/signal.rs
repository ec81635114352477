//! Signal and image processing with MATLAB's names and semantics: `conv conv2 filter2
//! fspecial imgaussfilt imrotate interp1 interp2 polyfit polyval hist histc imhist logspace`.
//!
//! Host builtins over real arrays, computed in f64 and stored at the program's
//! precision. Positions (interpolation coordinates) are 0-based, as everywhere in
//! Quasar; everything else follows MATLAB.

use super::arrange::array_arg;
use super::math::bi;
use super::{Builtin, Ctx};
use crate::array::Array;
use crate::ops::real_buffer;
use crate::value::{Prec, Value};
use crate::{rt_bail, RtResult};
use std::cmp::Ordering;

/// A real 2-D view of an argument: rows, columns (a vec is 1×N, a scalar 1×1) and the
/// values in row-major order. More than two dimensions is an error.
struct Grid {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
    /// The argument was a vec (or scalar): results of the same shape are vecs too.
    is_vec: bool,
}

fn grid(name: &str, what: &str, v: &Value, prec: Prec) -> RtResult<Grid> {
    if let Value::Str(_) = v {
        rt_bail!("{name}: {what} must be a real array, got a string");
    }
    let a = array_arg(name, v, prec)?;
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("{name}: {what} must be a real array, got {}", v.kind_name());
    }
    let size = a.size();
    if size.len() > 2 {
        rt_bail!(
            "{name}: {what} must be a vector or a matrix, got an array of size {}",
            dims_text(&size)
        );
    }
    Ok(Grid {
        rows: size[0],
        cols: size[1],
        data: (0..a.len()).map(|i| a.buf.get_f64(i)).collect(),
        is_vec: a.dims.len() == 1,
    })
}

fn reals(name: &str, what: &str, v: &Value, prec: Prec) -> RtResult<(Vec<usize>, Vec<f64>)> {
    if let Value::Str(_) = v {
        rt_bail!("{name}: {what} must be real numbers, got a string");
    }
    let a = array_arg(name, v, prec)?;
    if a.is_cell() || a.elem().is_complex() {
        rt_bail!("{name}: {what} must be real numbers, got {}", v.kind_name());
    }
    Ok((
        a.dims.clone(),
        (0..a.len()).map(|i| a.buf.get_f64(i)).collect(),
    ))
}

fn dims_text(s: &[usize]) -> String {
    let parts: Vec<String> = s.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(","))
}

fn text_arg<'a>(name: &str, what: &str, v: &'a Value) -> RtResult<&'a str> {
    match v {
        Value::Str(s) => Ok(s),
        other => rt_bail!("{name}: {what} must be a string, got {}", other.kind_name()),
    }
}

fn real_arg(name: &str, what: &str, v: &Value) -> RtResult<f64> {
    match v.as_f64() {
        Some(x) if !matches!(v, Value::Complex(_)) => Ok(x),
        _ => rt_bail!(
            "{name}: {what} must be a real number, got {}",
            v.kind_name()
        ),
    }
}

fn count_arg(name: &str, what: &str, v: &Value) -> RtResult<usize> {
    match v.as_i64() {
        Some(n) if n >= 1 => Ok(n as usize),
        _ => rt_bail!("{name}: {what} must be a positive integer"),
    }
}

fn out(prec: Prec, dims: Vec<usize>, data: Vec<f64>) -> Value {
    Value::array(Array::new(dims, real_buffer(prec, data)))
}

/// A result of `rows`×`cols`: a vec when it has one row and `vec` says so.
fn out_grid(prec: Prec, rows: usize, cols: usize, data: Vec<f64>, vec: bool) -> Value {
    if vec && rows == 1 {
        out(prec, vec![cols], data)
    } else {
        out(prec, vec![rows, cols], data)
    }
}

#[derive(Clone, Copy)]
enum Shape {
    Full,
    Same,
    Valid,
}

fn shape_arg(name: &str, v: Option<&Value>) -> RtResult<Shape> {
    match v {
        None => Ok(Shape::Full),
        Some(v) => match text_arg(name, "the shape", v)? {
            "full" => Ok(Shape::Full),
            "same" => Ok(Shape::Same),
            "valid" => Ok(Shape::Valid),
            other => rt_bail!(
                "{name}: unknown shape \"{other}\" (expected \"full\", \"same\" or \"valid\")"
            ),
        },
    }
}

/// The range of the full convolution's indices (length `m + n - 1`) kept by `shape`
/// along one dimension of an input of extent `m` and a kernel of extent `n`, as
/// MATLAB: "same" starts at `floor(n / 2)`, "valid" keeps the `m - n + 1` positions
/// where the kernel lies inside the input.
fn kept(shape: Shape, m: usize, n: usize) -> (usize, usize) {
    match shape {
        Shape::Full => (0, (m + n).saturating_sub(1)),
        Shape::Same => (n / 2, m),
        Shape::Valid => (n.saturating_sub(1), (m + 1).saturating_sub(n)),
    }
}

/// The 2-D convolution of `a` with `k`, the part `shape` keeps.
fn convolve(a: &Grid, k: &Grid, shape: Shape) -> (usize, usize, Vec<f64>) {
    let (r0, rn) = kept(shape, a.rows, k.rows);
    let (c0, cn) = kept(shape, a.cols, k.cols);
    let (rn, cn) = if a.rows == 0 || a.cols == 0 || k.rows == 0 || k.cols == 0 {
        (0, 0)
    } else {
        (rn, cn)
    };
    let mut res = vec![0.0; rn * cn];
    for i in 0..rn {
        for j in 0..cn {
            let (fi, fj) = (i + r0, j + c0);
            let mut s = 0.0;
            // out[fi, fj] = sum a[p, q] k[fi - p, fj - q]
            let p_lo = fi.saturating_sub(k.rows - 1);
            let p_hi = fi.min(a.rows - 1);
            let q_lo = fj.saturating_sub(k.cols - 1);
            let q_hi = fj.min(a.cols - 1);
            for p in p_lo..=p_hi {
                for q in q_lo..=q_hi {
                    s += a.data[p * a.cols + q] * k.data[(fi - p) * k.cols + (fj - q)];
                }
            }
            res[i * cn + j] = s;
        }
    }
    (rn, cn, res)
}

/// `conv2(A, B)`, `conv2(A, B, shape)`: the 2-D convolution of two matrices, "full"
/// (the default), "same" (the size of A, centred as MATLAB) or "valid".
fn conv2(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = grid("conv2", "the first argument", &args[0], ctx.prec)?;
    let k = grid("conv2", "the second argument", &args[1], ctx.prec)?;
    let shape = shape_arg("conv2", args.get(2))?;
    let (r, c, d) = convolve(&a, &k, shape);
    Ok(out_grid(ctx.prec, r, c, d, a.is_vec && k.is_vec))
}

/// `conv(u, v)`, `conv(u, v, shape)`: the convolution of two vectors (polynomial
/// product), "full" (length m + n - 1), "same" (length of u) or "valid".
fn conv(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let as_row = |what: &str, v: &Value| -> RtResult<Grid> {
        let g = grid("conv", what, v, ctx.prec)?;
        if g.rows != 1 && g.cols != 1 {
            rt_bail!(
                "conv: {what} must be a vector, got a matrix of size [{},{}] (conv2 convolves matrices)",
                g.rows,
                g.cols
            );
        }
        Ok(Grid {
            rows: 1,
            cols: g.data.len(),
            data: g.data,
            is_vec: true,
        })
    };
    let u = as_row("the first argument", &args[0])?;
    let v = as_row("the second argument", &args[1])?;
    let shape = shape_arg("conv", args.get(2))?;
    let (_, c, d) = convolve(&u, &v, shape);
    Ok(out(ctx.prec, vec![c], d))
}

/// `filter2(h, X)`, `filter2(h, X, shape)`: the 2-D correlation of X with the kernel h
/// (h is not flipped), "same" (the default), "full" or "valid".
fn filter2(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let h = grid("filter2", "the kernel", &args[0], ctx.prec)?;
    let x = grid("filter2", "the image", &args[1], ctx.prec)?;
    let shape = match args.get(2) {
        None => Shape::Same,
        s => shape_arg("filter2", s)?,
    };
    let flipped = Grid {
        rows: h.rows,
        cols: h.cols,
        data: h.data.iter().rev().copied().collect(),
        is_vec: h.is_vec,
    };
    // As MATLAB: `conv2(X, rot90(h, 2), shape)`.
    let (r, c, d) = convolve(&x, &flipped, shape);
    Ok(out_grid(ctx.prec, r, c, d, x.is_vec))
}

fn size_arg(name: &str, v: &Value) -> RtResult<(usize, usize)> {
    let bad = || {
        crate::RtError::new(format!(
            "{name}: the size must be a positive integer or two of them"
        ))
    };
    let list = super::arrange::int_list(name, "the size", v).map_err(|_| bad())?;
    match list.as_slice() {
        [n] if *n >= 1 => Ok((*n as usize, *n as usize)),
        [m, n] if *m >= 1 && *n >= 1 => Ok((*m as usize, *n as usize)),
        _ => Err(bad()),
    }
}

/// The area of the part of the unit square [x0, x0 + 1] × [y0, y0 + 1] inside the disk
/// of radius r centred at the origin.
fn disk_area(x0: f64, y0: f64, r: f64) -> f64 {
    // ∫ over x of the length of [y0, y0 + 1] ∩ [-h(x), h(x)], h(x) = sqrt(r² - x²),
    // by composite Simpson on pieces split where the integrand has kinks.
    let h = |x: f64| (r * r - x * x).max(0.0).sqrt();
    let f = |x: f64| {
        let hx = h(x);
        ((y0 + 1.0).min(hx) - y0.max(-hx)).max(0.0)
    };
    let mut cuts = vec![x0, x0 + 1.0];
    for c in [-r, r] {
        if c > x0 && c < x0 + 1.0 {
            cuts.push(c);
        }
    }
    for y in [y0, y0 + 1.0] {
        if y.abs() < r {
            let x = (r * r - y * y).sqrt();
            for c in [-x, x] {
                if c > x0 && c < x0 + 1.0 {
                    cuts.push(c);
                }
            }
        }
    }
    cuts.sort_by(f64::total_cmp);
    let mut area = 0.0;
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let n = 2000;
        let dx = (b - a) / n as f64;
        let mut s = f(a) + f(b);
        for i in 1..n {
            s += f(a + i as f64 * dx) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        area += s * dx / 3.0;
    }
    area
}

/// `fspecial(type, ...)`: a predefined 2-D kernel, as MATLAB's:
/// `"average"` (size, default 3), `"gaussian"` (size default 3, sigma default 0.5),
/// `"laplacian"` (alpha default 0.2), `"sobel"`, `"disk"` (radius default 5).
fn fspecial(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let kind = text_arg("fspecial", "the filter type", &args[0])?;
    let rest = &args[1..];
    let at_most = |n: usize| -> RtResult<()> {
        if rest.len() > n {
            rt_bail!(
                "fspecial: \"{kind}\" takes at most {n} parameter{}, got {}",
                if n == 1 { "" } else { "s" },
                rest.len()
            );
        }
        Ok(())
    };
    let (rows, cols, data) = match kind {
        "average" => {
            at_most(1)?;
            let (m, n) = match rest.first() {
                Some(v) => size_arg("fspecial", v)?,
                None => (3, 3),
            };
            (m, n, vec![1.0 / (m * n) as f64; m * n])
        }
        "gaussian" => {
            at_most(2)?;
            let (m, n) = match rest.first() {
                Some(v) => size_arg("fspecial", v)?,
                None => (3, 3),
            };
            let sigma = match rest.get(1) {
                Some(v) => real_arg("fspecial", "sigma", v)?,
                None => 0.5,
            };
            if sigma <= 0.0 || sigma.is_nan() {
                rt_bail!("fspecial: sigma must be positive");
            }
            let mut d = Vec::with_capacity(m * n);
            for i in 0..m {
                for j in 0..n {
                    let y = i as f64 - (m as f64 - 1.0) / 2.0;
                    let x = j as f64 - (n as f64 - 1.0) / 2.0;
                    d.push((-(x * x + y * y) / (2.0 * sigma * sigma)).exp());
                }
            }
            let top = d.iter().copied().fold(0.0, f64::max);
            for v in d.iter_mut() {
                if *v < f64::EPSILON * top {
                    *v = 0.0;
                }
            }
            let s: f64 = d.iter().sum();
            (m, n, d.into_iter().map(|v| v / s).collect())
        }
        "laplacian" => {
            at_most(1)?;
            let a = match rest.first() {
                Some(v) => real_arg("fspecial", "alpha", v)?,
                None => 0.2,
            };
            if !(0.0..=1.0).contains(&a) {
                rt_bail!("fspecial: alpha must lie in [0, 1], got {a}");
            }
            let (c, e) = (a / (a + 1.0), (1.0 - a) / (a + 1.0));
            (3, 3, vec![c, e, c, e, -4.0 / (a + 1.0), e, c, e, c])
        }
        "sobel" => {
            at_most(0)?;
            (3, 3, vec![1.0, 2.0, 1.0, 0.0, 0.0, 0.0, -1.0, -2.0, -1.0])
        }
        "disk" => {
            at_most(1)?;
            let r = match rest.first() {
                Some(v) => real_arg("fspecial", "the radius", v)?,
                None => 5.0,
            };
            if r <= 0.0 || r.is_nan() || r > 1000.0 {
                rt_bail!("fspecial: the radius must be positive (and at most 1000)");
            }
            let c = (r - 0.5).ceil().max(0.0) as usize;
            let n = 2 * c + 1;
            let mut d = Vec::with_capacity(n * n);
            for i in 0..n {
                for j in 0..n {
                    let y = i as f64 - c as f64 - 0.5;
                    let x = j as f64 - c as f64 - 0.5;
                    d.push(disk_area(x, y, r));
                }
            }
            let s: f64 = d.iter().sum();
            (n, n, d.into_iter().map(|v| v / s).collect())
        }
        other => rt_bail!(
            "fspecial: unknown filter type \"{other}\" (expected \"average\", \"gaussian\", \"laplacian\", \"sobel\" or \"disk\")"
        ),
    };
    Ok(out(ctx.prec, vec![rows, cols], data))
}

/// `imgaussfilt(A)`, `imgaussfilt(A, sigma)`, `imgaussfilt(A, sigma, n)`: each slice of a
/// mat or cube filtered with the normalised Gaussian of standard deviation sigma
/// (default 0.5) and n×n taps (default `2 ceil(2 sigma) + 1`, odd), replicated borders,
/// as MATLAB's `imgaussfilt`.
fn imgaussfilt(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (dims, data) = reals("imgaussfilt", "the image", &args[0], ctx.prec)?;
    let sigma = match args.get(1) {
        Some(v) => real_arg("imgaussfilt", "sigma", v)?,
        None => 0.5,
    };
    if sigma <= 0.0 || sigma.is_nan() || sigma > 1e4 {
        rt_bail!("imgaussfilt: sigma must be positive");
    }
    let n = match args.get(2) {
        Some(v) => {
            let n = count_arg("imgaussfilt", "the filter size", v)?;
            if n % 2 == 0 {
                rt_bail!("imgaussfilt: the filter size must be odd, got {n}");
            }
            n
        }
        None => 2 * (2.0 * sigma).ceil() as usize + 1,
    };
    let half = (n / 2) as i64;
    let mut taps: Vec<f64> = (-half..=half)
        .map(|t| (-((t * t) as f64) / (2.0 * sigma * sigma)).exp())
        .collect();
    let s: f64 = taps.iter().sum();
    taps.iter_mut().for_each(|t| *t /= s);
    let (rows, cols, chans) = match dims.as_slice() {
        [n] => (1, *n, 1),
        [m, n] => (*m, *n, 1),
        [m, n, c] => (*m, *n, *c),
        _ => rt_bail!(
            "imgaussfilt: the image must be a mat or a cube, got an array of size {}",
            dims_text(&dims)
        ),
    };
    let at = |i: usize, j: usize, c: usize| (i * cols + j) * chans + c;
    let clampi = |x: i64, n: usize| x.clamp(0, n as i64 - 1) as usize;
    let mut tmp = vec![0.0; data.len()];
    let mut res = vec![0.0; data.len()];
    for i in 0..rows {
        for j in 0..cols {
            for c in 0..chans {
                tmp[at(i, j, c)] = taps
                    .iter()
                    .enumerate()
                    .map(|(k, w)| w * data[at(i, clampi(j as i64 + k as i64 - half, cols), c)])
                    .sum();
            }
        }
    }
    for i in 0..rows {
        for j in 0..cols {
            for c in 0..chans {
                res[at(i, j, c)] = taps
                    .iter()
                    .enumerate()
                    .map(|(k, w)| w * tmp[at(clampi(i as i64 + k as i64 - half, rows), j, c)])
                    .sum();
            }
        }
    }
    Ok(out(ctx.prec, dims, res))
}

/// `imrotate(A, angle)`, `imrotate(A, angle, method)`, `imrotate(A, angle, method,
/// bbox)`: each slice of a mat or cube turned `angle` degrees counter-clockwise about its
/// centre, `"nearest"` (the default) or `"bilinear"`, pixels from outside the image 0;
/// `"loose"` (the default) makes the result large enough for the whole turned image
/// (each side the extent of the turned corners, rounded), `"crop"` keeps A's size.
fn imrotate(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let name = "imrotate";
    let (dims, data) = reals(name, "the image", &args[0], ctx.prec)?;
    let angle = real_arg(name, "the angle", &args[1])?;
    if !angle.is_finite() {
        rt_bail!("{name}: the angle must be finite");
    }
    let bilinear = match args.get(2) {
        None => false,
        Some(v) => match text_arg(name, "the method", v)? {
            "nearest" => false,
            "bilinear" => true,
            other => rt_bail!(
                "{name}: unknown method \"{other}\" (expected \"nearest\" or \"bilinear\")"
            ),
        },
    };
    let loose = match args.get(3) {
        None => true,
        Some(v) => match text_arg(name, "the bounding box", v)? {
            "loose" => true,
            "crop" => false,
            other => rt_bail!(
                "{name}: unknown bounding box \"{other}\" (expected \"loose\" or \"crop\")"
            ),
        },
    };
    let (h, w, chans) = match dims.as_slice() {
        [m, n] => (*m, *n, 1),
        [m, n, c] => (*m, *n, *c),
        _ => rt_bail!(
            "{name}: the image must be a mat or a cube, got an array of size {}",
            dims_text(&dims)
        ),
    };
    let t = angle.to_radians();
    let (c, s) = (t.cos(), t.sin());
    let (ho, wo) = if loose {
        let corners = [
            (0.0, 0.0),
            (0.0, w as f64),
            (h as f64, 0.0),
            (h as f64, w as f64),
        ];
        let rs = corners.map(|(y, x)| c * y - s * x);
        let cs = corners.map(|(y, x)| s * y + c * x);
        let ptp = |v: [f64; 4]| {
            v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                - v.iter().copied().fold(f64::INFINITY, f64::min)
        };
        ((ptp(rs) + 0.5) as usize, (ptp(cs) + 0.5) as usize)
    } else {
        (h, w)
    };
    let n = ho
        .checked_mul(wo)
        .and_then(|n| n.checked_mul(chans))
        .unwrap_or(usize::MAX);
    super::construct::reserve(name, n.checked_mul(8))?;
    let mut res = vec![0.0; n];
    let at = |i: usize, j: usize, k: usize| data[(i * w + j) * chans + k];
    for i in 0..ho {
        for j in 0..wo {
            let dr = i as f64 - (ho as f64 - 1.0) / 2.0;
            let dc = j as f64 - (wo as f64 - 1.0) / 2.0;
            let r = (h as f64 - 1.0) / 2.0 + c * dr + s * dc;
            let q = (w as f64 - 1.0) / 2.0 - s * dr + c * dc;
            for k in 0..chans {
                let v = if bilinear {
                    let (r0, q0) = (r.floor(), q.floor());
                    let (fr, fq) = (r - r0, q - q0);
                    let mut v = 0.0;
                    for (a, wa) in [(r0, 1.0 - fr), (r0 + 1.0, fr)] {
                        for (b, wb) in [(q0, 1.0 - fq), (q0 + 1.0, fq)] {
                            if a >= 0.0 && b >= 0.0 && a < h as f64 && b < w as f64 {
                                v += wa * wb * at(a as usize, b as usize, k);
                            }
                        }
                    }
                    v
                } else {
                    let (ri, qi) = ((r + 0.5).floor(), (q + 0.5).floor());
                    if ri >= 0.0 && qi >= 0.0 && ri < h as f64 && qi < w as f64 {
                        at(ri as usize, qi as usize, k)
                    } else {
                        0.0
                    }
                };
                res[(i * wo + j) * chans + k] = v;
            }
        }
    }
    let out_dims = if chans == 1 && dims.len() == 2 {
        vec![ho, wo]
    } else {
        vec![ho, wo, chans]
    };
    Ok(out(ctx.prec, out_dims, res))
}

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

fn ascending(name: &str, what: &str, xs: &[f64]) -> RtResult<()> {
    if xs.is_empty() {
        rt_bail!("{name}: {what} is empty");
    }
    if xs
        .windows(2)
        .any(|w| w[1].partial_cmp(&w[0]) != Some(Ordering::Greater))
    {
        rt_bail!("{name}: {what} must be strictly increasing");
    }
    Ok(())
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

/// Counts per bin: bin k holds `edges[k] <= x < edges[k + 1]`; with `last_closed` the
/// last bin is `x == edges[last]` (histc) instead of `x >= edges[last]`.
fn count_bins(xs: &[f64], edges: &[f64], last_closed: bool) -> Vec<f64> {
    let n = edges.len();
    let mut counts = vec![0.0; n];
    for &x in xs {
        if x.is_nan() || x < edges[0] {
            continue;
        }
        let k = edges.partition_point(|&e| e <= x) - 1;
        if k == n - 1 && last_closed && x != edges[n - 1] {
            continue;
        }
        counts[k] += 1.0;
    }
    counts
}

/// `histc(x, edges)`: how many elements of x fall in each bin `edges[k] <= x <
/// edges[k + 1]`; the last count is of the elements equal to `edges[end]`.
fn histc(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (_, x) = reals("histc", "the data", &args[0], ctx.prec)?;
    let (_, e) = reals("histc", "the edges", &args[1], ctx.prec)?;
    if e.is_empty()
        || e.windows(2)
            .any(|w| w[1].partial_cmp(&w[0]).is_none_or(Ordering::is_lt))
    {
        rt_bail!("histc: the edges must be a non-empty, non-decreasing vector");
    }
    let n = e.len();
    Ok(out(ctx.prec, vec![n], count_bins(&x, &e, true)))
}

/// `hist(y)`, `hist(y, n)`, `hist(y, centers)`: the counts of y in n (default 10)
/// equal bins spanning min(y)..max(y), or in the bins around the given centres (edges
/// halfway between them), the outer bins open-ended, as MATLAB.
fn hist(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (_, y) = reals("hist", "the data", &args[0], ctx.prec)?;
    let centers: Vec<f64> = match args.get(1) {
        Some(v @ Value::Array(_)) => {
            let (_, c) = reals("hist", "the bin centres", v, ctx.prec)?;
            ascending("hist", "the bin centres", &c)?;
            c
        }
        other => {
            let n = match other {
                Some(v) => count_arg("hist", "the number of bins", v)?,
                None => 10,
            };
            let fin = y.iter().copied().filter(|v| v.is_finite());
            let lo = fin.clone().fold(f64::INFINITY, f64::min);
            let hi = fin.fold(f64::NEG_INFINITY, f64::max);
            let (lo, hi) = if lo > hi {
                (0.0, 1.0)
            } else if lo == hi {
                (lo - 0.5, hi + 0.5)
            } else {
                (lo, hi)
            };
            let w = (hi - lo) / n as f64;
            (0..n).map(|k| lo + w * (k as f64 + 0.5)).collect()
        }
    };
    let mut edges = vec![f64::NEG_INFINITY];
    edges.extend(centers.windows(2).map(|w| (w[0] + w[1]) / 2.0));
    let n = centers.len();
    Ok(out(ctx.prec, vec![n], count_bins(&y, &edges, false)))
}

/// `imhist(I)`, `imhist(I, n)`: the histogram of the gray values of I over 0..255 in n
/// (default 256) equal bins: bin k is centred at `k * 255 / (n - 1)` and a value goes
/// to the nearest centre, values outside 0..255 to the end bins.
fn imhist(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let (_, x) = reals("imhist", "the image", &args[0], ctx.prec)?;
    let n = match args.get(1) {
        Some(v) => count_arg("imhist", "the number of bins", v)?,
        None => 256,
    };
    let mut counts = vec![0.0; n];
    let w = if n > 1 { 255.0 / (n - 1) as f64 } else { 1.0 };
    for v in x {
        if v.is_nan() {
            continue;
        }
        let k = if n == 1 {
            0
        } else {
            (v / w + 0.5).floor().clamp(0.0, (n - 1) as f64) as usize
        };
        counts[k] += 1.0;
    }
    Ok(out(ctx.prec, vec![n], counts))
}

/// `logspace(a, b)`, `logspace(a, b, n)`: n (default 50) values from 10^a to 10^b,
/// evenly spaced in the exponent.
fn logspace(ctx: &mut Ctx, args: &[Value]) -> RtResult<Value> {
    let a = real_arg("logspace", "the first exponent", &args[0])?;
    let b = real_arg("logspace", "the last exponent", &args[1])?;
    let n = match args.get(2) {
        Some(v) => match v.as_i64() {
            Some(n) if (0..=1 << 28).contains(&n) => n as usize,
            _ => rt_bail!("logspace: the count must be a non-negative integer"),
        },
        None => 50,
    };
    let data = (0..n)
        .map(|i| {
            let e = if n == 1 || i + 1 == n {
                b
            } else {
                a + (b - a) * i as f64 / (n - 1) as f64
            };
            10f64.powf(e)
        })
        .collect();
    Ok(out(ctx.prec, vec![n], data))
}

pub(super) static TABLE: &[Builtin] = &[
    bi("conv", conv, 2, 3),
    bi("conv2", conv2, 2, 3),
    bi("filter2", filter2, 2, 3),
    bi("fspecial", fspecial, 1, 3),
    bi("imgaussfilt", imgaussfilt, 1, 3),
    bi("imrotate", imrotate, 2, 4),
    bi("interp1", interp1, 2, 4),
    bi("interp2", interp2, 3, 6),
    bi("polyfit", polyfit, 3, 3),
    bi("polyval", polyval, 2, 2),
    bi("hist", hist, 1, 2),
    bi("histc", histc, 2, 2),
    bi("imhist", imhist, 1, 2),
    bi("logspace", logspace, 2, 3),
];
