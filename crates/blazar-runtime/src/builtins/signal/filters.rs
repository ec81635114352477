//! `fspecial imgaussfilt imrotate`: predefined kernels, Gaussian smoothing and
//! rotation of images.

use super::*;
use crate::builtins::math::bi;
use crate::builtins::{Builtin, Ctx};
use crate::value::Value;
use crate::{rt_bail, RtResult};

fn size_arg(name: &str, v: &Value) -> RtResult<(usize, usize)> {
    let bad = || {
        crate::RtError::new(format!(
            "{name}: the size must be a positive integer or two of them"
        ))
    };
    let list = crate::builtins::arrange::int_list(name, "the size", v).map_err(|_| bad())?;
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
    crate::builtins::construct::reserve(name, n.checked_mul(8))?;
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

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi("fspecial", fspecial, 1, 3).doc(
        "fspecial(type, ...)",
        "A predefined 2-D kernel, as MATLAB's: \"average\" (size, default 3), \"gaussian\" (size default 3, sigma default 0.5), \"laplacian\" (alpha default 0.2), \"sobel\", \"disk\" (radius default 5). Kernels that smooth sum to 1.",
        "print fspecial(\"sobel\")\nprint sum(fspecial(\"gaussian\", 5, 1))",
        "[ [1,2,1],\n  [0,0,0],\n  [-1,-2,-1] ]\n1",
    ),
    bi("imgaussfilt", imgaussfilt, 1, 3).doc(
        "imgaussfilt(A) · imgaussfilt(A, sigma) · imgaussfilt(A, sigma, n)",
        "Each slice of a mat or cube filtered with the normalised Gaussian of standard deviation sigma (default 0.5) and n×n taps (default `2 ceil(2 sigma) + 1`), replicated borders, as MATLAB's `imgaussfilt`.",
        "print imgaussfilt(ones(4, 4), 1)[1, 1]",
        "1",
    ),
    bi("imrotate", imrotate, 2, 4).doc(
        "imrotate(A, angle) · imrotate(A, angle, method) · imrotate(A, angle, method, bbox)",
        "Each slice of a mat or cube turned `angle` degrees counter-clockwise about its centre, method \"nearest\" (the default) or \"bilinear\", pixels from outside the image 0; bbox \"loose\" (the default: large enough for the whole turned image) or \"crop\" (A's size).",
        "print imrotate([[1, 2], [3, 4]], 90)",
        "[ [2,4],\n  [1,3] ]",
    ),
];
