//! `abs(z) <= c` on a single-precision complex `z` without the square root.
//!
//! The host computes `|z|` of a `c32` as the executor does: both parts squared and
//! summed exactly in f64, the square root taken in f64 and rounded once to f32
//! (`bz_cabs`). For a constant `c`, `(f32)sqrt(s) <= c` holds exactly for the sums
//! `s` up to a threshold `T(c)` (square root and rounding are monotonic), so the
//! comparison becomes `s <= T(c)` on the same f64 sum: the same answer for every `z`,
//! NaN and infinite parts included (they give a NaN or infinite sum, and `|z|` is then
//! NaN or infinite), with the square root (tens of cycles) gone from escape tests such
//! as `while abs(z) <= 2`. `T(c)` is found by bisection over the ordered bit patterns
//! of the non-negative doubles. Only `<=` and `<` (either side) have this form: with a
//! NaN part and an infinite one, `|z|` is infinite while the sum is NaN, so `>` would
//! differ.

use blazar_kir::{BinOp, Const, Expr, ExprKind, MathFn, Scalar, Ty};

/// The largest non-negative finite double `s` for which `holds(s)`, when `holds` is
/// true at 0 and, as `s` grows, true and then false (and false at infinity).
fn largest(holds: impl Fn(f64) -> bool) -> Option<f64> {
    if !holds(0.0) {
        return None;
    }
    let (mut lo, mut hi) = (0u64, f64::INFINITY.to_bits());
    if holds(f64::INFINITY) {
        return None;
    }
    // Invariant: holds(lo), !holds(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if holds(f64::from_bits(mid)) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(f64::from_bits(lo))
}

/// The threshold `T` with `(f32)sqrt(s) <= c` (or `< c` when `strict`) exactly when
/// `s <= T`, for a finite `c`.
pub(crate) fn threshold(c: f32, strict: bool) -> Option<f64> {
    if !c.is_finite() {
        return None;
    }
    largest(|s| {
        let r = s.sqrt() as f32;
        if strict {
            r < c
        } else {
            r <= c
        }
    })
}

/// The single-precision constant of `e`, if it is one.
fn f32_const(e: &Expr) -> Option<f32> {
    match (&e.kind, e.ty) {
        (ExprKind::Const(Const::Float(v)), Ty::Scalar(Scalar::F32)) => Some(*v as f32),
        _ => None,
    }
}

/// The `c32` operand of `abs(z)`.
fn abs_c32(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Math(MathFn::Abs, args) if args.len() == 1 => {
            let z = &args[0];
            (z.ty == Ty::Scalar(Scalar::C32)).then_some(z)
        }
        _ => None,
    }
}

/// For `abs(z) <= c`, `abs(z) < c`, `c >= abs(z)` and `c > abs(z)` with `z: c32` and a
/// constant `c`: `z` and the threshold on its f64 squared norm.
pub(crate) fn abs_compare(e: &Expr) -> Option<(&Expr, f64)> {
    let ExprKind::Binary(op, a, b) = &e.kind else {
        return None;
    };
    let (z, c, strict) = match op {
        BinOp::Le => (abs_c32(a)?, f32_const(b)?, false),
        BinOp::Lt => (abs_c32(a)?, f32_const(b)?, true),
        BinOp::Ge => (abs_c32(b)?, f32_const(a)?, false),
        BinOp::Gt => (abs_c32(b)?, f32_const(a)?, true),
        _ => return None,
    };
    Some((z, threshold(c, strict)?))
}

/// The C++ text of the comparison, given the C expression of `z` (`t` is finite: the
/// square root of an infinite sum is above every finite `c`).
pub(crate) fn print(z: &str, t: f64) -> String {
    format!(
        "[&](c32 bz_z) {{ const f64 bz_re = bz_z.re, bz_im = bz_z.im; return bz_re * bz_re + bz_im * bz_im <= {t:?}; }}({z})"
    )
}

#[cfg(test)]
mod tests {
    use super::threshold;

    /// `(f32)sqrt(s)` for the sum `s`, as the prelude's `bz_cabs` rounds it.
    fn abs_of(s: f64) -> f32 {
        s.sqrt() as f32
    }

    #[test]
    fn the_threshold_separates_exactly() {
        for c in [2.0f32, 1.0, 0.5, 3.0, 1e-20, 1e20, 4.5, 0.0, f32::MAX] {
            for strict in [false, true] {
                let Some(t) = threshold(c, strict) else {
                    assert!(strict && c == 0.0, "no threshold for {c} {strict}");
                    continue;
                };
                let cmp = |s: f64| {
                    if strict {
                        abs_of(s) < c
                    } else {
                        abs_of(s) <= c
                    }
                };
                assert!(cmp(t), "{c} {strict}: T itself");
                let next = f64::from_bits(t.to_bits() + 1);
                assert!(!cmp(next), "{c} {strict}: the double after T");
            }
        }
        // 2 = sqrt(4); 2 + 2^-23 (half an f32 ulp above 2) still rounds to 2.
        let t = threshold(2.0, false).unwrap();
        assert!(t > 4.0 && t < 4.0 + 2f64.powi(-20));
        assert!(threshold(f32::NAN, false).is_none());
        assert!(threshold(f32::INFINITY, false).is_none());
    }

    #[test]
    fn sums_of_squares_agree_with_the_rounded_norm() {
        // Parts whose f64 sums sit around the threshold: the comparison on the sum
        // gives the answer of the rounded norm.
        let t = threshold(2.0, false).unwrap();
        let mut seen = (0, 0);
        for k in 0..20000u32 {
            let re = 1.0f32 + (k as f32) * 1e-4;
            let im2 = 4.0 - (re as f64) * (re as f64);
            if im2 < 0.0 {
                break;
            }
            for d in -3i32..=3 {
                let im = f32::from_bits((im2.sqrt() as f32).to_bits().wrapping_add(d as u32));
                let s = (re as f64) * (re as f64) + (im as f64) * (im as f64);
                let exact = abs_of(s) <= 2.0;
                assert_eq!(s <= t, exact, "re {re} im {im}");
                if exact {
                    seen.0 += 1
                } else {
                    seen.1 += 1
                }
            }
        }
        assert!(seen.0 > 100 && seen.1 > 100, "{seen:?}");
    }
}
