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
//! itself; only then does `bz_icast` call the exact conversion, out of line (a
//! predicted branch and a compare instead of the selects: the update loop of a
//! histogram of 8-bit pixels in 0.61 of the time). The value is always `bz_cast`'s,
//! so the range check, the `'checked` error (which names the index) and the boundary
//! modes see what they saw before. Elsewhere, and on other targets, the index is the
//! plain cast.

use super::Gen;
use crate::spell;
use blazar_kir::{Expr, ExprKind, Scalar, Ty};

/// The prelude's part: `bz_icast<D>(x)`, equal to `bz_cast<D>(x)` for `D` in
/// {`i32`, `i64`} and `x` real.
pub const PRELUDE_INDEX: &str = r#"// ---- Blazar native prelude: reals converted to index a scattered update ----
#if defined(__x86_64__)
typedef float bz_v4sf __attribute__((vector_size(16)));
typedef double bz_v2df __attribute__((vector_size(16)));
template<typename D, typename S> __attribute__((noinline, cold)) static D bz_icast_slow(S x) {
  return bz_cast<D>(x);
}
template<typename D, typename S> BZ_FN D bz_icast(S x) {
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
  // The lowest value: NaN, out of range, or the lowest value itself.
  if (__builtin_expect(r == bz_lim<D>::lo(), 0)) return bz_icast_slow<D>(x);
  return r;
}
#else
template<typename D, typename S> BZ_FN D bz_icast(S x) { return bz_cast<D>(x); }
#endif
"#;

impl Gen<'_> {
    /// The C index of `e` when it is a real converted to `int` or `int64`: the i64
    /// value of `bz_icast` (see the module's notes).
    pub(crate) fn index_cast(&mut self, e: &Expr) -> Option<String> {
        let ExprKind::Cast(a) = &e.kind else {
            return None;
        };
        let (Ty::Scalar(to @ (Scalar::I32 | Scalar::I64)), Ty::Scalar(Scalar::F32 | Scalar::F64)) =
            (e.ty, a.ty)
        else {
            return None;
        };
        let x = self.expr(a);
        Some(format!("(i64)bz_icast<{}>({x})", spell::scalar(to)))
    }
}
