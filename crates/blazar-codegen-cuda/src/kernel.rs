//! One kernel: the generator state, the signature with hidden parameters, specials
//! (`pos`, `blkpos`, ...), declarations, and the epilogue that reduces kernel outputs.
//!
//! The body is generated first (which records the specials it uses), then the header
//! is assembled around it. Every variable and array slot is declared at the top of the
//! kernel, before the first statement, so that `goto` (multi-level `break`, `return`
//! with outputs) never jumps over an initialisation.

use crate::names::{self, scalar};
use crate::{CodegenOptions, DynShared, Generated, OutputLayout, ParamLayout};
use blazar_kir::{Bind, ExprKind, Kernel, Space, Special, Stmt, StmtKind, Ty};
use std::collections::BTreeSet;
use std::fmt::Write;

/// A loop being generated: its id and whether labelled exits were used.
pub(crate) struct LoopCtx {
    pub id: usize,
    pub brk: bool,
    pub cont: bool,
}

/// How a shared array slot gets its memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SharedSlot {
    /// A static `__shared__` array of this many elements.
    Static(usize),
    Dynamic,
}

pub(crate) struct Gen<'k> {
    pub k: &'k Kernel,
    pub opts: &'k CodegenOptions,
    pub out: String,
    pub depth: usize,
    pub line: u32,
    /// (`.q` line, output line) of the last `#line` directive.
    pub last_directive: Option<(u32, usize)>,
    pub out_lines: usize,
    pub specials: BTreeSet<u8>,
    pub loops: Vec<LoopCtx>,
    pub next_loop: usize,
    pub has_barrier: bool,
    pub shared: Vec<Option<SharedSlot>>,
    /// Extents (padded to four, as `bz_d`) of shared arrays that every allocation gives
    /// the same constant extents: accesses use them as literals, so bounds checks and
    /// offsets fold at compile time.
    pub shared_dims: Vec<Option<[usize; 4]>>,
    pub dyn_shared: Vec<DynShared>,
    pub uses_pool: bool,
    /// Some statement jumps to the output epilogue.
    pub uses_done: bool,
    /// Positions per thread along `pos` component 0 (1: one); see
    /// [`CodegenOptions::coarsen`]. A `return` then ends one position (`bz_next`).
    pub coarsen: u32,
}

fn walk<'a>(b: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for s in b {
        f(s);
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                walk(then, f);
                walk(els, f);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => walk(body, f),
            _ => {}
        }
    }
}

fn const_dim(e: &blazar_kir::Expr) -> Option<usize> {
    match e.kind {
        ExprKind::Const(blazar_kir::Const::Int(v)) => Some(v.max(0) as usize),
        _ => None,
    }
}

/// The extents `bz_d` would hold (1s in front up to the rank, then 1s), when constant.
fn padded_const_dims(dims: &[blazar_kir::Expr], rank: usize) -> Option<[usize; 4]> {
    let k = dims.len().min(rank);
    let mut out = [1usize; 4];
    for (i, e) in dims[..k].iter().enumerate() {
        out[rank - k + i] = const_dim(e)?;
    }
    Some(out)
}

