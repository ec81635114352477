//! Indices of proven accesses in flattened rows, as i64 affine forms.
//!
//! In a flattened row (`rows`) an access like `x[i, 2 * j + d, c]` (a channel access,
//! `rowsplit::channel_access`: the last index is the last `pos` component, the others
//! do not hold it) is neither contiguous in the row nor addressed from `bz_f`. Printed
//! as the body's i32 arithmetic (`(i64)(2 * bz_pos1 + 1)`), under `-fwrapv` its value
//! may wrap as far as the C++ compiler knows, so GCC finds no step for the address and
//! leaves the row's loop scalar. Where the access is proven in range, each index equals
//! its affine form `rest + Σ coef · pos` (`blazar_kir::affine`), and printing that in
//! i64 from `bz_fr` (the row's second-to-last component as an i64, declared by every
//! loop that runs the fast copy of a flattened row) gives the compiler a strided
//! access: the horizontal pass of a Haar transform (`benches/cpu/haar`) then
//! vectorises as the C reference does.
//!
//! `BLAZAR_FLAT_I32_INDEX=1` prints the i32 indices as before (for comparisons).

use super::Gen;
use blazar_kir::affine::Aff;
use std::fmt::Write;

/// Whether the i64 forms are switched off (`BLAZAR_FLAT_I32_INDEX=1`).
fn switched_off() -> bool {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OFF.get_or_init(|| std::env::var_os("BLAZAR_FLAT_I32_INDEX").is_some_and(|v| v == "1"))
}

impl Gen<'_> {
    /// The i64 value of the proven index `f` in a flattened row (`None`: not one, or
    /// switched off).
    pub(crate) fn flat_index(&self, f: &Aff) -> Option<String> {
        if self.flat.is_none() || switched_off() {
            return None;
        }
        let r = self.k.rank.clamp(1, 4) as usize;
        if r < 2 {
            return None;
        }
        let mut s = self.row_inv(f);
        for c in r - 2..r {
            let k = f.coef[c];
            if k == 0 {
                continue;
            }
            let p = if c == r - 2 {
                "bz_fr".to_string()
            } else {
                format!("(i64)bz_pos{c}")
            };
            let _ = write!(s, " + {k}ll * {p}");
        }
        Some(format!("({s})"))
    }
}
