//! `conv conv2 filter2`: convolution and correlation with MATLAB's shapes.

use super::*;
use crate::builtins::math::bi;
use crate::builtins::{Builtin, Ctx};
use crate::value::Value;
use crate::{rt_bail, RtResult};

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

pub(in crate::builtins) static TABLE: &[Builtin] = &[
    bi("conv", conv, 2, 3).doc(
        "conv(u, v) · conv(u, v, shape)",
        "The convolution of two vectors (the product of polynomials with these coefficients): shape \"full\" (the default, length m + n - 1), \"same\" (the length of u, centred as MATLAB) or \"valid\".",
        "print conv([1, 2, 3], [1, 1]), \" \", conv([1, 2, 3], [1, 1], \"same\")",
        "[1,3,5,3] [3,5,3]",
    ),
    bi("conv2", conv2, 2, 3).doc(
        "conv2(A, B) · conv2(A, B, shape)",
        "The 2-D convolution of two matrices: shape \"full\" (the default), \"same\" (the size of A, centred as MATLAB) or \"valid\".",
        "print conv2([[1, 2], [3, 4]], [[1, 1]])",
        "[ [1,3,2],\n  [3,7,4] ]",
    ),
    bi("filter2", filter2, 2, 3).doc(
        "filter2(h, X) · filter2(h, X, shape)",
        "The 2-D correlation of X with the kernel h (h is not flipped): shape \"same\" (the default), \"full\" or \"valid\", as MATLAB's `filter2`.",
        "print filter2([[1, 0]], [[1, 2, 3], [4, 5, 6]], \"valid\")",
        "[ [1,2],\n  [4,5] ]",
    ),
];
