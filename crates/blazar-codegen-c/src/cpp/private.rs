//! Private copies of small global arrays that a kernel only adds into.
//!
//! A histogram kernel ends with `h[b] += bins[b]` from every block: on the CPU each of
//! those is an atomic read-modify-write of a cache line that every worker writes, so
//! the updates serialise between cores. When a global array is touched by the kernel
//! only through `+=` (no load, no store, no other update), each call of `bz_run` (a
//! range of work items) adds into a private copy instead. The copies belong to the
//! launch (`bz_call::shared`): a range takes a free one, or makes one when none is
//! free, and gives it back at its end, so there are about as many copies as threads
//! running ranges at once, however many ranges the launch is cut into (sixteen a
//! thread). The range that completes the launch's count of work items, whether its
//! ranges finished or stopped on an error, adds every copy into the array, with plain
//! additions (every other range has finished), and frees them. A copy starts at `-0`,
//! the identity of float addition (`-0 + x` is `x` for every `x`, so an element no
//! thread updated is left exactly as it was). The sums are the same for integers; for
//! floats the updates are grouped per copy, which is within what the kernel model
//! promises of atomic float updates from different work items (their order is not
//! defined).
//!
//! The copies are used only when the array is small (at most [`MAX_PRIVATE`]
//! elements, and the launch has at least [`MIN_UPDATES`] threads an element, so that
//! zeroing and merging the copies cost less than the updates they save) and when no
//! other array argument overlaps its memory (a buffer passed twice would otherwise be
//! read without the private updates). A range that cannot get a copy (no memory)
//! updates the array atomically, and still counts its items.

use super::Gen;
use crate::cpp::support::SlotKind;
use crate::spell;
use blazar_kir::{visit, AtomicOp, ExprKind, Kernel, Scalar, StmtKind, Ty};
use std::fmt::Write;

/// The largest array, in elements, given private copies.
pub const MAX_PRIVATE: usize = 1 << 16;

/// A launch gives an array private copies when it has at least this many threads an
/// element: a copy a worker thread is zeroed and merged once, about as many element
/// operations as the atomic updates of so many threads.
pub const MIN_UPDATES: usize = 16;

