//! The part of a row where the fast copy may run.
//!
//! Every proven access (`blazar_kir::affine`) indexes with `rest + Σ coef[c] · pos[c]`,
//! `rest` within `lo..=hi` at the start of the row. Along a row only one component
//! moves (the last `pos` component; in flattened rows the second-to-last, with the last
//! one anywhere in `0..k`), so each index bounds that component to an interval: the
//! threads of the row whose every access is in range (`0 <= index < extent`, and
//! `index <= 2^31 - 1` so the i32 index is exact) are one run of consecutive threads,
//! the intersection of those intervals. The row runs in three parts: the threads
//! before that run and after it on the checked copy, the run itself on the fast copy
//! (and its strips). A stencil's rows at the image's left and right edges then run
//! their interior check-free, where the whole row once fell back to the checked copy.
//!
//! Conditions that do not move along the row (an index without the moving component,
//! the conditions of the forms, the extent of a flattened access's last dimension)
//! are checked once per row; when one fails, the run is empty.

use super::Gen;
use blazar_kir::affine::Aff;
use blazar_kir::Ty;
use std::collections::BTreeSet;
use std::fmt::Write;

/// `floor(a / m)` in C for a positive constant `m`.
fn floor_div(a: &str, m: i64) -> String {
    if m == 1 {
        return format!("({a})");
    }
    format!(
        "({{ const i64 bz_q = {a}; bz_q >= 0 ? bz_q / {m}ll : -(({m}ll - 1 - bz_q) / {m}ll); }})"
    )
}

/// `ceil(a / m)` in C for a positive constant `m`.
fn ceil_div(a: &str, m: i64) -> String {
    format!("(-{})", floor_div(&format!("-({a})"), m))
}

/// What the row's proven accesses require: conditions checked once per row, and
/// bounds (inclusive) on the row variable `bz_f`.
#[derive(Default)]
pub(crate) struct Split {
    pub fixed: BTreeSet<String>,
    pub lower: BTreeSet<String>,
    pub upper: BTreeSet<String>,
}

