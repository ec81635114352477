//! Load phase of row-vector kernels (`BLAZAR_CUDA_LOAD_PHASE=0` turns it off, for
//! comparisons; life on the H200 0.164 -> 0.143 ms, 77% -> 89% of the copy). A coarsened rank-2 row-vector kernel (`vector.rs`) reads, for
//! each of its rows, the chunks of the neighbouring rows its stencil taps; ptxas places
//! each merged chunk load next to its first use, so a thread has about one row's loads
//! in flight (load row r+1, compute row r, store row r). Here every chunk the thread's
//! stencil taps (loads at `pos + (dr, dc)` with constant shifts, of arrays the kernel
//! only reads) is loaded once, before the row loop, into a table of 4-element vectors
//! (`bz_lp<slot>[row][chunk]`, zero where the chunk is outside the array); the taps
//! then read the table. The loads are conditional (`if (inside)`), which ptxas keeps
//! ahead of the computation: all loads of the thread in flight at once, as in the
//! hand-written kernels of `benches/experiments/stencil_rows.cu`.
//!
//! Exact: a tap's chunk lies inside its row exactly when its element does (`vector.rs`),
//! so the table holds what `bz_getv4` would read, and the arrays are not written by
//! the kernel (nor, under `noalias`, through another parameter).

use crate::cuda::kernel::Gen;
use crate::cuda::CodegenOptions;
use blazar_kir::{ArrId, Expr, ExprKind, Kernel, Scalar, Space, Ty};
use std::collections::HashMap;

/// The chunks of one array a thread loads: rows `rows.0..=rows.1` relative to the
/// thread's first row, chunks `cols.0..=cols.1` relative to its first chunk (`bz_q`).
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub arr: ArrId,
    pub rows: (i64, i64),
    pub cols: (i64, i64),
}

/// The largest table a thread loads (chunks, over all arrays): 16 bytes of registers each.
const MAX_CHUNKS: i64 = 40;

fn on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("BLAZAR_CUDA_LOAD_PHASE").map_or(true, |v| v != "0"))
}

/// The tables of kernel `k` and its taps (by the address of the `Load` expression:
/// table index, row shift, column shift), when the load phase applies: switched on,
/// row vectors, a fixed run of `coarsen` > 1 rows one block row apart (block height 1),
/// no outputs, rank 2, `noalias`.
pub(crate) fn plan(
    k: &Kernel,
    opts: &CodegenOptions,
    coarsen: u32,
) -> (Vec<Table>, HashMap<usize, (usize, i64, i64)>) {
    let none = (Vec::new(), HashMap::new());
    if !on()
        || k.rank != 2
        || coarsen < 2
        || !opts.noalias
        || !k.outputs.is_empty()
        || opts.block.is_none_or(|b| b[1] != 1)
    {
        return none;
    }
    let facts = k.facts();
    let ranges = k.ranges();
    let mut taps: Vec<(usize, ArrId, i64, i64)> = Vec::new();
    let mut visit = |e: &Expr| {
        let ExprKind::Load { arr, index, .. } = &e.kind else {
            return;
        };
        let Some(Ty::Array(t)) = k.arrays.get(*arr as usize).map(|d| d.ty) else {
            return;
        };
        let read_only = !facts.written.get(*arr as usize).copied().unwrap_or(true);
        if t.space != Space::Global
            || !matches!(t.elem, Scalar::F32 | Scalar::I32 | Scalar::U32)
            || t.rank != 2
            || index.len() != 2
            || crate::names::read_mode(t.read) != 0
            || !read_only
        {
            return;
        }
        // Exactly `pos + (dr, dc)`: unit coefficients and constant rests.
        let shift = ranges.forms(e as *const Expr as usize).and_then(|f| {
            let unit = |d: usize, x: &blazar_kir::affine::Aff| {
                x.coef == if d == 0 { [1, 0, 0, 0] } else { [0, 1, 0, 0] }
            };
            if f.len() != 2 || !unit(0, &f[0]) || !unit(1, &f[1]) {
                return None;
            }
            let c = |x: &blazar_kir::affine::Aff| {
                blazar_kir::fold::const_int(&x.rest, opts.block, k.rank).filter(|v| v.abs() <= 64)
            };
            Some((c(&f[0])?, c(&f[1])?))
        });
        match shift {
            Some((dr, dc)) => taps.push((e as *const Expr as usize, *arr, dr, dc)),
            None => {}
        }
    };
    blazar_kir::visit::walk_stmts(&k.body, &mut |s| {
        blazar_kir::visit::stmt_exprs(s, &mut |e| blazar_kir::visit::walk_expr(e, &mut visit))
    });
    // Other loads of a table's array (not taps) read as before.
    let mut tables: Vec<Table> = Vec::new();
    let mut out = HashMap::new();
    let floor4 = |x: i64| x.div_euclid(4);
    for &(key, arr, dr, dc) in &taps {
        let i = match tables.iter().position(|t| t.arr == arr) {
            Some(i) => i,
            None => {
                tables.push(Table {
                    arr,
                    rows: (dr, dr + coarsen as i64 - 1),
                    cols: (floor4(dc), floor4(dc + 3)),
                });
                tables.len() - 1
            }
        };
        let t = &mut tables[i];
        t.rows = (t.rows.0.min(dr), t.rows.1.max(dr + coarsen as i64 - 1));
        t.cols = (t.cols.0.min(floor4(dc)), t.cols.1.max(floor4(dc + 3)));
        out.insert(key, (i, dr, dc));
    }
    let chunks: i64 = tables
        .iter()
        .map(|t| (t.rows.1 - t.rows.0 + 1) * (t.cols.1 - t.cols.0 + 1))
        .sum();
    if tables.is_empty() || chunks > MAX_CHUNKS {
        return none;
    }
    (tables, out)
}

