//! A kernel specialisation made ready for the GPU: generated source, cubin (from the
//! disk cache or NVRTC), loaded function, and the facts the launcher needs about it.

use crate::binary::Binary;
use crate::cache::DiskCache;
use crate::compile::{compile_cubin, options};
use crate::memory::driver;
use blazar_codegen_c::cuda::{generate, written_params, CodegenOptions, Generated, ParamLayout};
use blazar_kir::{Bind, Kernel, Ty};
use blazar_launch::{ArgVal, LaunchPlan};
use blazar_runtime::ArrayRef;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule, LaunchConfig};
use cudarc::nvrtc::Ptx;
use std::cell::{OnceCell, RefCell};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Launch counters, reported with `BLAZAR_STATS=1` (compile counts come from the
/// modules themselves, see `CudaBackend::stats`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub compiled: usize,
    pub cached: usize,
    pub compile_ms: f64,
    /// Whole-array host operations run on the device.
    pub array_ops: usize,
    /// Launches, and the host time they took in three parts (µs): preparing one
    /// (uploads, parameters, output set-up; not waiting for a compile), the driver's
    /// launch call, and waiting for the device and reading back (launches with outputs
    /// or errors). Launches deferred behind a compile are counted, not timed.
    pub launches: usize,
    pub prep_us: f64,
    pub call_us: f64,
    pub wait_us: f64,
    /// The host's time from one launch's return to the next launch (the interpreter).
    pub between_us: f64,
}

/// One kernel specialisation: its generated source and what the launcher needs to
/// know about it at once, and its binary, which may still be compiling ([`Binary`]).
pub struct Module {
    pub gen: Generated,
    /// The kernel's name in messages.
    pub name: String,
    /// Per KIR parameter: the kernel stores into (or atomically updates) that array.
    pub writes: Vec<bool>,
    /// The kernel can raise an error (assert, `'checked`, dynamic memory): launches
    /// wait for it so that the error is reported at the launch.
    pub can_fail: bool,
    binary: RefCell<Binary>,
    loaded: OnceCell<(CudaFunction, Arc<CudaModule>)>,
    /// Blocks of its launch shape one multiprocessor holds at once (occupancy), found
    /// at the first launch of a chunked kernel (`Generated::chunked`).
    resident: OnceCell<u32>,
}

/// The plan a launch runs under on the GPU: the program's, except that a default block
/// shape is replaced by [`gpu_block`] for kernels that cannot observe it. Such a block
/// may not divide the data extents ("ragged"): the grid then rounds up and the kernel
/// skips the positions outside ([`ragged`], `CodegenOptions::guard`).
pub fn gpu_plan(k: &Kernel, plan: &LaunchPlan) -> LaunchPlan {
    let mut p = plan.clone();
    if !plan.block_given && k.facts().block_free {
        let r = (plan.rank as usize).clamp(1, 4);
        let b = gpu_block(&plan.data_dims[..r]);
        p.block_dims[..r].copy_from_slice(&b);
    }
    p
}

/// Whether the grid of `plan`, with `coarsen` positions per thread along component 0,
/// holds positions outside the index space: some block extent does not divide its data
/// extent, or the block rows of component 0 are not a multiple of `coarsen`.
pub fn ragged(plan: &LaunchPlan, coarsen: u32) -> bool {
    let b = |i: usize| plan.block_dims[i].max(1);
    (0..4).any(|i| !plan.data_dims[i].is_multiple_of(b(i)))
        || !(plan.data_dims[0] / b(0)).is_multiple_of(coarsen.max(1) as usize)
}

/// A block shape for a kernel that cannot observe it, within 256 threads: from the
/// last (fastest, on `threadIdx.x`) dimension outwards, the largest divisor of each
/// data extent that fits, so warps read long contiguous runs; where that divisor is
/// poor (under 32 and not the whole extent: a prime width such as 1031) and the rank is
/// at most 3, a ragged extent instead (as many threads as are left, at most the extent
/// rounded up to a power of two), whose last block is partly outside.
/// `BLAZAR_CUDA_BLOCK=N` (a power of two from 32 to 1024) asks for N threads instead of
/// 256, for measuring: wider blocks share more of their neighbour columns' cache lines
/// (stencils) and start fewer blocks.
pub fn gpu_block(data: &[usize]) -> Vec<usize> {
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let threads = *THREADS.get_or_init(|| {
        std::env::var("BLAZAR_CUDA_BLOCK")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|n| n.is_power_of_two() && (32..=1024).contains(n))
            .unwrap_or(256)
    });
    gpu_block_within(data, threads)
}

