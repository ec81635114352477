//! Row vectors: each thread runs 4 consecutive positions along the last `pos`
//! component (`CodegenOptions::vector`), and a zero-extended load of a global 4-byte
//! array of the kernel's rank reads the aligned 4-element chunk that holds its element
//! (one 16-byte load). The chunk is named by the thread's first position `bz_q` (a
//! multiple of 4) plus a multiple of 4, so once the compiler unrolls the 4 positions
//! (and the stencil's own loops), the loads of one row that fall in one chunk are one
//! load: a 3-point row reads 3 chunks for 4 outputs instead of 12 scalars. Stores at
//! `pos` to an array the kernel never reads are gathered over the 4 positions and
//! written as one chunk ([`chunk_stores`]).
//!
//! Correct for any index: the chunk of last index `i` is `i` rounded down to a multiple
//! of 4 (as `bz_q` is one), and the caller promises rows whose extent is a multiple of
//! 4 and 16-byte aligned data, so a chunk lies inside its row exactly when its element
//! does (zero extension is decided per chunk), and reading it is aligned.

use crate::cuda::kernel::Gen;
use crate::cuda::CodegenOptions;
use crate::printer::Dialect;
use blazar_kir::{ArrId, Expr, Kernel, Scalar, Space, Ty};

/// Whether kernel `k` runs row vectors under `opts` (the caller checked that it is
/// free of its block and has no `while` loop or local allocation).
pub(crate) fn suits(k: &Kernel, opts: &CodegenOptions) -> bool {
    opts.vector == 4
        && opts.block.is_some()
        && !opts.guard
        && k.outputs.is_empty()
        && (2..=3).contains(&k.rank)
}

/// Helpers of vectorised loads (after the memory prelude).
pub(crate) const PRELUDE_VECTOR: &str = r#"
// Row vectors (`cuda/vector.rs`): the chunk of last index i in the run starting at q.
__device__ __forceinline__ i32 bz_chunk4(i32 i, i32 q) { return (i32)((u32)q + (((u32)i - (u32)q) & ~3u)); }
__device__ __forceinline__ i32 bz_lane4(i32 i, i32 q) { return (i32)(((u32)i - (u32)q) & 3u); }
template<typename T> struct bz_vec4;
template<> struct bz_vec4<f32> { typedef float4 t; };
template<> struct bz_vec4<i32> { typedef int4 t; };
template<> struct bz_vec4<u32> { typedef uint4 t; };
// A 16-byte read through the non-coherent cache, for arrays the kernel only reads (no
// written array passed twice): `__ldg` is one intrinsic the compiler keeps whole, and
// equal chunks one load (a plain vector read may be split into its elements again).
__device__ __forceinline__ float4 bz_ldg4(const f32* p) { return __ldg((const float4*)p); }
__device__ __forceinline__ int4 bz_ldg4(const i32* p) { return __ldg((const int4*)p); }
__device__ __forceinline__ uint4 bz_ldg4(const u32* p) { return __ldg((const uint4*)p); }
// Element `lane` of the chunk at (idx...) (its last index a multiple of 4), zero when
// the chunk is outside; the chunk is read unconditionally (element 0's chunk then), so
// that equal chunks of neighbouring positions are one load. `NC`: through `bz_ldg4`.
template<bool NC, typename T, typename... R> __device__ __forceinline__ T bz_getv4(const T* p, i32 lane, R... idx) {
  i32 off = 0;
  const bool ok = bz_in(off, idx...);
  const T* c = p + (u32)(ok ? off : 0);
  typename bz_vec4<T>::t v;
  if constexpr (NC) v = bz_ldg4(c); else v = *(const typename bz_vec4<T>::t*)c;
  const T x = lane == 0 ? v.x : lane == 1 ? v.y : lane == 2 ? v.z : v.w;
  return ok ? x : T{};
}
"#;

impl Gen<'_> {
    /// The chunked load of `@a[index]` when row vectors apply to it: a global array of
    /// 4-byte elements and the kernel's rank, zero-extended, indexed in full.
    pub(crate) fn vector_load(&mut self, a: ArrId, index: &[Expr]) -> Option<String> {
        if self.vector != 4 {
            return None;
        }
        if let Some(v) = self.table_load() {
            return Some(v);
        }
        let t = match self.k.arrays.get(a as usize).map(|d| d.ty) {
            Some(Ty::Array(t)) => t,
            _ => return None,
        };
        let rank = self.k.rank as usize;
        let four = matches!(t.elem, Scalar::F32 | Scalar::I32 | Scalar::U32);
        if t.space != Space::Global
            || !four
            || t.rank as usize != rank
            || index.len() != rank
            || crate::names::read_mode(t.read) != 0
        {
            return None;
        }
        // Only where the row's 4 positions read 4 consecutive elements (the last index
        // moves with pos's last component, the others do not: a stencil), as the
        // kernel's row-level forms say; other indices read element by element.
        let consecutive = self
            .k
            .ranges()
            .forms(self.cur_load as usize)
            .is_some_and(|f| {
                f.len() == rank
                    && f.iter()
                        .enumerate()
                        .all(|(d, x)| x.coef[rank - 1] == if d + 1 == rank { 1 } else { 0 })
            });
        if !consecutive {
            return None;
        }
        let name = crate::names::arr(self.k, a);
        let shape = self.shape(a, rank);
        let mut args = Vec::new();
        let mut lane = String::new();
        for (d, (e, n)) in index.iter().zip(shape).enumerate() {
            let x = self.i32_of(e);
            if d + 1 == rank {
                lane = format!("bz_lane4({x}, bz_q)");
                args.push(format!("bz_chunk4({x}, bz_q)"));
            } else {
                args.push(x);
            }
            args.push(n);
        }
        let read_only = !self
            .k
            .facts()
            .written
            .get(a as usize)
            .copied()
            .unwrap_or(true);
        let nc = read_only && self.opts.noalias;
        Some(format!(
            "bz_getv4<{nc}>({name}.data, {lane}, {})",
            args.join(", ")
        ))
    }
}

