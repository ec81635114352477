//! A real converted to a 32- or 64-bit integer to index a read-modify-write update
//! (`bins[int(x)] += 1`): the conversion instruction on the common path, the exact
//! conversion out of line.
//!
//! `bz_cast<i32>(x)` on a real is a chain of selects (it saturates and gives 0 for
//! NaN, as Rust's `as` does), which a vector loop needs but a scattered update cannot
//! use: an update whose index comes from data never vectorises (two lanes may hit one
//! element). There, x86's truncating conversion (`cvttss2si`, `cvttsd2si`) gives the
//! exact value for every operand in range and the type's lowest value (the "integer
//! indefinite") for NaN, for every operand out of range and for the lowest value
//! itself. `bz_icast(x, n)` takes the extent `n` that the index is checked against:
//! when the truncated value lies in `0..n` it is exact (the lowest value is negative,
//! and an extent is never negative), so one unsigned compare both accepts the
//! conversion and proves the index in range; any other value calls the exact
//! conversion out of line. The caller's own range check then repeats the compare,
//! which the C++ compiler folds on the common path (the branch of the fast path
//! already decided it): the update loop of a histogram of 8-bit pixels runs 11
//! instructions a pixel instead of 13 (a compare and a branch fewer), and 0.61 of the
//! time of the selects before that. The value is always `bz_cast`'s, so the range
//! check, the `'checked` error (which names the index) and the boundary modes see what
//! they saw before. Elsewhere, and on other targets, the index is the plain cast.

use super::Gen;
use crate::spell;
use blazar_kir::{Expr, ExprKind, Scalar, Ty};

/// The prelude's part: `bz_icast<D>(x, n)`, equal to `bz_cast<D>(x)` for `D` in
/// {`i32`, `i64`}, `x` real and `n >= 0`, and fast when the value lies in `0..n`.
pub const PRELUDE_INDEX: &str = r#"// ---- Blazar native prelude: reals converted to index a scattered update ----
#if defined(__x86_64__)
typedef float bz_v4sf __attribute__((vector_size(16)));
typedef double bz_v2df __attribute__((vector_size(16)));
template<typename D, typename S> __attribute__((noinline, cold)) static D bz_icast_slow(S x) {
  return bz_cast<D>(x);
}
template<typename D, typename S> BZ_FN D bz_icast(S x, i64 n) {
  static_assert(bz_same<D, i32>::v || bz_same<D, i64>::v, "an index type");
  D r;
  if constexpr (bz_same<S, f32>::v) {
    const bz_v4sf v = {x, 0.0f, 0.0f, 0.0f};
    if constexpr (bz_same<D, i32>::v) r = __builtin_ia32_cvttss2si(v);
    else r = __builtin_ia32_cvttss2si64(v);
  } else {
    const bz_v2df v = {x, 0.0};
    if constexpr (bz_same<D, i32>::v) r = __builtin_ia32_cvttsd2si(v);
    else r = __builtin_ia32_cvttsd2si64(v);
  }
  // In 0..n: exact (the lowest value, for NaN, out of range or itself, is negative).
  if (__builtin_expect((u64)(i64)r < (u64)n, 1)) return r;
  return bz_icast_slow<D>(x);
}
#else
template<typename D, typename S> BZ_FN D bz_icast(S x, i64 n) { return bz_cast<D>(x); }
#endif
"#;

impl Gen<'_> {
    /// The C index of `e` when it is a real converted to `int` or `int64`: the i64
    /// value of `bz_icast` (see the module's notes), fast when in `0..extent` (a C
    /// expression, never negative).
    pub(crate) fn index_cast(&mut self, e: &Expr, extent: &str) -> Option<String> {
        let ExprKind::Cast(a) = &e.kind else {
            return None;
        };
        let (Ty::Scalar(to @ (Scalar::I32 | Scalar::I64)), Ty::Scalar(Scalar::F32 | Scalar::F64)) =
            (e.ty, a.ty)
        else {
            return None;
        };
        let x = self.expr(a);
        Some(format!(
            "(i64)bz_icast<{}>({x}, (i64)({extent}))",
            spell::scalar(to)
        ))
    }
}