/// [`gpu_block`] within `threads` threads.
pub fn gpu_block_within(data: &[usize], threads: usize) -> Vec<usize> {
    let mut left = threads;
    let mut out = vec![1; data.len()];
    for (i, &d) in data.iter().enumerate().rev() {
        let d = d.max(1);
        let mut b = (1..=left.min(d)).rev().find(|b| d % b == 0).unwrap_or(1);
        if b < 32 && b < d && data.len() <= 3 {
            b = left.min(d.next_power_of_two());
        }
        out[i] = b;
        left /= b;
        if left < 2 {
            break;
        }
    }
    out
}

/// What a kernel's GPU source is specialised on, besides the kernel: one module each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// CUDA's `(x, y, z)` block extents.
    pub block: [u32; 3],
    /// Positions per thread along `pos` component 0, as asked for (the generated
    /// source says what it does: `Generated::coarsen`).
    pub coarsen: u32,
    /// Consecutive positions per thread along the last `pos` component, read as
    /// aligned 4-element chunks (`vector_factor`; 1: one).
    pub vector: u32,
    /// No array the kernel writes is passed twice: pointers are `__restrict__`.
    pub noalias: bool,
    /// The grid holds positions outside the index space (`ragged`): they are skipped.
    pub guard: bool,
    /// Every array argument of the kernel's rank has the index space's extents
    /// (`same_extents`).
    pub same_extents: bool,
    /// The kernel's outputs come back through mapped host memory (`mirror_on`).
    pub mirror: bool,
}

/// Whether kernels with outputs hand them to the host through mapped page-locked
/// memory (`CodegenOptions::mirror`); `BLAZAR_CUDA_MIRROR=0` keeps the copy and the
/// stream wait (for measuring).
pub fn mirror_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("BLAZAR_CUDA_MIRROR").map_or(true, |v| v != "0"))
}

/// Threads a coarsened launch keeps at least: about one full wave of an H100.
pub(crate) const MIN_THREADS: usize = 1 << 18;

/// How many positions each thread runs along `pos` component 0: 8 (4 for 1-d
/// kernels) for large launches of kernels that cannot observe their block, where the
/// threads left still fill the GPU; 1 otherwise. Neighbouring rows then share loads
/// in registers (stencils) and each thread has several loads in flight.
pub fn coarsen_factor(k: &Kernel, plan: &LaunchPlan) -> u32 {
    if plan.block_given || !k.facts().block_free || !(1..=3).contains(&plan.rank) {
        return 1;
    }
    let r = plan.rank as usize;
    let total: usize = plan.data_dims[..r].iter().product();
    let rows = plan.data_dims[0].div_ceil(plan.block_dims[0].max(1));
    // `BLAZAR_CUDA_COARSEN=N` asks for N instead (1: never), for measuring.
    // Read once: an environment lookup locks and allocates, on every launch otherwise.
    static ASKED: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    let asked = *ASKED.get_or_init(|| {
        std::env::var("BLAZAR_CUDA_COARSEN")
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
    });
    // Kernels with outputs (reductions) run as many positions per thread as keep a
    // wave busy: each thread's block reduction is then paid once per run.
    let default = if !k.outputs.is_empty() {
        64
    } else if r == 1 {
        4
    } else {
        8
    };
    let want: u32 = asked.unwrap_or(default).clamp(1, 64);
    std::iter::successors(Some(want), |f| (*f > 2).then_some(f / 2))
        .find(|&f| f >= 2 && rows >= f as usize && total / f as usize >= MIN_THREADS)
        .unwrap_or(1)
}

