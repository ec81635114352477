//! The text around a kernel's body: the `extern "C" __global__` signature (array
//! parameters as pointer plus extents), the specials (`pos` with coarsening), the
//! declarations, the coarsened run and the ragged-grid guard, and the output epilogue.

use crate::cuda::kernel::{Gen, SharedSlot};
use crate::cuda::stop::Stops;
use crate::cuda::{Generated, OutputLayout, ParamLayout};
use crate::names::{self, scalar};
use blazar_kir::{Bind, Space, Ty};
use std::fmt::Write;

impl Gen<'_> {
    /// Component `c` of special `kind` (1 `threadIdx`, 2 `blockDim`, 3 `blockIdx`, 4
    /// `gridDim`, as the index space sees them) as a C expression.
    fn axis_part(&self, c: usize, kind: u8) -> String {
        let r = self.k.rank.clamp(1, 4) as usize;
        let axis = ["x", "y", "z"];
        let a = r - 1 - c;
        if r == 4 && a >= 2 {
            // Components 0 and 1 share z.
            let cnt1 = "(bz_sp.dims[1] / bz_sp.block[1])";
            return match (kind, c) {
                (1, 1) => "((i32)threadIdx.z % bz_sp.block[1])".into(),
                (1, _) => "((i32)threadIdx.z / bz_sp.block[1])".into(),
                (2, c) => format!("bz_sp.block[{c}]"),
                (3, 1) => format!("((i32)blockIdx.z % {cnt1})"),
                (3, _) => format!("((i32)blockIdx.z / {cnt1})"),
                (4, 1) => cnt1.into(),
                _ => "(bz_sp.dims[0] / bz_sp.block[0])".into(),
            };
        }
        if let (2, Some(b)) = (kind, self.opts.block) {
            return format!("{}", b[a]);
        }
        let src = match kind {
            1 => "threadIdx",
            2 => "blockDim",
            3 => "blockIdx",
            _ => "gridDim",
        };
        format!("(i32){src}.{}", axis[a])
    }

    /// A coarsened kernel with outputs runs a chunk of block rows per block, as many as
    /// the grid leaves (see `CodegenOptions::coarsen`), rather than a fixed number.
    fn chunked(&self) -> bool {
        self.coarsen > 1 && !self.k.outputs.is_empty()
    }

    /// The components of special `code` as C expressions (component 0 first; the last
    /// component is x).
    fn special_parts(&self, code: u8) -> Vec<String> {
        let r = self.k.rank.clamp(1, 4) as usize;
        let coarsen = self.coarsen;
        (0..r)
            .map(|c| match code {
                // The run's block row `bz_r` in place of `blockIdx`.
                0 if c == 0 && self.chunked() => {
                    format!("bz_r * {} + {}", self.axis_part(c, 2), self.axis_part(c, 1))
                }
                // Row vectors: 4 consecutive positions from `bz_q` (`vector.rs`).
                0 if c + 1 == r && self.vector > 1 => "bz_q + bz_u".to_string(),
                0 if c == 0 && coarsen > 1 => format!(
                    "({} * {coarsen} + bz_r) * {} + {}",
                    self.axis_part(c, 3),
                    self.axis_part(c, 2),
                    self.axis_part(c, 1)
                ),
                0 => format!(
                    "{} * {} + {}",
                    self.axis_part(c, 3),
                    self.axis_part(c, 2),
                    self.axis_part(c, 1)
                ),
                kind => self.axis_part(c, kind),
            })
            .collect()
    }

    pub(crate) fn assemble(mut self, body: String) -> Generated {
        let k = self.k;
        let mut params = Vec::new();
        let mut cparams = Vec::new();
        // Array parameters arrive as pointer + extents and are rebuilt as `bz_arr<T>`
        // (a pointer parameter can carry `__restrict__`; one inside a struct cannot).
        let mut rebuild = String::new();
        let written = &k.facts().written;
        for (i, p) in k.params.iter().enumerate() {
            match p.bind {
                Bind::Var(v) => {
                    let t = k.vars.get(v as usize).map_or(Ty::I32, |d| d.ty);
                    cparams.push(format!("{} {}", names::ty(t), names::var(k, v)));
                    params.push(match t {
                        Ty::Vector(s, n) => ParamLayout::Vector {
                            index: i,
                            elem: s,
                            len: n,
                        },
                        t => ParamLayout::Scalar {
                            index: i,
                            ty: t.elem(),
                        },
                    });
                }
                Bind::Array(a) => {
                    let t = k.arrays.get(a as usize).map_or(Ty::I32, |d| d.ty);
                    let name = names::arr(k, a);
                    let elem = scalar(t.elem());
                    let read_only = !written.get(a as usize).copied().unwrap_or(true);
                    let (c, q) = match (self.opts.noalias, read_only) {
                        (true, true) => ("const ", " __restrict__"),
                        (true, false) => ("", " __restrict__"),
                        (false, _) => ("", ""),
                    };
                    cparams.push(format!("{c}{elem}*{q} {name}_p"));
                    cparams.push(format!("bz_ext {name}_d"));
                    let rank = match t {
                        Ty::Array(at) => at.rank,
                        _ => 1,
                    };
                    // Extents equal to the index space's are taken from it, so that the
                    // compiler sees `pos` inside them (see `CodegenOptions::same_extents`).
                    let same =
                        self.opts.same_extents && rank == k.rank && self.opts.block.is_some();
                    let dims: Vec<String> = (0..4)
                        .map(|d| {
                            if same && d < rank as usize {
                                format!("bz_sp.dims[{d}]")
                            } else {
                                format!("{name}_d.d[{d}]")
                            }
                        })
                        .collect();
                    let _ = writeln!(
                        rebuild,
                        "  {} {name} = {{({elem}*){name}_p, {{{}}}}};",
                        names::ty(t),
                        dims.join(", ")
                    );
                    params.push(ParamLayout::ArrayData {
                        index: i,
                        elem: t.elem(),
                    });
                    params.push(ParamLayout::ArrayExtents { index: i, rank });
                }
            }
        }
        cparams.push("bz_space bz_sp".into());
        params.push(ParamLayout::Space);
        cparams.push("bz_err* bz_erec".into());
        params.push(ParamLayout::ErrorRecord);
        let mut outputs = Vec::new();
        for (i, o) in k.outputs.iter().enumerate() {
            cparams.push(format!("{}* bz_out{i}", scalar(o.ty)));
            params.push(ParamLayout::Output { index: i, ty: o.ty });
            outputs.push(OutputLayout {
                name: o.name.clone(),
                ty: o.ty,
                combine: names::partial_op(o.op),
                finish: o.op,
            });
        }
        // Outputs handed over through host memory (see `CodegenOptions::mirror`).
        let mirror = self.opts.mirror && !outputs.is_empty();
        if mirror {
            cparams.push("bz_mirror bz_mr".into());
            params.push(ParamLayout::Mirror);
        }
        if self.uses_pool {
            cparams.push("bz_pool bz_pl".into());
            params.push(ParamLayout::Pool);
        }
        // `bzk_`: no name of the prelude starts so, whatever the kernel is called (a
        // kernel `t` named `bz_t` clashed with the prelude's type traits).
        let entry = format!("bzk_{}", names::ident(&k.name));

        let mut s = String::new();
        s.push_str(crate::prelude::PRELUDE_CORE);
        s.push_str(crate::cuda::prelude_mem::PRELUDE_MEM);
        if self.vector > 1 {
            s.push_str(crate::cuda::vector::PRELUDE_VECTOR);
            if !self.load_tables.is_empty() {
                s.push_str(crate::cuda::load_phase::PRELUDE_LOAD_PHASE);
            }
            if self.chunk_stores.contains(&true) {
                s.push_str(crate::cuda::vector::PRELUDE_VECTOR_STORE);
            }
        }
        if self.soft_barrier {
            s.push_str(crate::cuda::barrier::PRELUDE_BARRIER);
        }
        if self.stops != Stops::Off {
            s.push_str(crate::cuda::stop::PRELUDE_STOP);
        }
        let _ = writeln!(s, "\n// ---- kernel {} (rank {}) ----", k.name, k.rank);
        let bounds = self
            .opts
            .block
            .map_or(1024, |b| b.iter().product::<u32>().clamp(1, 1024));
        let _ = writeln!(
            s,
            "extern \"C\" __global__ void __launch_bounds__({bounds}) {entry}(\n    {})\n{{",
            cparams.join(",\n    ")
        );
        if let Some(b) = self.opts.block {
            for (axis, n) in ["x", "y", "z"].iter().zip(b) {
                let _ = writeln!(s, "  __builtin_assume(threadIdx.{axis} < {n}u);");
            }
        }
        // Errors go through the thread's context: the record and the failing position,
        // so that the record keeps the failure of the lowest position (`bz_fail`).
        s.push_str(
            "  bz_ectx bz_ec = {bz_erec, 0ull};\n  bz_ectx* const bz_e = &bz_ec;\n  (void)bz_e;\n",
        );
        s.push_str(&rebuild);
        if self.soft_barrier {
            // Every thread of the block is expected at barriers until it leaves.
            s.push_str("  __shared__ bz_sbar bz_sb;\n  bz_sbar_init(&bz_sb);\n");
        }
        if self.coarsen > 1 || self.vector > 1 || self.opts.guard {
            // `pos` decides which positions run, even where the body ignores it.
            self.specials.insert(0);
        }
        if self.vector > 1 {
            // The thread's first position along the last component (`vector.rs`).
            let c = k.rank.clamp(1, 4) as usize - 1;
            let _ = writeln!(
                s,
                "  const i32 bz_q = ({} * {} + {}) * {};",
                self.axis_part(c, 3),
                self.axis_part(c, 2),
                self.axis_part(c, 1),
                self.vector
            );
        }
        let exact = self.opts.block.is_some() && !self.opts.guard && k.rank <= 3;
        if exact {
            // An exact grid: every position a thread runs lies inside the index space.
            // Stated before the run, so that a position's loads of its neighbour rows
            // are known to be inside too, and equal those of the neighbour's position.
            // (A chunked run states component 0 inside the run: its rows vary.)
            for (c, part) in self.special_parts(0).iter().enumerate() {
                let runs = match c {
                    0 if self.chunked() => 0,
                    0 => self.coarsen,
                    _ => 1,
                };
                let lanes = if part.contains("bz_u") {
                    self.vector
                } else {
                    1
                };
                for r in 0..runs {
                    for u in 0..lanes {
                        let p = part
                            .replace("bz_r", &r.to_string())
                            .replace("bz_u", &u.to_string());
                        let _ =
                            writeln!(s, "  __builtin_assume((u32)({p}) < (u32)bz_sp.dims[{c}]);");
                    }
                }
            }
        }
        // Outputs accumulate per thread over all its positions (declared before the run).
        for (i, o) in outputs.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {t} bz_acc{i} = bz_identity<{}, {t}>();",
                names::op_code(o.combine),
                t = scalar(o.ty)
            );
        }
        if self.chunked() {
            // Block `b` of the grid's component-0 axis runs block rows [b * chunk,
            // (b + 1) * chunk) of the index space: consecutive rows, so neighbouring
            // rows' loads are shared as in a fixed run, and any grid covers them all
            // (the launcher sizes it to the blocks the GPU holds at once: one wave).
            let (b0, i0, g0) = (
                self.axis_part(0, 2),
                self.axis_part(0, 3),
                self.axis_part(0, 4),
            );
            let _ = writeln!(
                s,
                "  const i32 bz_rows = (bz_sp.dims[0] + {b0} - 1) / {b0};"
            );
            let _ = writeln!(s, "  const i32 bz_chunk = (bz_rows + {g0} - 1) / {g0};");
            let _ = writeln!(s, "  const i32 bz_r0 = {i0} * bz_chunk;");
            let _ = writeln!(s, "  const i32 bz_r1 = min(bz_r0 + bz_chunk, bz_rows);");
            let _ = writeln!(
                s,
                "  #pragma unroll 4\n  for (i32 bz_r = bz_r0; bz_r < bz_r1; ++bz_r) {{"
            );
        } else if self.coarsen > 1 {
            if !self.load_tables.is_empty() {
                let row0 = self.special_parts(0)[0].replace("bz_r", "0");
                s.push_str(&self.load_phase(&row0));
            }
            // Long runs unroll by 4: the body is not copied 64 times.
            let unroll = if self.coarsen > 8 { " 4" } else { "" };
            let _ = writeln!(
                s,
                "  #pragma unroll{unroll}\n  for (i32 bz_r = 0; bz_r < {}; ++bz_r) {{",
                self.coarsen
            );
        }
        if self.vector > 1 {
            s.push_str(&self.chunk_store_decls());
            let _ = writeln!(
                s,
                "  #pragma unroll\n  for (i32 bz_u = 0; bz_u < {}; ++bz_u) {{",
                self.vector
            );
        }
        for &code in &self.specials {
            let name =
                ["bz_pos", "bz_blkpos", "bz_blkdim", "bz_blkidx", "bz_blkcnt"][code as usize];
            let parts = self.special_parts(code);
            if parts.len() == 1 {
                let _ = writeln!(s, "  const i32 {name} = {};", parts[0]);
            } else {
                let _ = writeln!(
                    s,
                    "  const bz_v<i32, {}> {name} = {{{{{}}}}};",
                    parts.len(),
                    parts.join(", ")
                );
            }
        }
        if exact && self.chunked() {
            let p = &self.special_parts(0)[0];
            let _ = writeln!(s, "  __builtin_assume((u32)({p}) < (u32)bz_sp.dims[0]);");
        }
        if self.can_fail {
            // The position's row-major linear index in the index space.
            let r = k.rank.clamp(1, 4) as usize;
            let key = self
                .special_parts(0)
                .iter()
                .take(r)
                .enumerate()
                .fold("0ull".to_string(), |a, (c, p)| {
                    format!("({a}) * (u64)bz_sp.dims[{c}] + (u64)({p})")
                });
            let _ = writeln!(s, "  bz_ec.key = {key};");
        }
        let bound: Vec<Bind> = k.params.iter().map(|p| p.bind).collect();
        for (i, v) in k.vars.iter().enumerate() {
            if !bound.contains(&Bind::Var(i as u32)) {
                let _ = writeln!(
                    s,
                    "  {} {} = {{}};",
                    names::ty(v.ty),
                    names::var(k, i as u32)
                );
            }
        }
        if self.stops != Stops::Off {
            s.push_str("  bool bz_stop = false;\n  (void)bz_stop;\n");
        }
        for (t, name) in &self.temps {
            let _ = writeln!(s, "  {t} {name} = {{}};");
        }
        let mut any_dyn = false;
        for (i, a) in k.arrays.iter().enumerate() {
            let Ty::Array(t) = a.ty else { continue };
            if bound.contains(&Bind::Array(i as u32)) {
                continue;
            }
            let name = names::arr(k, i as u32);
            let ct = names::ty(a.ty);
            match (t.space, self.shared[i]) {
                (Space::Shared, Some(SharedSlot::Static(n))) => {
                    let _ = writeln!(s, "  __shared__ {} {name}_s[{}];", scalar(t.elem), n.max(1));
                    let _ = writeln!(s, "  {ct} {name} = {{}};");
                }
                (Space::Shared, Some(SharedSlot::Dynamic)) | (Space::Local, _) => {
                    any_dyn |= t.space == Space::Shared;
                    let _ = writeln!(s, "  {ct} {name} = {{}};");
                    let _ = writeln!(s, "  u32 {name}_cap = 0;");
                }
                _ => {
                    let _ = writeln!(s, "  {ct} {name} = {{}};");
                }
            }
        }
        if any_dyn {
            s.push_str("  extern __shared__ __align__(16) u8 bz_smem[];\n  u32 bz_smem_top = 0;\n");
        }
        if self.opts.guard {
            // Positions past the index space: past the end of a coarsened run (break)
            // or in the ragged edge of the grid (there every position of a run is out:
            // break, or leave the thread, through the output epilogue if there is one).
            let r = k.rank.clamp(1, 4) as usize;
            let comp = |c: usize| {
                if r == 1 {
                    "bz_pos".to_string()
                } else {
                    format!("bz_pos[{c}]")
                }
            };
            let conds: Vec<String> = (0..r)
                .map(|c| format!("{} >= bz_sp.dims[{c}]", comp(c)))
                .collect();
            let leave = if self.coarsen > 1 {
                "break"
            } else if outputs.is_empty() {
                self.return_stmt().trim_end_matches(';')
            } else {
                self.uses_done = true;
                "goto bz_done"
            };
            let _ = writeln!(s, "  if ({}) {leave};", conds.join(" || "));
        }
        s.push_str(&body);
        if self.coarsen > 1 || self.vector > 1 {
            s.push_str("  bz_next:;\n");
        }
        if self.vector > 1 {
            s.push_str("  }\n");
            let r = k.rank.clamp(1, 4) as usize;
            let rows = self.special_parts(0)[..r - 1].to_vec();
            s.push_str(&self.chunk_store_flush(&rows));
        }
        if self.coarsen > 1 {
            s.push_str("  }\n");
        }
        if !outputs.is_empty() && self.uses_done {
            s.push_str("bz_done:;\n");
        }
        if self.soft_barrier {
            // The end of the kernel (and of every `return` with outputs): the thread
            // leaves the software barrier before the output epilogue's own barrier.
            let _ = writeln!(s, "  {}", crate::cuda::barrier::EXIT);
        }
        if !outputs.is_empty() {
            let diverged = if self.soft_barrier { ", true" } else { "" };
            for (i, o) in outputs.iter().enumerate() {
                let (t, op) = (scalar(o.ty), names::op_code(o.combine));
                let _ = writeln!(s, "  {{\n    __shared__ {t} bz_red{i}[32];");
                let _ = writeln!(
                    s,
                    "    {t} r = bz_block_reduce<{op}{diverged}>(bz_acc{i}, bz_red{i});"
                );
                let _ = writeln!(
                    s,
                    "    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) bz_atomic<{op}>(bz_out{i}, r);\n  }}"
                );
            }
            if mirror {
                s.push_str(
                    "  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) bz_mirror_out(bz_erec, bz_mr);\n",
                );
            }
        }
        s.push_str("}\n");
        let static_bytes: usize = k
            .arrays
            .iter()
            .zip(&self.shared)
            .map(|(a, slot)| match slot {
                Some(SharedSlot::Static(n)) => n.max(&1) * a.ty.elem().size(),
                _ => 0,
            })
            .sum();
        let red_bytes: usize = outputs.iter().map(|o| 32 * o.ty.size()).sum::<usize>()
            + if self.soft_barrier { 12 } else { 0 };
        Generated {
            source: s,
            entry,
            params,
            shared_bytes: (!any_dyn).then_some(static_bytes + red_bytes),
            dynamic_shared: self.dyn_shared,
            outputs,
            uses_pool: self.uses_pool,
            coarsen: self.coarsen,
            vector: self.vector,
            can_fail: self.can_fail,
        }
    }
}