impl Gen<'_> {
    /// The component that moves along a row, and the bounds of another component over
    /// the row (those that do not move are the row's own).
    fn still_bounds(&self, c: usize) -> (String, String) {
        let r = self.k.rank.clamp(1, 4) as usize;
        match self.flat {
            Some(k) if c == r - 1 => ("0ll".into(), format!("{}ll", k - 1)),
            _ => (format!("(i64)bz_pos{c}"), format!("(i64)bz_pos{c}")),
        }
    }

    /// Adds the requirements of one index form (extent `n`, a C expression) to `sp`.
    fn split_form(&self, f: &Aff, n: &str, sp: &mut Split) {
        let r = self.k.rank.clamp(1, 4) as usize;
        let moving = if self.flat.is_some() { r - 2 } else { r - 1 };
        // The index is `a + k * P`, `a` within `lo..=hi`, P the moving component.
        let (mut lo, mut hi) = (self.form(&f.lo), self.form(&f.hi));
        for (c, &k) in f.coef.iter().enumerate() {
            if k == 0 || c == moving {
                continue;
            }
            let (a, b) = self.still_bounds(c);
            let (l, h) = if k > 0 { (a, b) } else { (b, a) };
            lo = format!("{lo} + {k}ll * {l}");
            hi = format!("{hi} + {k}ll * {h}");
        }
        sp.fixed
            .extend(f.conds.iter().map(|c| format!("({})", self.form_cond(c))));
        let k = f.coef[moving];
        let tops = [format!("(i64)({n}) - 1"), "2147483647ll".to_string()];
        // Bounds on P, inclusive.
        let (mut plo, mut phi) = (Vec::new(), Vec::new());
        if k == 0 {
            sp.fixed.insert(format!("({lo} >= 0)"));
            sp.fixed.insert(format!("({hi} < (i64)({n}))"));
            sp.fixed.insert(format!("({hi} <= 2147483647ll)"));
            return;
        } else if k > 0 {
            // lo + k P >= 0 and hi + k P <= top.
            plo.push(ceil_div(&format!("-({lo})"), k));
            for t in &tops {
                phi.push(floor_div(&format!("{t} - ({hi})"), k));
            }
        } else {
            // lo - m P >= 0 and hi - m P <= top.
            let m = -k;
            phi.push(floor_div(&lo, m));
            for t in &tops {
                plo.push(ceil_div(&format!("({hi}) - ({t})"), m));
            }
        }
        match self.flat {
            Some(kf) => {
                let kf = kf as i64;
                sp.lower.extend(plo.iter().map(|p| format!("{p} * {kf}ll")));
                sp.upper
                    .extend(phi.iter().map(|p| format!("{p} * {kf}ll + {}ll", kf - 1)));
            }
            None => {
                sp.lower.extend(plo);
                sp.upper.extend(phi);
            }
        }
    }

    /// The requirements of every proven access of the kernel.
    pub(crate) fn split(&self) -> Split {
        let mut sp = Split::default();
        let mut keys: Vec<&usize> = self.proofs.accesses.keys().collect();
        keys.sort();
        for key in keys {
            let (a, forms) = &self.proofs.accesses[key];
            let Some(Ty::Array(t)) = self.k.arrays.get(*a as usize).map(|d| d.ty) else {
                continue;
            };
            let shape = self.shape(*a, (t.rank as usize).max(1), forms.len());
            for (f, n) in forms.iter().zip(&shape) {
                self.split_form(f, n, &mut sp);
            }
            if let (true, Some(k)) = (
                self.row_access(*a, forms) || self.channel_access(*a, forms),
                self.flat,
            ) {
                sp.fixed
                    .insert(format!("({} == {k})", shape[forms.len() - 1]));
            }
        }
        sp
    }

    /// Declares `bz_fa` and `bz_fb`, the fast run `bz_fa..bz_fb` of the row
    /// `bz_x0..bz_x1` (empty when the row has none).
    pub(crate) fn split_range(&self) -> String {
        let sp = self.split();
        let mut s = String::new();
        let _ = writeln!(s, "      i64 bz_fa = bz_x0, bz_fb = bz_x1;");
        for l in &sp.lower {
            let _ = writeln!(
                s,
                "      {{ const i64 bz_v = {l}; if (bz_v > bz_fa) bz_fa = bz_v; }}"
            );
        }
        for u in &sp.upper {
            let _ = writeln!(
                s,
                "      {{ const i64 bz_v = {u} + 1; if (bz_v < bz_fb) bz_fb = bz_v; }}"
            );
        }
        let fixed = if sp.fixed.is_empty() {
            "true".to_string()
        } else {
            sp.fixed
                .into_iter()
                .collect::<Vec<_>>()
                .join("\n          && ")
        };
        if let Some(kf) = self.flat {
            // Whole groups of the last component (`group_loop`).
            let _ = writeln!(
                s,
                "      bz_fa = (bz_fa + {}) / {kf} * {kf}; bz_fb = bz_fb / {kf} * {kf};",
                kf - 1
            );
        }
        let _ = writeln!(
            s,
            "      if (!({fixed}) || bz_fa >= bz_fb) {{ bz_fa = bz_x1; bz_fb = bz_x1; }}"
        );
        s
    }

    /// Whether a proven access into `@a` in a flattened row indexes its last dimension
    /// with the last `pos` component plus row-invariant terms (and its other
    /// dimensions without it): its last extent is then the launch's, a constant, when
    /// the row runs the fast copy (checked per row), and the compiler sees the last
    /// component's stride (`group_loop`).
    pub(crate) fn channel_access(&self, a: u32, forms: &[Aff]) -> bool {
        let Some(Ty::Array(t)) = self.k.arrays.get(a as usize).map(|d| d.ty) else {
            return false;
        };
        let r = self.k.rank.clamp(1, 4) as usize;
        let n = forms.len();
        self.flat.is_some()
            && r >= 2
            && n >= 2
            && t.rank as usize == n
            && forms[n - 1].coef[r - 1] == 1
            && forms[n - 1].coef[r - 2] == 0
            && forms[..n - 1].iter().all(|f| f.coef[r - 1] == 0)
    }

    /// The fast run of a flattened row (whole groups of the last component, `bz_sp` and
    /// `bz_sb` multiples of `kf`) as two nested loops: over the second-to-last
    /// component, and inside it over the last, whose constant trip count the C++
    /// compiler unrolls, so that accesses strided in the second-to-last component
    /// (`x[i, 2 * j, c]`) vectorise over it.
    pub(crate) fn group_loop(&self, body: &str, kf: u32) -> String {
        let r = self.k.rank.clamp(1, 4) as usize;
        let (last, second) = (r - 1, r - 2);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "      for (i64 bz_g = bz_sp / {kf}; bz_g < bz_sb / {kf}; bz_g++) {{"
        );
        let _ = writeln!(
            s,
            "      for (i32 bz_pos{last} = 0; bz_pos{last} < {kf}; bz_pos{last}++) {{"
        );
        let _ = writeln!(
            s,
            "        const i64 bz_f = bz_g * {kf} + bz_pos{last}; const i32 bz_pos{second} = (i32)bz_g; const i64 bz_fr = bz_g; (void)bz_fr;"
        );
        s.push_str(&self.thread_decls());
        s.push_str(body);
        let _ = writeln!(s, "        bz_nextf:;\n      }}\n      }}");
        s
    }
}