/// The launch-wide record of the copies and its operations (see `private_helpers`).
const PRIVATE_HELPERS: &str = r#"// ---- private copies of add-only global arrays (cpp/private.rs) ----
struct bz_pvbuf { bz_pvbuf* next_free; bz_pvbuf* next_all; };
struct bz_pvrec { i64 done; int lock; bz_pvbuf* free_list; bz_pvbuf* all; };
static inline void bz_pv_lock(int* l) {
  while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(l, __ATOMIC_RELAXED)) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
}
static inline void bz_pv_unlock(int* l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }
// The launch's record, made by the first range that asks; null (for every range of the
// launch) when it could not be made.
static bz_pvrec* bz_pv_rec(const bz_call* c) {
  void** w = (void**)&((bz_call*)c)->shared;
  void* r = __atomic_load_n(w, __ATOMIC_ACQUIRE);
  if (!r) {
    void* mine = calloc(1, sizeof(bz_pvrec));
    void* want = mine ? mine : (void*)1;
    if (__atomic_compare_exchange_n(w, &r, want, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) r = want;
    else free(mine);
  }
  return r == (void*)1 ? nullptr : (bz_pvrec*)r;
}
// A free copy of `bytes` bytes, or a new one (`fresh`: the caller clears it); null
// when none could be made (the range then updates the arrays atomically).
static bz_pvbuf* bz_pv_take(bz_pvrec* r, u64 bytes, bool* fresh) {
  bz_pv_lock(&r->lock);
  bz_pvbuf* b = r->free_list;
  if (b) r->free_list = b->next_free;
  bz_pv_unlock(&r->lock);
  if (b) return b;
  b = (bz_pvbuf*)aligned_alloc(64, (sizeof(bz_pvbuf) + bytes + 63) & ~(u64)63);
  if (!b) return nullptr;
  *fresh = true;
  bz_pv_lock(&r->lock);
  b->next_all = r->all; r->all = b;
  bz_pv_unlock(&r->lock);
  return b;
}
static inline void bz_pv_give(bz_pvrec* r, bz_pvbuf* b) {
  bz_pv_lock(&r->lock);
  b->next_free = r->free_list; r->free_list = b;
  bz_pv_unlock(&r->lock);
}
// Counts `n` work items done; true for the range that completes the launch's `items`.
static inline bool bz_pv_done(bz_pvrec* r, i64 n, i64 items) {
  return __atomic_add_fetch(&r->done, n, __ATOMIC_ACQ_REL) == items;
}
"#;

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

    /// The helpers of the launch-wide copies (before the entry point; empty when no
    /// array has a copy). A launch's record (`bz_call::shared`, made by the first range
    /// that asks; `(void*)1` when it could not be made) holds the copies: a range takes
    /// a free one (or makes one), adds into it, gives it back and counts its work items
    /// done; the range that brings the count to the launch's items adds every copy into
    /// the arrays, once, and frees them. So a launch zeroes and merges about one copy a
    /// thread, whatever its number of ranges, and the merge needs no atomics (every
    /// other range of the launch has finished).
    pub(crate) fn private_helpers(&self) -> String {
        if self.private_arrays().is_empty() {
            return String::new();
        }
        PRIVATE_HELPERS.to_string()
    }

    /// Declarations of the private copies, after the global arrays in the header. The
    /// choice of arrays depends on the launch only, so every range of a launch makes
    /// the same one (the count of items done needs them all).
    pub(crate) fn private_decls(&self) -> String {
        let arrays = self.private_arrays();
        if arrays.is_empty() {
            return String::new();
        }
        let mut s = String::new();
        s.push_str(
            "  bz_pvrec* bz_pvr = nullptr; bz_pvbuf* bz_pvb = nullptr; u64 bz_pvbytes = 0;\n",
        );
        for (a, name, ct, rank) in &arrays {
            let numel = (0..*rank)
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
                if b == *a || *slot != SlotKind::Global {
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
                "  const u64 {name}_pn = {numel};\n  const bool {name}_pk = {name}_pn <= {MAX_PRIVATE}ull && (i64){name}_pn * {MIN_UPDATES} <= bz_c->items * bz_c->chunk{apart};"
            );
            // Each copy at a 64-byte boundary of the buffer.
            let _ = writeln!(
                s,
                "  const u64 {name}_po = bz_pvbytes; if ({name}_pk) bz_pvbytes += ({name}_pn * sizeof({ct}) + 63) & ~63ull;"
            );
        }
        s.push_str("  if (bz_pvbytes) bz_pvr = bz_pv_rec(bz_c);\n  if (bz_pvr) {\n    bool bz_fresh = false;\n    bz_pvb = bz_pv_take(bz_pvr, bz_pvbytes, &bz_fresh);\n    if (bz_pvb) {\n");
        for (_, name, ct, _) in &arrays {
            let _ = writeln!(
                s,
                "      if ({name}_pk) {{ {name}_pv = ({ct}*)((char*)(bz_pvb + 1) + {name}_po); if (bz_fresh) for (u64 bz_q = 0; bz_q < {name}_pn; bz_q++) {name}_pv[bz_q] = -{ct}{{}}; }}"
            );
        }
        s.push_str("    }\n  }\n");
        s
    }

    /// At every exit of the range: gives its copy back and counts its items done; the
    /// last range of the launch adds every copy into the arrays and frees them.
    pub(crate) fn private_merge(&self) -> String {
        let arrays = self.private_arrays();
        if arrays.is_empty() {
            return String::new();
        }
        let mut s = String::from(
            "  if (bz_pvr) {\n    if (bz_pvb) bz_pv_give(bz_pvr, bz_pvb);\n    if (bz_pv_done(bz_pvr, bz_hi - bz_lo, bz_c->items)) {\n      for (bz_pvbuf* bz_pb = bz_pvr->all; bz_pb; ) {\n",
        );
        for (_, name, ct, _) in &arrays {
            let _ = writeln!(
                s,
                "        if ({name}_pk) {{ const {ct}* bz_pp = (const {ct}*)((const char*)(bz_pb + 1) + {name}_po); for (u64 bz_q = 0; bz_q < {name}_pn; bz_q++) {name}[bz_q] = bz_combine<0, {ct}>({name}[bz_q], bz_pp[bz_q]); }}"
            );
        }
        s.push_str("        bz_pvbuf* bz_pn = bz_pb->next_all; free(bz_pb); bz_pb = bz_pn;\n      }\n      free(bz_pvr);\n    }\n    bz_pvr = nullptr; bz_pvb = nullptr;\n");
        for (_, name, _, _) in &arrays {
            let _ = writeln!(s, "    {name}_pv = nullptr;");
        }
        s.push_str("  }\n");
        s
    }
}