/// Consecutive positions per thread along the last `pos` component (4 or 1), read as
/// aligned 4-element chunks (`blazar_codegen_c::cuda` `CodegenOptions::vector`): for
/// large rank-2 and rank-3 launches without outputs of kernels that cannot observe
/// their block, whose last extent is a multiple of 4 block widths, when every array
/// argument of the kernel's rank with 4-byte elements has a last extent that is a
/// multiple of 4 and 16-byte aligned data (`ptrs`: the arrays' device addresses).
/// `BLAZAR_CUDA_VECTOR=1` turns it off, `=4` uses it for small launches too (for
/// measuring and for running the golden programs through it).
pub fn vector_factor(
    k: &Kernel,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &[ArrayRef],
    ptrs: &[u64],
) -> u32 {
    static ASKED: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    let asked = *ASKED.get_or_init(|| {
        std::env::var("BLAZAR_CUDA_VECTOR")
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
    });
    if asked == Some(1) {
        return 1;
    }
    let r = plan.rank as usize;
    if plan.block_given || !k.facts().block_free || !(2..=3).contains(&r) || !k.outputs.is_empty() {
        return 1;
    }
    let last = plan.data_dims[r - 1];
    let total: usize = plan.data_dims[..r].iter().product();
    if !last.is_multiple_of(4 * plan.block_dims[r - 1].max(1))
        || (total / 4 < MIN_THREADS && asked != Some(4))
        || ragged(plan, 1)
    {
        return 1;
    }
    for (p, a) in k.params.iter().zip(args) {
        let (Bind::Array(slot), ArgVal::Array(i)) = (p.bind, a) else {
            continue;
        };
        let Some(Ty::Array(t)) = k.arrays.get(slot as usize).map(|d| d.ty) else {
            continue;
        };
        if t.rank as usize != r || t.elem.size() != 4 {
            continue;
        }
        let Some(Ok(dims)) = arrays.get(*i).map(crate::memory::dims_of) else {
            return 1;
        };
        let aligned = ptrs.get(*i).is_some_and(|&p| p % 16 == 0);
        if !aligned || !dims.last().is_some_and(|&n| n % 4 == 0) {
            return 1;
        }
    }
    4
}

/// Whether every array the kernel writes is passed once (no other array parameter
/// is the same array), so that array pointers may be declared `__restrict__`.
/// `writes` is `written_params(k)`, found once per kernel by the caller.
pub fn noalias(k: &Kernel, args: &[ArgVal], arrays: &[ArrayRef], writes: &[bool]) -> bool {
    let array_of = |i: usize| match args.get(i) {
        Some(ArgVal::Array(a)) => arrays.get(*a),
        _ => None,
    };
    (0..k.params.len()).all(|i| {
        let Some(a) = array_of(i).filter(|_| writes.get(i).copied().unwrap_or(true)) else {
            return true;
        };
        (0..k.params.len())
            .filter(|&j| j != i)
            .all(|j| array_of(j).is_none_or(|b| !std::rc::Rc::ptr_eq(&a.data, &b.data)))
    })
}

/// Whether every array argument whose parameter has the kernel's rank has exactly the
/// extents of the launch's index space (and at least one does).
pub fn same_extents(k: &Kernel, plan: &LaunchPlan, args: &[ArgVal], arrays: &[ArrayRef]) -> bool {
    let r = plan.rank as usize;
    let mut any = false;
    for (p, a) in k.params.iter().zip(args) {
        let (Bind::Array(slot), ArgVal::Array(i)) = (p.bind, a) else {
            continue;
        };
        let rank = match k.arrays.get(slot as usize).map(|d| d.ty) {
            Some(Ty::Array(t)) => t.rank as usize,
            _ => continue,
        };
        if rank != r {
            continue;
        }
        let Some(Ok(dims)) = arrays.get(*i).map(crate::memory::dims_of) else {
            return false;
        };
        if dims.len() != r || dims[..] != plan.data_dims[..r] {
            return false;
        }
        any = true;
    }
    any
}