pub(crate) fn generate(k: &Kernel, opts: &CodegenOptions) -> Generated {
    let mut g = Gen {
        k,
        opts,
        out: String::new(),
        depth: 1,
        line: 0,
        last_directive: None,
        out_lines: 0,
        specials: BTreeSet::new(),
        loops: Vec::new(),
        next_loop: 0,
        has_barrier: false,
        shared: vec![None; k.arrays.len()],
        shared_dims: vec![None; k.arrays.len()],
        dyn_shared: Vec::new(),
        uses_pool: false,
        uses_done: false,
        coarsen: 1,
    };
    // Coarsening needs threads that are independent of their block and of each other's
    // positions: no outputs (block reductions), no dynamic memory (per-thread pools).
    if opts.coarsen > 1
        && (1..=3).contains(&k.rank)
        && k.outputs.is_empty()
        && crate::facts::block_free(k)
    {
        // `while` loops usually run data-dependent trip counts (Mandelbrot): several
        // positions per thread would serialise their imbalance, so those keep one.
        let mut unsuited = false;
        walk(&k.body, &mut |s| {
            unsuited |= matches!(s.kind, StmtKind::AllocLocal { .. } | StmtKind::While { .. })
        });
        if !unsuited {
            g.coarsen = opts.coarsen;
        }
    }
    // Shared slots: static when every allocation of the slot has constant extents.
    let mut allocs: Vec<Vec<&Stmt>> = vec![Vec::new(); k.arrays.len()];
    walk(&k.body, &mut |s| match &s.kind {
        StmtKind::Barrier => g.has_barrier = true,
        StmtKind::AllocShared { arr, .. } => {
            if let Some(v) = allocs.get_mut(*arr as usize) {
                v.push(s);
            }
        }
        StmtKind::AllocLocal { .. } => g.uses_pool = true,
        _ => {}
    });
    for (a, list) in allocs.iter().enumerate() {
        let mut slot = None;
        let rank = match k.arrays[a].ty {
            Ty::Array(t) => (t.rank as usize).clamp(1, 4),
            _ => 1,
        };
        let mut same: Option<Option<[usize; 4]>> = None;
        for s in list {
            let StmtKind::AllocShared { dims, .. } = &s.kind else {
                continue;
            };
            let padded = padded_const_dims(dims, rank);
            same = match same {
                None => Some(padded),
                Some(prev) if prev == padded => Some(prev),
                Some(_) => Some(None),
            };
            let n: Option<usize> = dims.iter().map(const_dim).product();
            slot = match (slot, n) {
                (Some(SharedSlot::Dynamic), _) | (_, None) => Some(SharedSlot::Dynamic),
                (Some(SharedSlot::Static(m)), Some(n)) => Some(SharedSlot::Static(m.max(n))),
                (None, Some(n)) => Some(SharedSlot::Static(n)),
            };
            if slot == Some(SharedSlot::Dynamic) {
                let elem_size = match k.arrays[a].ty {
                    Ty::Array(t) => t.elem.size(),
                    _ => 1,
                };
                g.dyn_shared.push(DynShared {
                    arr: a as u32,
                    elem_size,
                    dims: dims
                        .iter()
                        .map(|e| crate::shared::inline_locals(e, k))
                        .collect(),
                });
            }
        }
        g.shared[a] = slot;
        if matches!(slot, Some(SharedSlot::Static(_))) {
            g.shared_dims[a] = same.flatten();
        }
    }
    // A slot that turned dynamic late keeps only dynamic records of its own statements.
    g.dyn_shared
        .retain(|d| g.shared[d.arr as usize] == Some(SharedSlot::Dynamic));
    g.block(&k.body);
    let body = std::mem::take(&mut g.out);
    g.assemble(body)
}

