//! `hist histc imhist`: histograms.

use super::*;
use crate::builtins::math::bi;
use crate::builtins::{Builtin, Ctx};
use crate::value::Value;
use crate::{rt_bail, RtResult};
use std::cmp::Ordering;

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

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi("hist", hist, 1, 2).doc(
        "hist(y) · hist(y, n) · hist(y, centers)",
        "The counts of y in n (default 10) equal bins spanning min(y)..max(y), or in the bins around the given centres (edges halfway between them), the outer bins open-ended, as MATLAB's `hist`.",
        "print hist([1, 2, 2, 3, 3, 3], 3)",
        "[1,2,3]",
    ),
    bi("histc", histc, 2, 2).doc(
        "histc(x, edges)",
        "How many elements of x fall in each bin `edges[k] <= x < edges[k + 1]`; the last count is of the elements equal to the last edge (MATLAB's `histc`).",
        "print histc([0.5, 1, 1.5, 2, 3], [0, 1, 2, 3])",
        "[1,2,1,1]",
    ),
    bi("imhist", imhist, 1, 2).doc(
        "imhist(I) · imhist(I, n)",
        "The histogram of the gray values of I over 0..255 in n (default 256) equal bins: bin k is centred at `k * 255 / (n - 1)`, a value goes to the nearest centre, values outside 0..255 to the end bins.",
        "print imhist([0, 10, 200, 255], 2)",
        "[2,2]",
    ),
];