/// The source of a kernel as compiled for the GPU (`shape` `None`: for any shape).
pub fn source_of(k: &Kernel, file_name: &str, shape: Option<Shape>) -> Generated {
    let opts = CodegenOptions {
        file_name: file_name.to_string(),
        line_directives: true,
        block: shape.map(|s| s.block),
        coarsen: shape.map_or(1, |s| s.coarsen),
        vector: shape.map_or(1, |s| s.vector),
        noalias: shape.is_some_and(|s| s.noalias),
        guard: shape.is_some_and(|s| s.guard),
        same_extents: shape.is_some_and(|s| s.same_extents),
        mirror: shape.is_some_and(|s| s.mirror),
    };
    let gen = generate(k, &opts);
    if let (Some(dir), Some(sh)) = (std::env::var_os("BLAZAR_DUMP_CUDA"), shape) {
        // For profiling and bug reports: the exact source each launch compiles.
        let b = sh.block;
        let path = std::path::Path::new(&dir).join(format!(
            "{}_{}x{}x{}_c{}{}{}{}{}{}.cu",
            gen.entry,
            b[0],
            b[1],
            b[2],
            gen.coarsen,
            if gen.vector > 1 { "_v4" } else { "" },
            if sh.noalias { "_noalias" } else { "" },
            if sh.guard { "_guard" } else { "" },
            if sh.same_extents { "_same" } else { "" },
            if gen.params.contains(&ParamLayout::Mirror) {
                "_mirror"
            } else {
                ""
            }
        ));
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(path, &gen.source);
    }
    gen
}

/// A cubin for `gen`, from the cache or compiled now (on this thread).
pub fn cubin_for(
    gen: &Generated,
    kernel: &str,
    arch: u32,
    nvrtc: (i32, i32),
    cache: Option<&DiskCache>,
    stats: &mut Stats,
) -> Result<Vec<u8>, String> {
    let opts = options(arch);
    let key = DiskCache::key(&gen.source, &opts, nvrtc, arch);
    if let Some(bin) = cache.and_then(|c| c.get(&key)) {
        stats.cached += 1;
        return Ok(bin);
    }
    let t = Instant::now();
    let bin = compile_cubin(&gen.source, &format!("{}.cu", gen.entry), &opts)
        .map_err(|f| crate::binary::failure(kernel, &f.log, &gen.source))?;
    stats.compiled += 1;
    stats.compile_ms += t.elapsed().as_secs_f64() * 1000.0;
    blazar_launch::note_compiled(kernel, "the GPU (NVRTC)", t.elapsed());
    if let Some(c) = cache {
        c.put(&key, &bin);
    }
    Ok(bin)
}

impl Module {
    /// The module of `gen`, its binary from the cache or compiling in the background.
    pub fn start(
        k: &Kernel,
        gen: Generated,
        arch: u32,
        nvrtc: (i32, i32),
        cache: &DiskCache,
    ) -> Module {
        let binary = Binary::start(&gen, &k.name, arch, nvrtc, cache);
        Module {
            name: k.name.clone(),
            writes: written_params(k),
            can_fail: gen.can_fail,
            gen,
            binary: RefCell::new(binary),
            loaded: OnceCell::new(),
            resident: OnceCell::new(),
        }
    }

    /// Whether the binary is here (a launch can be issued without waiting).
    pub fn ready(&self) -> bool {
        self.loaded.get().is_some() || self.binary.borrow_mut().arrived()
    }

    /// NVRTC's time for this module, and whether its cubin came from the disk cache.
    pub fn compiled(&self) -> (Option<Duration>, bool) {
        let b = self.binary.borrow();
        let from_cache = matches!(
            &*b,
            Binary::Ready { compiled: None, .. } | Binary::Loaded { compiled: None }
        );
        (b.compiled(), from_cache)
    }

    /// Blocks of `threads` threads with `shared` bytes of dynamic shared memory that one
    /// multiprocessor runs at once (the driver's occupancy of the loaded function; the
    /// block shape and shared size are fixed per module, so it is asked once). `None`
    /// when not loaded or the driver cannot say.
    pub fn resident(&self, threads: u32, shared: usize) -> Option<u32> {
        if let Some(&n) = self.resident.get() {
            return Some(n);
        }
        let (f, _) = self.loaded.get()?;
        let n = f
            .occupancy_max_active_blocks_per_multiprocessor(threads, shared, None)
            .ok()
            .filter(|&n| n > 0)?;
        Some(*self.resident.get_or_init(|| n))
    }