/// Per array slot: the array's stores are gathered over a thread's 4 positions and
/// written as one chunk (`bz_putv4`). For global 4-byte arrays of the kernel's rank
/// that the kernel only ever stores to at `pos` itself (never reads or updates; no
/// call, which might): a thread's positions then write 4 different elements that no
/// other statement of it observes, so the write may wait until the 4 have run. The
/// caller drops this for kernels that can fail (a failing position ends the thread
/// with its earlier positions' stores still gathered).
pub(crate) fn chunk_stores(k: &Kernel) -> Vec<bool> {
    use blazar_kir::visit::{stmt_exprs, walk_expr, walk_stmts};
    use blazar_kir::{ExprKind, Special, StmtKind};
    let rank = k.rank as usize;
    let mut ok: Vec<bool> = k
        .arrays
        .iter()
        .map(|d| match d.ty {
            Ty::Array(t) => {
                t.space == Space::Global
                    && matches!(t.elem, Scalar::F32 | Scalar::I32 | Scalar::U32)
                    && t.rank as usize == rank
                    && matches!(crate::names::write_mode(t.write), 0 | 5)
            }
            _ => false,
        })
        .collect();
    let at_pos = |index: &[Expr]| {
        index.len() == rank
            && index.iter().enumerate().all(|(c, e)| match &e.kind {
                ExprKind::Lane(v, lane) => {
                    matches!(v.kind, ExprKind::Special(Special::Pos))
                        && matches!(lane.kind, ExprKind::Const(blazar_kir::Const::Int(l)) if l == c as i64)
                }
                _ => false,
            })
    };
    let mut stored = vec![false; ok.len()];
    let mut calls = false;
    walk_stmts(&k.body, &mut |s| {
        match &s.kind {
            StmtKind::Store { arr, index, .. } => {
                let a = *arr as usize;
                if a < ok.len() {
                    stored[a] = true;
                    ok[a] &= at_pos(index);
                }
            }
            StmtKind::Update { arr, .. } => {
                if let Some(x) = ok.get_mut(*arr as usize) {
                    *x = false;
                }
            }
            StmtKind::Call { .. } => calls = true,
            _ => {}
        }
        stmt_exprs(s, &mut |e| {
            walk_expr(e, &mut |x| {
                if let ExprKind::Load { arr, .. } = &x.kind {
                    if let Some(o) = ok.get_mut(*arr as usize) {
                        *o = false;
                    }
                }
            })
        });
    });
    ok.iter()
        .zip(&stored)
        .map(|(&o, &s)| o && s && !calls)
        .collect()
}

/// Helper of gathered stores (after `PRELUDE_VECTOR`).
pub(crate) const PRELUDE_VECTOR_STORE: &str = r#"
// The gathered values `v` of the lanes in mask `m` at the chunk (idx...): one 16-byte
// store when all 4 are there, else one store per lane; nothing when the chunk is outside.
template<typename T, typename... R> __device__ __forceinline__ void bz_putv4(T* p, const T* v, u32 m, R... idx) {
  i32 off = 0;
  if (!bz_in(off, idx...)) return;
  if (m == 15u) {
    typename bz_vec4<T>::t c; c.x = v[0]; c.y = v[1]; c.z = v[2]; c.w = v[3];
    *(typename bz_vec4<T>::t*)(p + (u32)off) = c;
  } else {
    for (int u = 0; u < 4; ++u) if ((m >> u) & 1u) p[(u32)off + u] = v[u];
  }
}
"#;

impl Gen<'_> {
    /// A store of `x` to `@a` at `pos` gathered for its chunk, if `@a`'s are.
    pub(crate) fn chunk_store(&mut self, a: ArrId, x: &str) -> bool {
        if !self.chunk_stores.get(a as usize).copied().unwrap_or(false) {
            return false;
        }
        let t = crate::names::scalar(self.k.arrays[a as usize].ty.elem());
        self.line_out(&format!(
            "bz_sv{a}[bz_u] = ({t})({x}); bz_sm{a} |= 1u << bz_u;"
        ));
        true
    }

    /// Declarations of the gathered stores (before a run of 4 positions).
    pub(crate) fn chunk_store_decls(&self) -> String {
        let mut s = String::new();
        for (a, _) in self.chunk_stores.iter().enumerate().filter(|(_, &c)| c) {
            let t = crate::names::scalar(self.k.arrays[a].ty.elem());
            s.push_str(&format!("  {t} bz_sv{a}[4];\n  u32 bz_sm{a} = 0u;\n"));
        }
        s
    }

    /// The gathered stores written (after a run of 4 positions); `rows` are the C
    /// expressions of `pos`'s components but the last.
    pub(crate) fn chunk_store_flush(&self, rows: &[String]) -> String {
        let mut s = String::new();
        for (a, _) in self.chunk_stores.iter().enumerate().filter(|(_, &c)| c) {
            let name = crate::names::arr(self.k, a as ArrId);
            let shape = self.shape(a as ArrId, rows.len() + 1);
            let mut args = Vec::new();
            for (i, n) in shape.iter().enumerate() {
                args.push(rows.get(i).cloned().unwrap_or_else(|| "bz_q".into()));
                args.push(n.clone());
            }
            s.push_str(&format!(
                "  if (bz_sm{a}) bz_putv4({name}.data, bz_sv{a}, bz_sm{a}, {});\n",
                args.join(", ")
            ));
        }
        s
    }
}
