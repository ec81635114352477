//! Private copies of small global arrays that a kernel only adds into.
//!
//! A histogram kernel ends with `h[b] += bins[b]` from every block: on the CPU each of
//! those is an atomic read-modify-write of a cache line that every worker writes, so
//! the updates serialise between cores. When a global array is touched by the kernel
//! only through `+=` (no load, no store, no other update), each call of `bz_run` (a
//! range of work items, run by one worker) adds into a private copy instead, and adds
//! the copy into the array once at its end, atomically, whether the range finishes or
//! stops on an error. The copy starts at `-0`, the identity of float addition (`-0 + x`
//! is `x` for every `x`, so an element no thread updated is left exactly as it was).
//! The sums are the same for integers; for floats the updates are grouped per range,
//! which is within what the kernel model promises of atomic float updates from
//! different work items (their order is not defined).
//!
//! The copy is used only when it is small (at most [`MAX_PRIVATE`] elements, and no
//! more than the range has threads, so that zeroing and merging it cost less than the
//! updates it saves) and when no other array argument overlaps the array's memory (a
//! buffer passed twice would otherwise be read without the private updates).

use super::Gen;
use crate::cpp::support::SlotKind;
use crate::spell;
use blazar_kir::{visit, AtomicOp, ExprKind, Kernel, Scalar, StmtKind, Ty};
use std::fmt::Write;

/// The largest array, in elements, given a private copy per range.
pub const MAX_PRIVATE: usize = 1 << 16;

/// The array slots of `k` (global in `slots`) that the kernel only updates with `+=`.
pub(crate) fn add_only(k: &Kernel, slots: &[SlotKind]) -> Vec<bool> {
    let mut ok: Vec<bool> = (0..k.arrays.len())
        .map(|a| {
            slots.get(a) == Some(&SlotKind::Global)
                && matches!(k.arrays[a].ty, Ty::Array(t) if t.elem != Scalar::Bool)
        })
        .collect();
    let mut updated = vec![false; k.arrays.len()];
    let mut loaded = vec![false; k.arrays.len()];
    visit::walk_stmts(&k.body, &mut |s| {
        match &s.kind {
            StmtKind::Update { arr, op, .. } => {
                let a = *arr as usize;
                if a < ok.len() {
                    ok[a] &= *op == AtomicOp::Add;
                    updated[a] = true;
                }
            }
            StmtKind::Store { arr, .. } => {
                if let Some(o) = ok.get_mut(*arr as usize) {
                    *o = false;
                }
            }
            _ => {}
        }
        visit::stmt_exprs(s, &mut |e| {
            visit::walk_expr(e, &mut |x| {
                if let ExprKind::Load { arr, .. } = &x.kind {
                    if let Some(l) = loaded.get_mut(*arr as usize) {
                        *l = true;
                    }
                }
            })
        });
    });
    ok.iter()
        .zip(&updated)
        .zip(&loaded)
        .map(|((o, u), l)| *o && *u && !*l)
        .collect()
}

impl Gen<'_> {
    /// The name of the private copy of array slot `a` (null when not in use).
    pub(crate) fn private_name(&self, a: u32) -> Option<String> {
        self.private
            .get(a as usize)
            .copied()
            .unwrap_or(false)
            .then(|| format!("{}_pv", self.arr_name(a)))
    }

    /// The arrays updated through a private copy: slot, C name, element type and rank.
    fn private_arrays(&self) -> Vec<(usize, String, &'static str, u8)> {
        self.private
            .iter()
            .enumerate()
            .filter(|(_, &p)| p)
            .filter_map(|(a, _)| match self.k.arrays[a].ty {
                Ty::Array(t) => Some((a, self.arr_name(a as u32), spell::scalar(t.elem), t.rank)),
                _ => None,
            })
            .collect()
    }

    /// Declarations of the private copies, after the global arrays in the header.
    pub(crate) fn private_decls(&self) -> String {
        let mut s = String::new();
        for (a, name, ct, rank) in self.private_arrays() {
            let numel = (0..rank)
                .map(|d| format!("(u64){name}_d{d}"))
                .collect::<Vec<_>>()
                .join(" * ");
            let numel = if numel.is_empty() {
                "1ull".into()
            } else {
                numel
            };
            // Other global arrays must not overlap this one's memory.
            let mut apart = String::new();
            for (b, slot) in self.plan.slots.iter().enumerate() {
                if b == a || *slot != SlotKind::Global {
                    continue;
                }
                let Ty::Array(u) = self.k.arrays[b].ty else {
                    continue;
                };
                let _ = write!(
                    apart,
                    " && bz_apart((const char*){name}, (const char*)({name} + bz_c->arrs[{a}].len), (const char*)bz_c->arrs[{b}].data, (const char*)bz_c->arrs[{b}].data + bz_c->arrs[{b}].len * (i64)sizeof({}))",
                    spell::scalar(u.elem)
                );
            }
            let _ = writeln!(s, "  {ct}* {name}_pv = nullptr;");
            let _ = writeln!(
                s,
                "  const u64 {name}_pn = {numel};\n  if ({name}_pn <= {MAX_PRIVATE}ull && (i64){name}_pn <= (bz_hi - bz_lo) * bz_c->chunk{apart}) {{"
            );
            let _ = writeln!(
                s,
                "    {name}_pv = ({ct}*)malloc(sizeof({ct}) * ({name}_pn > 0 ? {name}_pn : 1));"
            );
            let _ = writeln!(
                s,
                "    if ({name}_pv) for (u64 bz_q = 0; bz_q < {name}_pn; bz_q++) {name}_pv[bz_q] = -{ct}{{}};\n  }}"
            );
        }
        s
    }

    /// Adds the private copies into their arrays and frees them (at every exit). The
    /// ranges of a launch are alike and end at about the same time: each starts its
    /// merge at a cache line of its own (the range's number, in lines, around the
    /// array), so that concurrent merges walk different lines instead of contending
    /// for each element of the first ones.
    pub(crate) fn private_merge(&self) -> String {
        let mut s = String::new();
        for (_, name, ct, _) in self.private_arrays() {
            let _ = writeln!(
                s,
                "  if ({name}_pv) {{ const u64 bz_q0 = {name}_pn ? (u64)(bz_lo / (bz_hi > bz_lo ? bz_hi - bz_lo : 1)) * (64 / sizeof({ct}) ? 64 / sizeof({ct}) : 1) % {name}_pn : 0; for (u64 bz_k = 0; bz_k < {name}_pn; bz_k++) {{ const u64 bz_q = bz_q0 + bz_k < {name}_pn ? bz_q0 + bz_k : bz_q0 + bz_k - {name}_pn; bz_atomic<0, {ct}>({name} + bz_q, {name}_pv[bz_q]); }} free({name}_pv); {name}_pv = nullptr; }}"
            );
        }
        s
    }
}
