//! One kernel: the generator state, the choice of shared-memory slots and of
//! coarsening, and the specials (`pos`, `blkpos`, ...) the body uses.
//!
//! The body is generated first (which records the specials it uses), then the header
//! is assembled around it (`assemble.rs`). Every variable and array slot is declared at the top of the
//! kernel, before the first statement, so that `goto` (multi-level `break`, `return`
//! with outputs) never jumps over an initialisation.

use crate::cuda::stop::Stops;
use crate::cuda::{CodegenOptions, DynShared, Generated};
use crate::names;
use crate::printer::Out;
use blazar_kir::visit::walk_stmts as walk;
use blazar_kir::{ExprKind, Kernel, Special, Stmt, StmtKind, Ty};
use std::collections::BTreeSet;
use std::fmt::Write;

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
    /// The text, its indentation and loops (the shared walk's state).
    pub o: Out,
    pub line: u32,
    /// (`.q` line, output line) of the last `#line` directive.
    pub last_directive: Option<(u32, usize)>,
    pub specials: BTreeSet<u8>,
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
    /// Consecutive positions per thread along the last `pos` component, read as
    /// aligned 4-element chunks (`vector.rs`; 1: one). See [`CodegenOptions::vector`].
    pub vector: u32,
    /// Per array slot: stores gathered over the 4 positions of a row vector and
    /// written as one chunk (`vector::chunk_stores`).
    pub chunk_stores: Vec<bool>,
    /// Load phase of a row-vector kernel (`load_phase.rs`): the chunk tables, and the
    /// taps that read them (by `Load` address: table, row shift, column shift).
    pub load_tables: Vec<crate::cuda::load_phase::Table>,
    pub load_taps: std::collections::HashMap<usize, (usize, i64, i64)>,
    /// Some emitted statement can record an error ([`crate::cuda::Generated::can_fail`]).
    pub can_fail: bool,
    /// Some barrier sits under thread-dependent control flow: barriers are the
    /// software barrier of `barrier.rs`, and every thread leaving the kernel exits it.
    pub soft_barrier: bool,
    /// While a batch of a streaming loop prints its loads: the loop variable and the
    /// C name of its value in the iteration being loaded (`prefetch.rs`).
    pub rename: Option<(blazar_kir::VarId, String)>,
    /// While a batch prints an iteration: load nodes read ahead, and their C names.
    pub ahead: Vec<(*const blazar_kir::Expr, String)>,
    /// How a failing thread stops (`stop.rs`).
    pub stops: Stops,
    /// Variables the generator adds (type, name), declared with the kernel's: operands
    /// evaluated before their statement under [`Stops::Leave`].
    pub temps: Vec<(String, String)>,
    /// Under [`Stops::Guard`], the barriers that vote (`stop.rs`).
    pub votes: std::collections::HashSet<*const Stmt>,
    /// The statement being printed.
    pub cur_stmt: *const Stmt,
    /// The load expression being printed (its row-level forms choose row vectors).
    pub cur_load: *const blazar_kir::Expr,
}

fn const_dim(e: &blazar_kir::Expr, k: &Kernel, block: Option<[u32; 3]>) -> Option<usize> {
    let e = blazar_kir::props::inline_locals(e, k);
    blazar_kir::fold::const_int(&e, block, k.rank).map(|v| v.max(0) as usize)
}

/// The extents `bz_d` would hold (1s in front up to the rank, then 1s), when constant.
fn padded_const_dims(
    dims: &[blazar_kir::Expr],
    rank: usize,
    kernel: &Kernel,
    block: Option<[u32; 3]>,
) -> Option<[usize; 4]> {
    let k = dims.len().min(rank);
    let mut out = [1usize; 4];
    for (i, e) in dims[..k].iter().enumerate() {
        out[rank - k + i] = const_dim(e, kernel, block)?;
    }
    Some(out)
}

pub(crate) fn generate(k: &Kernel, opts: &CodegenOptions) -> Generated {
    let mut g = body(k, opts, Stops::Off, true);
    if g.can_fail && g.chunk_stores.contains(&true) {
        // A failing position ends its thread: no stores wait for later positions.
        g = body(k, opts, Stops::Off, false);
    }
    if g.has_barrier && g.can_fail {
        // A thread that may fail in a kernel with barriers keeps a stopped flag.
        let stops = if g.soft_barrier {
            Stops::Leave
        } else {
            Stops::Guard
        };
        g = body(k, opts, stops, false);
    }
    let text = std::mem::take(&mut g.o.text);
    g.assemble(text)
}