/// Helper of the load phase (after `PRELUDE_VECTOR`).
pub(crate) const PRELUDE_LOAD_PHASE: &str = r#"
// Load phase (`cuda/load_phase.rs`): the chunk at (idx...), zero when it is outside.
template<typename T, typename... R> __device__ __forceinline__ typename bz_vec4<T>::t bz_chunkv4(const T* p, R... idx) {
  i32 off = 0;
  typename bz_vec4<T>::t v = {};
  if (bz_in(off, idx...)) v = *(const typename bz_vec4<T>::t*)(p + (u32)off);
  return v;
}
template<typename V> __device__ __forceinline__ auto bz_lane(const V& v, i32 lane) {
  return lane == 0 ? v.x : lane == 1 ? v.y : lane == 2 ? v.z : v.w;
}
"#;

impl Gen<'_> {
    /// The tap at the load being printed read from its table, if it is one.
    pub(crate) fn table_load(&self) -> Option<String> {
        let &(i, dr, dc) = self.load_taps.get(&(self.cur_load as usize))?;
        let t = &self.load_tables[i];
        Some(format!(
            "bz_lane(bz_lp{a}[bz_r + {}][((bz_u + {dc}) >> 2) + {}], (bz_u + {dc}) & 3)",
            dr - t.rows.0,
            -t.cols.0,
            a = t.arr
        ))
    }

    /// The tables' declarations and loads (before the row loop); `row0` is the C
    /// expression of the thread's first row.
    pub(crate) fn load_phase(&self, row0: &str) -> String {
        let mut s = String::new();
        for t in &self.load_tables {
            let name = crate::names::arr(self.k, t.arr);
            let shape = self.shape(t.arr, 2);
            let elem = crate::names::scalar(self.k.arrays[t.arr as usize].ty.elem());
            let (nr, nc) = (t.rows.1 - t.rows.0 + 1, t.cols.1 - t.cols.0 + 1);
            s.push_str(&format!(
                "  bz_vec4<{elem}>::t bz_lp{a}[{nr}][{nc}];\n  #pragma unroll\n  for (i32 bz_i = 0; bz_i < {nr}; ++bz_i) {{\n  #pragma unroll\n  for (i32 bz_j = 0; bz_j < {nc}; ++bz_j) {{\n    bz_lp{a}[bz_i][bz_j] = bz_chunkv4({name}.data, {row0} + bz_i + {r0}, {d0}, bz_q + 4 * (bz_j + {c0}), {d1});\n  }}\n  }}\n",
                a = t.arr,
                r0 = t.rows.0,
                c0 = t.cols.0,
                d0 = shape[0],
                d1 = shape[1],
            ));
        }
        s
    }
}
