//! The entry point of a kernel without barriers: chunks of threads walked row by row,
//! each row as a counted loop, with a fast copy of the body for the threads of a row
//! whose accesses are all in range.
//!
//! A row is a run of consecutive threads that differ only in the last `pos` component;
//! when the last extent is small (`Gen::flat`, e.g. the 3 channels of an image), a row
//! covers the last two components as one flattened index `bz_f`, so that the row is
//! long and contiguous in memory. Before each row the kernel's range facts
//! (`blazar_kir::affine`, printed by `range`) give the run of its threads where the
//! fast copy runs (`rowsplit`; the others run the checked copy): there, proven
//! accesses index without checks, and in flattened rows an access
//! whose last two indices are `pos` plus row-invariant terms is addressed from `bz_f`
//! directly, which the C++ compiler sees as contiguous.

use super::Gen;
use crate::spell;
use blazar_kir::affine::Aff;
use blazar_kir::Ty;
use std::fmt::Write;

impl Gen<'_> {
    /// Whether a proven access into `@a` is addressed from `bz_f`: its last index is
    /// the row's `pos` component plus row-invariant terms (flattened rows: its last two
    /// indices are the last two components plus row-invariant terms).
    pub(crate) fn row_access(&self, a: u32, forms: &[Aff]) -> bool {
        let Some(Ty::Array(t)) = self.k.arrays.get(a as usize).map(|d| d.ty) else {
            return false;
        };
        let r = self.k.rank.clamp(1, 4) as usize;
        let n = forms.len();
        if n == 0 || t.rank as usize != n {
            return false;
        }
        match self.flat {
            Some(_) => {
                n >= 2
                    && r >= 2
                    && forms[n - 2].coef[r - 2] == 1
                    && forms[n - 2].coef[r - 1] == 0
                    && forms[n - 1].coef[r - 1] == 1
                    && forms[n - 1].coef[r - 2] == 0
            }
            None => forms[n - 1].coef[r - 1] == 1,
        }
    }

    /// The row-invariant part of an index: `rest` plus the components outside the row.
    pub(crate) fn row_inv(&self, f: &Aff) -> String {
        let r = self.k.rank.clamp(1, 4) as usize;
        let first_row = if self.flat.is_some() { r - 2 } else { r - 1 };
        let mut s = self.form(&f.rest);
        for c in 0..first_row {
            if f.coef[c] != 0 {
                let _ = write!(s, " + {}ll * (i64)bz_pos{c}", f.coef[c]);
            }
        }
        format!("({s})")
    }

    /// Declarations at the start of each thread of a row.
    pub(super) fn thread_decls(&self) -> String {
        let k = self.k;
        let mut s = self.special_decls();
        for (i, v) in k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            let init = self.var_init(i);
            let _ = writeln!(s, "        {} {name} = {init};", spell::ty(v.ty));
        }
        for (a, slot) in self.plan.slots.iter().enumerate() {
            if *slot == crate::cpp::support::SlotKind::Local {
                let name = self.arr_name(a as u32);
                let Ty::Array(t) = k.arrays[a].ty else {
                    continue;
                };
                let dims: Vec<String> = (0..t.rank).map(|d| format!("{name}_d{d} = 0")).collect();
                let _ = writeln!(s, "        i64 {}; u64 {name}_bytes = 0;", dims.join(", "));
            }
        }
        s
    }

    /// One loop over the threads of the current row running `body`.
    fn row_loop(&self, body: &str, next: &str, start: &str, end: &str) -> String {
        let r = self.k.rank.clamp(1, 4) as usize;
        let last = r - 1;
        let mut s = String::new();
        match self.flat {
            Some(k) => {
                let _ = writeln!(s, "      for (i64 bz_f = {start}; bz_f < {end}; bz_f++) {{");
                let _ = writeln!(
                    s,
                    "        const i32 bz_pos{} = (i32)(bz_f / {k}), bz_pos{last} = (i32)(bz_f % {k}); const i64 bz_fr = bz_f / {k}; (void)bz_fr;",
                    last - 1
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "      for (i32 bz_pos{last} = (i32){start}; bz_pos{last} < (i32){end}; bz_pos{last}++) {{"
                );
                let _ = writeln!(s, "        const i64 bz_f = bz_pos{last};");
            }
        }
        s.push_str(&self.thread_decls());
        s.push_str(body);
        let _ = writeln!(s, "        {next}:;\n      }}");
        s
    }

    /// The entry point: work items of consecutive threads, walked row by row.
    pub(super) fn assemble(&self, slow: &str, fast: Option<&str>) -> String {
        let k = self.k;
        let r = k.rank.clamp(1, 4) as usize;
        let mut s = self.header();
        // Row components: the last one, or the last two flattened.
        let first_row = if self.flat.is_some() { r - 2 } else { r - 1 };
        if let Some((_, noalias)) = &self.strip {
            let _ = writeln!(s, "  const bool bz_noalias = {noalias};");
        }
        if let Some(kf) = self.flat {
            let _ = writeln!(
                s,
                "  if (bz_kd{} != {kf}) {{ bz_e.code = 99; goto bz_abort; }}",
                r - 1
            );
        }
        s.push_str("  for (; bz_item < bz_hi; bz_item++) {\n");
        s.push_str("    if (__atomic_load_n(bz_c->stop, __ATOMIC_RELAXED) < bz_item) break;\n");
        s.push_str("    u64 bz_live = 0; (void)bz_live;\n");
        for (i, o) in k.outputs.iter().enumerate() {
            let t = spell::scalar(o.ty);
            let op = spell::op_code(crate::names::partial_op(o.op));
            let _ = writeln!(s, "    {t} bz_acc{i} = bz_identity<{op}, {t}>();");
        }
        s.push_str(&self.lane_accumulators(false));
        s.push_str("    const i64 bz_t0 = bz_item * bz_c->chunk;\n");
        s.push_str("    const i64 bz_t1 = bz_t0 + bz_c->chunk < bz_c->total ? bz_t0 + bz_c->chunk : bz_c->total;\n");
        // The position of the chunk's first thread, then a carry per row (no division
        // per row: rows may be short).
        s.push_str("    i64 bz_rest = bz_t0;\n");
        for c in (0..r).rev() {
            let _ = writeln!(
                s,
                "    i64 bz_o{c} = bz_rest % bz_kd{c}; bz_rest /= bz_kd{c};"
            );
        }
        s.push_str("    for (i64 bz_t = bz_t0; bz_t < bz_t1;) {\n");
        match self.flat {
            Some(kf) => {
                let c = r - 2;
                let _ = writeln!(s, "      const i64 bz_x0 = bz_o{c} * {kf} + bz_o{};", c + 1);
                let _ = writeln!(s, "      const i64 bz_len = bz_kd{c} * {kf};");
            }
            None => {
                let _ = writeln!(s, "      const i64 bz_x0 = bz_o{};", r - 1);
                let _ = writeln!(s, "      const i64 bz_len = bz_kd{};", r - 1);
            }
        }
        for c in 0..first_row {
            let _ = writeln!(s, "      const i32 bz_pos{c} = (i32)bz_o{c};");
        }
        s.push_str("      const i64 bz_x1 = bz_x0 + (bz_t1 - bz_t) < bz_len ? bz_x0 + (bz_t1 - bz_t) : bz_len;\n");
        match fast {
            Some(fast) => {
                // Checked threads before and after the row's fast run (`rowsplit`).
                s.push_str(&self.split_range());
                s.push_str("      for (int bz_seg = 0; bz_seg < 3; bz_seg++) {\n");
                s.push_str(
                    "      const i64 bz_sa = bz_seg == 0 ? bz_x0 : bz_seg == 1 ? bz_fa : bz_fb;\n",
                );
                s.push_str(
                    "      const i64 bz_sb = bz_seg == 0 ? bz_fa : bz_seg == 1 ? bz_fb : bz_x1;\n",
                );
                s.push_str("      if (bz_sa >= bz_sb) continue;\n");
                s.push_str("      if (bz_seg == 1) {\n");
                s.push_str("      i64 bz_sp = bz_sa;\n");
                if let Some((code, _)) = &self.strip {
                    let _ = writeln!(
                        s,
                        "      if (bz_noalias) for (; bz_sp + {0} <= bz_sb; bz_sp += {0}) {{\n{code}      }}",
                        super::strips::LANES
                    );
                }
                match (self.flat, &self.strip) {
                    (Some(kf), None) => s.push_str(&self.group_loop(fast, kf)),
                    _ => s.push_str(&self.row_loop(fast, "bz_nextf", "bz_sp", "bz_sb")),
                }
                s.push_str("      } else {\n");
                s.push_str(&self.row_loop(slow, "bz_next", "bz_sa", "bz_sb"));
                s.push_str("      }\n      }\n");
            }
            None => s.push_str(&self.row_loop(slow, "bz_next", "bz_x0", "bz_x1")),
        }
        s.push_str("      bz_t += bz_x1 - bz_x0;\n");
        let mut carry = String::new();
        for c in 0..first_row {
            carry = if carry.is_empty() {
                format!("if (++bz_o{c} == bz_kd{c}) bz_o{c} = 0;")
            } else {
                format!("if (++bz_o{c} == bz_kd{c}) {{ bz_o{c} = 0; {carry} }}")
            };
        }
        let zero: Vec<String> = (first_row..r).map(|c| format!("bz_o{c} = 0;")).collect();
        let _ = writeln!(s, "      {} {carry}\n    }}", zero.join(" "));
        s.push_str(&self.lane_accumulators(true));
        for (i, o) in k.outputs.iter().enumerate() {
            let _ = writeln!(
                s,
                "    memcpy(bz_parts + (bz_item * {} + {i}) * {}, &bz_acc{i}, sizeof({}));",
                k.outputs.len(),
                super::PARTIAL_BYTES,
                spell::scalar(o.ty)
            );
        }
        let merge = self.private_merge();
        let _ = write!(
            s,
            "  }}\n{merge}  return 0;\nbz_abort:\n{merge}  bz_e.item = bz_item;\n  *bz_out = bz_e;\n  return bz_e.code;\n}}\n"
        );
        self.finish_fn(&mut s);
        s
    }
}