/// The generator with kernel `k`'s body printed, failing threads stopping as `stops`
/// says; `gather`: row vectors may gather stores (`vector::chunk_stores`).
fn body<'k>(k: &'k Kernel, opts: &'k CodegenOptions, stops: Stops, gather: bool) -> Gen<'k> {
    let mut g = Gen {
        k,
        opts,
        o: Out {
            depth: 1,
            ..Out::default()
        },
        line: 0,
        last_directive: None,
        specials: BTreeSet::new(),
        has_barrier: false,
        shared: vec![None; k.arrays.len()],
        shared_dims: vec![None; k.arrays.len()],
        dyn_shared: Vec::new(),
        uses_pool: false,
        uses_done: false,
        coarsen: 1,
        vector: 1,
        chunk_stores: Vec::new(),
        load_tables: Vec::new(),
        load_taps: std::collections::HashMap::new(),
        can_fail: false,
        soft_barrier: false,
        rename: None,
        ahead: Vec::new(),
        stops,
        temps: Vec::new(),
        votes: if stops == Stops::Guard {
            crate::cuda::stop::voting_barriers(k)
        } else {
            Default::default()
        },
        cur_stmt: std::ptr::null(),
        cur_load: std::ptr::null(),
    };
    // Software barriers where a barrier sits under thread-dependent control flow, and
    // where threads that leave early would otherwise meet the waiting ones at the
    // output epilogue's hardware barrier (see `barrier.rs`).
    let facts = k.facts();
    g.soft_barrier = facts.divergent_barrier.is_some()
        || (!k.outputs.is_empty() && facts.varying_return.is_some() && facts.has_barrier);
    // Coarsening needs threads that are independent of their block and of each other's
    // positions: no dynamic memory (per-thread pools). Outputs accumulate in registers
    // over the thread's positions and are reduced once, after the run.
    if (opts.coarsen > 1 || opts.vector > 1) && (1..=3).contains(&k.rank) && k.facts().block_free {
        // `while` loops usually run data-dependent trip counts (Mandelbrot): several
        // positions per thread would serialise their imbalance, so those keep one.
        let mut unsuited = false;
        walk(&k.body, &mut |s| {
            unsuited |= matches!(s.kind, StmtKind::AllocLocal { .. } | StmtKind::While { .. })
        });
        if !unsuited {
            g.coarsen = opts.coarsen.max(1);
            if crate::cuda::vector::suits(k, opts) {
                g.vector = 4;
                // (Only where no written array is passed twice: a read through another
                // parameter would see the stores wait.)
                if gather && opts.noalias {
                    g.chunk_stores = crate::cuda::vector::chunk_stores(k);
                }
                (g.load_tables, g.load_taps) = crate::cuda::load_phase::plan(k, opts, g.coarsen);
            }
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
            let padded = padded_const_dims(dims, rank, k, opts.block);
            same = match same {
                None => Some(padded),
                Some(prev) if prev == padded => Some(prev),
                Some(_) => Some(None),
            };
            // Extents the block decides are static only while small: static shared
            // memory is limited to 48 KiB per block in all.
            let n: Option<usize> = dims
                .iter()
                .map(|e| match &e.kind {
                    ExprKind::Const(_) => const_dim(e, k, None),
                    _ => const_dim(e, k, opts.block)
                        .filter(|&n| n * k.arrays[a].ty.elem().size() <= 16 << 10),
                })
                .product();
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
                        .map(|e| blazar_kir::props::inline_locals(e, k))
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
    g
}

impl Gen<'_> {
    /// A `#line` directive for the current statement unless the C line already maps
    /// to it.
    pub fn directive(&mut self) {
        if !self.opts.line_directives || self.line == 0 {
            return;
        }
        if let Some((l, at)) = self.last_directive {
            if l as usize + (self.o.lines - at) == self.line as usize {
                return;
            }
        }
        let _ = writeln!(
            self.o.text,
            "#line {} {}",
            self.line,
            names::c_string(&self.opts.file_name)
        );
        self.o.lines += 1;
        self.last_directive = Some((self.line, self.o.lines));
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
}