impl Gen<'_> {
    /// Appends one line at the current indentation.
    pub fn line_out(&mut self, text: &str) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
        self.out_lines += 1;
    }

    /// A `#line` directive for the current statement unless the C line already maps
    /// to it.
    pub fn directive(&mut self) {
        if !self.opts.line_directives || self.line == 0 {
            return;
        }
        if let Some((l, at)) = self.last_directive {
            if l as usize + (self.out_lines - at) == self.line as usize {
                return;
            }
        }
        let _ = writeln!(
            self.out,
            "#line {} {}",
            self.line,
            names::c_string(&self.opts.file_name)
        );
        self.out_lines += 1;
        self.last_directive = Some((self.line, self.out_lines));
    }

    /// The C expression of a special; records that the kernel uses it.
    pub fn special(&mut self, sp: Special) -> String {
        let (code, name) = match sp {
            Special::Pos => (0, "bz_pos"),
            Special::BlkPos => (1, "bz_blkpos"),
            Special::BlkDim => (2, "bz_blkdim"),
            Special::BlkIdx => (3, "bz_blkidx"),
            Special::BlkCnt => (4, "bz_blkcnt"),
            Special::WarpSize => return "warpSize".into(),
        };
        self.specials.insert(code);
        name.into()
    }

    /// The components of special `code` as C expressions (component 0 first; the last
    /// component is x).
    fn special_parts(&self, code: u8) -> Vec<String> {
        let r = self.k.rank.clamp(1, 4) as usize;
        let axis = ["x", "y", "z"];
        let part = |c: usize, kind: u8| -> String {
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
        };
        let coarsen = self.coarsen;
        (0..r)
            .map(|c| match code {
                0 if c == 0 && coarsen > 1 => format!(
                    "({} * {coarsen} + bz_r) * {} + {}",
                    part(c, 3),
                    part(c, 2),
                    part(c, 1)
                ),
                0 => format!("{} * {} + {}", part(c, 3), part(c, 2), part(c, 1)),
                kind => part(c, kind),
            })
            .collect()
    }

    fn assemble(mut self, body: String) -> Generated {
        let k = self.k;
        let mut params = Vec::new();
        let mut cparams = Vec::new();
        // Array parameters arrive as pointer + extents and are rebuilt as `bz_arr<T>`
        // (a pointer parameter can carry `__restrict__`; one inside a struct cannot).
        let mut rebuild = String::new();
        let written = crate::facts::written_arrays(k);
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
                    let _ = writeln!(
                        rebuild,
                        "  {} {name} = {{({elem}*){name}_p, {{{name}_d.d[0], {name}_d.d[1], {name}_d.d[2], {name}_d.d[3]}}}};",
                        names::ty(t)
                    );
                    let rank = match t {
                        Ty::Array(at) => at.rank,
                        _ => 1,
                    };
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
        cparams.push("bz_err* bz_e".into());
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
        if self.uses_pool {
            cparams.push("bz_pool bz_pl".into());
            params.push(ParamLayout::Pool);
        }
        let entry = format!("bz_{}", names::ident(&k.name));

        let mut s = String::new();
        s.push_str(crate::prelude::PRELUDE_CORE);
        s.push_str(crate::prelude_mem::PRELUDE_MEM);
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
        s.push_str(&rebuild);
        if self.coarsen > 1 || self.opts.guard {
            // `pos` decides which positions run, even where the body ignores it.
            self.specials.insert(0);
        }
        if self.coarsen > 1 {
            let _ = writeln!(
                s,
                "  #pragma unroll\n  for (i32 bz_r = 0; bz_r < {}; ++bz_r) {{",
                self.coarsen
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
        for (i, o) in outputs.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {t} bz_acc{i} = bz_identity<{}, {t}>();",
                names::op_code(o.combine),
                t = scalar(o.ty)
            );
        }
        if self.coarsen > 1 || self.opts.guard {
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
                .filter(|&c| c == 0 || self.opts.guard)
                .map(|c| format!("{} >= bz_sp.dims[{c}]", comp(c)))
                .collect();
            let leave = if self.coarsen > 1 {
                "break"
            } else if outputs.is_empty() {
                "return"
            } else {
                self.uses_done = true;
                "goto bz_done"
            };
            let _ = writeln!(s, "  if ({}) {leave};", conds.join(" || "));
        }
        s.push_str(&body);
        if self.coarsen > 1 {
            s.push_str("  bz_next:;\n  }\n");
        }
        if !outputs.is_empty() {
            if self.uses_done {
                s.push_str("bz_done:;\n");
            }
            for (i, o) in outputs.iter().enumerate() {
                let (t, op) = (scalar(o.ty), names::op_code(o.combine));
                let _ = writeln!(s, "  {{\n    __shared__ {t} bz_red{i}[32];");
                let _ = writeln!(
                    s,
                    "    {t} r = bz_block_reduce<{op}>(bz_acc{i}, bz_red{i});"
                );
                let _ = writeln!(
                    s,
                    "    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) bz_atomic<{op}>(bz_out{i}, r);\n  }}"
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
        let red_bytes: usize = outputs.iter().map(|o| 32 * o.ty.size()).sum();
        Generated {
            source: s,
            entry,
            params,
            shared_bytes: (!any_dyn).then_some(static_bytes + red_bytes),
            dynamic_shared: self.dyn_shared,
            outputs,
            uses_pool: self.uses_pool,
            coarsen: self.coarsen,
        }
    }
}