    /// The loaded function, waiting for the compile first if it still runs.
    pub fn func(&self, ctx: &Arc<CudaContext>) -> Result<&CudaFunction, String> {
        if let Some((f, _)) = self.loaded.get() {
            return Ok(f);
        }
        let mut b = self.binary.borrow_mut();
        b.wait();
        let compiled = b.compiled();
        let cubin = match std::mem::replace(&mut *b, Binary::Loaded { compiled }) {
            Binary::Ready { cubin, .. } => cubin,
            Binary::Failed(e) => {
                *b = Binary::Failed(e.clone());
                return Err(e);
            }
            _ => return Err("internal error: a kernel binary was lost".into()),
        };
        let module = ctx
            .load_module(Ptx::from_binary(cubin))
            .map_err(|e| driver("loading a kernel", e))?;
        let func = module
            .load_function(&self.gen.entry)
            .map_err(|e| driver("loading a kernel", e))?;
        Ok(&self.loaded.get_or_init(|| (func, module)).0)
    }
}

#[cfg(test)]
mod tests {
    use super::{coarsen_factor, gpu_block, gpu_plan};
    use blazar_kir::Kernel;
    use blazar_launch::LaunchPlan;

    fn plan(dims: &[usize], block_given: bool) -> LaunchPlan {
        let mut data_dims = [1; 4];
        data_dims[..dims.len()].copy_from_slice(dims);
        LaunchPlan {
            rank: dims.len() as u8,
            data_dims,
            block_dims: [1; 4],
            serial: false,
            block_given,
        }
    }

    #[test]
    fn large_block_free_launches_run_several_rows_per_thread() {
        let k = Kernel {
            name: "k".into(),
            rank: 2,
            params: vec![],
            outputs: vec![],
            vars: vec![],
            arrays: vec![],
            body: vec![],
            calls: Default::default(),
            facts: Default::default(),
        };
        let f = |dims: &[usize], given: bool| coarsen_factor(&k, &gpu_plan(&k, &plan(dims, given)));
        assert_eq!(f(&[4096, 4096], false), 8);
        assert_eq!(
            f(&[1024, 1024], false),
            4,
            "8 would leave under a wave of threads"
        );
        assert_eq!(
            f(&[256, 256], false),
            1,
            "small launches keep one position per thread"
        );
        assert_eq!(
            f(&[4096, 4096], true),
            1,
            "the program's block shape is kept"
        );
        assert_eq!(f(&[1 << 26], false), 4);
        assert_eq!(
            f(&[3, 1 << 22], false),
            2,
            "no more per thread than there are rows"
        );
    }

    #[test]
    fn a_chunked_grid_is_one_wave_of_resident_blocks() {
        use super::{config, one_wave};
        // The three-statement pipeline: 4096x4096x3 under a block of [1, 64, 3], runs
        // of 64 rows; 132 multiprocessors of 8 blocks each.
        let p = gpu_plan(
            &Kernel {
                name: "k".into(),
                rank: 3,
                params: vec![],
                outputs: vec![],
                vars: vec![],
                arrays: vec![],
                body: vec![],
                facts: Default::default(),
                calls: Default::default(),
            },
            &plan(&[4096, 4096, 3], false),
        );
        let mut cfg = config(&p, 0, 64).expect("fits");
        assert_eq!(cfg.grid_dim, (1, 64, 64));
        one_wave(&mut cfg, 3, 132 * 8);
        assert_eq!(cfg.grid_dim, (1, 64, 16), "1024 blocks of 1056 places");
        // Never more blocks than `config` gave, never fewer than one.
        let mut small = config(&plan(&[4096], false), 0, 4).expect("fits");
        let before = small.grid_dim;
        one_wave(&mut small, 1, 132 * 8);
        assert_eq!(small.grid_dim, before);
        let mut wide = config(&plan(&[64, 1 << 20], true), 0, 4).expect("fits");
        one_wave(&mut wide, 2, 1056);
        assert_eq!(wide.grid_dim.1, 1);
    }

    #[test]
    fn gpu_blocks_put_long_rows_on_threadidx_x() {
        assert_eq!(gpu_block(&[8192, 8192]), [1, 256]);
        assert_eq!(gpu_block(&[4096, 4096, 3]), [1, 64, 3]);
        assert_eq!(gpu_block(&[1 << 26]), [256]);
        assert_eq!(gpu_block(&[6, 10]), [6, 10]);
        assert_eq!(gpu_block(&[7, 1]), [7, 1]);
        // A prime width: a ragged block of 256 rather than one thread wide.
        assert_eq!(gpu_block(&[1027, 1031]), [1, 256]);
        assert_eq!(gpu_block(&[100, 1366, 3]), [1, 85, 3]);
        assert_eq!(
            gpu_block(&[5, 6, 7, 1031]),
            [5, 6, 7, 1],
            "rank 4 blocks divide"
        );
        // Wider blocks (`BLAZAR_CUDA_BLOCK`): longer rows on `threadIdx.x`.
        use super::gpu_block_within;
        assert_eq!(gpu_block_within(&[4096, 4096, 3], 1024), [1, 256, 3]);
        assert_eq!(gpu_block_within(&[8192, 8192], 1024), [1, 1024]);
        assert_eq!(
            gpu_block_within(&[8192, 8192], 256),
            gpu_block(&[8192, 8192])
        );
    }
}

/// Grid and block of a plan: the last `pos` index on `x` (see `blazar_codegen_c::cuda`);
/// `coarsen` positions per thread along component 0 divide its block count.
pub fn config(plan: &LaunchPlan, shared: u32, coarsen: u32) -> Result<LaunchConfig, String> {
    let r = plan.rank as usize;
    let b = &plan.block_dims;
    let mut c: Vec<usize> = (0..4)
        .map(|i| plan.data_dims[i].div_ceil(b[i].max(1)))
        .collect();
    c[0] = c[0].div_ceil(coarsen.max(1) as usize);
    let (grid, block) = match r {
        1 => ((c[0], 1, 1), (b[0], 1, 1)),
        2 => ((c[1], c[0], 1), (b[1], b[0], 1)),
        3 => ((c[2], c[1], c[0]), (b[2], b[1], b[0])),
        _ => ((c[3], c[2], c[0] * c[1]), (b[3], b[2], b[0] * b[1])),
    };
    let fit = |x: usize, max: usize| -> Result<u32, String> {
        if x > max {
            return Err(format!(
                "the launch needs {x} blocks along one grid dimension; CUDA allows {max}"
            ));
        }
        Ok(x as u32)
    };
    Ok(LaunchConfig {
        grid_dim: (
            fit(grid.0, i32::MAX as usize)?,
            fit(grid.1, 65535)?,
            fit(grid.2, 65535)?,
        ),
        block_dim: (block.0 as u32, block.1 as u32, block.2 as u32),
        shared_mem_bytes: shared,
    })
}

/// The grid of a chunked launch (`Generated::chunked`): along `pos` component 0 as many
/// blocks as, with the grid's other axes, fill the GPU's resident blocks once (`slots`:
/// blocks per multiprocessor times multiprocessors), between 1 and the `ceil(rows /
/// coarsen)` that [`config`] gave. One wave: no last, partly filled wave of long runs.
/// `BLAZAR_CUDA_WAVE=0` keeps [`config`]'s grid (for measuring).
pub fn one_wave(cfg: &mut LaunchConfig, rank: u8, slots: u64) {
    static OFF: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *OFF.get_or_init(|| std::env::var("BLAZAR_CUDA_WAVE").is_ok_and(|v| v == "0")) {
        return;
    }
    let g = &mut cfg.grid_dim;
    let (axis, other) = match rank {
        1 => (&mut g.0, 1u64),
        2 => (&mut g.1, g.0 as u64),
        3 => (&mut g.2, g.0 as u64 * g.1 as u64),
        _ => return,
    };
    let fit = (slots / other.max(1)).max(1);
    *axis = (*axis as u64).min(fit) as u32;
}
