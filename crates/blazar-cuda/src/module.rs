//! A kernel specialisation made ready for the GPU: generated source, cubin (from the
//! disk cache or NVRTC), loaded function, and the facts the launcher needs about it.

use crate::cache::DiskCache;
use crate::compile::{compile_cubin, options};
use crate::memory::driver;
use blazar_codegen_cuda::{generate, CodegenOptions, Generated};
use blazar_cpu::LaunchPlan;
use blazar_kir::{Bind, Expr, ExprKind, Kernel, ReadMode, Special, Stmt, StmtKind, Ty, WriteMode};
use cudarc::driver::{CudaContext, CudaFunction, CudaModule};
use cudarc::nvrtc::Ptx;
use std::sync::Arc;
use std::time::Instant;

/// Compilation counters, reported with `BLAZAR_STATS=1`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub compiled: usize,
    pub cached: usize,
    pub compile_ms: f64,
    /// Whole-array host operations run on the device.
    pub array_ops: usize,
}

/// One loaded kernel.
pub struct Module {
    pub gen: Generated,
    pub func: CudaFunction,
    _module: Arc<CudaModule>,
    /// Per KIR parameter: the kernel stores into (or atomically updates) that array.
    pub writes: Vec<bool>,
    /// The kernel can raise an error (assert, `'checked`, dynamic memory): launches
    /// wait for it so that the error is reported at the launch.
    pub can_fail: bool,
}

/// Whether a kernel's results cannot depend on the block shape: it reads no block
/// special (`blkpos`, `blkdim`, `blkidx`, `blkcnt`) and uses no shared memory or
/// barrier. Such kernels may run under a block shape the backend picks.
pub fn block_free(k: &Kernel) -> bool {
    fn expr(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Special(s) => matches!(s, Special::Pos | Special::WarpSize),
            ExprKind::Const(_) | ExprKind::Var(_) | ExprKind::Size { .. } | ExprKind::Numel(_) => {
                true
            }
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::Splat(a)
            | ExprKind::VecReduce(_, a) => expr(a),
            ExprKind::Binary(_, a, b) | ExprKind::Lane(a, b) => expr(a) && expr(b),
            ExprKind::Select(a, b, c) => expr(a) && expr(b) && expr(c),
            ExprKind::Math(_, xs) | ExprKind::VecLit(xs) => xs.iter().all(expr),
            ExprKind::Load { index, .. } => index.iter().all(expr),
        }
    }
    fn block(b: &[Stmt]) -> bool {
        b.iter().all(|s| match &s.kind {
            StmtKind::Assign { value, .. } | StmtKind::Accumulate { value, .. } => expr(value),
            StmtKind::SetLane { lane, value, .. } => expr(lane) && expr(value),
            StmtKind::Store { index, value, .. } | StmtKind::Update { index, value, .. } => {
                index.iter().all(expr) && expr(value)
            }
            StmtKind::If { cond, then, els } => expr(cond) && block(then) && block(els),
            StmtKind::While { cond, body } => expr(cond) && block(body),
            StmtKind::For {
                start,
                step,
                end,
                body,
                ..
            } => expr(start) && expr(step) && expr(end) && block(body),
            StmtKind::Assert { cond } => expr(cond),
            StmtKind::AllocLocal { dims, .. } => dims.iter().all(expr),
            StmtKind::Barrier | StmtKind::AllocShared { .. } => false,
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return => true,
        })
    }
    block(&k.body)
}

/// The plan a launch runs under on the GPU: the program's, except that a default block
/// shape is replaced by [`gpu_block`] for kernels that cannot observe it.
pub fn gpu_plan(k: &Kernel, plan: &LaunchPlan) -> LaunchPlan {
    let mut p = plan.clone();
    if !plan.block_given && block_free(k) {
        let r = (plan.rank as usize).clamp(1, 4);
        let b = gpu_block(&plan.data_dims[..r]);
        p.block_dims[..r].copy_from_slice(&b);
    }
    p
}

/// A block shape for a kernel that cannot observe it: from the last (fastest, on
/// `threadIdx.x`) dimension outwards, each extent the largest divisor of the data
/// extent that keeps the block within 256 threads, so warps read long contiguous runs.
pub fn gpu_block(data: &[usize]) -> Vec<usize> {
    let mut left = 256usize;
    let mut out = vec![1; data.len()];
    for (i, &d) in data.iter().enumerate().rev() {
        let b = (1..=left.min(d.max(1)))
            .rev()
            .find(|b| d % b == 0)
            .unwrap_or(1);
        out[i] = b;
        left /= b;
        if left < 2 {
            break;
        }
    }
    out
}

/// The source of a kernel as compiled for the GPU.
pub fn source_of(k: &Kernel, file_name: &str, block: Option<[u32; 3]>) -> Generated {
    let opts = CodegenOptions {
        file_name: file_name.to_string(),
        line_directives: true,
        block,
    };
    let gen = generate(k, &opts);
    if let (Some(dir), Some(b)) = (std::env::var_os("BLAZAR_DUMP_CUDA"), block) {
        // For profiling and bug reports: the exact source each launch compiles.
        let path =
            std::path::Path::new(&dir).join(format!("{}_{}x{}x{}.cu", gen.entry, b[0], b[1], b[2]));
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(path, &gen.source);
    }
    gen
}

/// A cubin for `gen`, from the cache or compiled now.
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
    let bin = compile_cubin(&gen.source, &format!("{}.cu", gen.entry), &opts).map_err(|f| {
        format!(
            "internal error: the CUDA C generated for kernel `{kernel}` does not compile \
             (please report)\n{}\n--- generated source ---\n{}",
            f.log, gen.source
        )
    })?;
    stats.compiled += 1;
    stats.compile_ms += t.elapsed().as_secs_f64() * 1000.0;
    if let Some(c) = cache {
        c.put(&key, &bin);
    }
    Ok(bin)
}

impl Module {
    pub fn load(
        ctx: &Arc<CudaContext>,
        k: &Kernel,
        gen: Generated,
        cubin: Vec<u8>,
    ) -> Result<Module, String> {
        let module = ctx
            .load_module(Ptx::from_binary(cubin))
            .map_err(|e| driver("loading a kernel", e))?;
        let func = module
            .load_function(&gen.entry)
            .map_err(|e| driver("loading a kernel", e))?;
        Ok(Module {
            writes: written_params(k),
            can_fail: can_fail(k),
            gen,
            func,
            _module: module,
        })
    }
}

fn walk<'a>(b: &'a [Stmt], f: &mut dyn FnMut(&'a StmtKind)) {
    for s in b {
        f(&s.kind);
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

/// Which parameters name arrays the kernel writes.
pub fn written_params(k: &Kernel) -> Vec<bool> {
    let mut written = vec![false; k.arrays.len()];
    walk(&k.body, &mut |s| {
        if let StmtKind::Store { arr, .. } | StmtKind::Update { arr, .. } = s {
            if let Some(w) = written.get_mut(*arr as usize) {
                *w = true;
            }
        }
    });
    k.params
        .iter()
        .map(|p| match p.bind {
            Bind::Array(a) => written.get(a as usize).copied().unwrap_or(true),
            Bind::Var(_) => false,
        })
        .collect()
}

/// Whether the kernel can record an error.
pub fn can_fail(k: &Kernel) -> bool {
    let mut fails = k.arrays.iter().any(|a| {
        matches!(&a.ty, Ty::Array(t) if t.read == ReadMode::Checked || t.write == WriteMode::Checked)
    });
    walk(&k.body, &mut |s| {
        if matches!(
            s,
            StmtKind::Assert { .. } | StmtKind::AllocLocal { .. } | StmtKind::AllocShared { .. }
        ) {
            fails = true;
        }
    });
    fails
}

#[cfg(test)]
mod tests {
    use super::gpu_block;

    #[test]
    fn gpu_blocks_put_long_rows_on_threadidx_x() {
        assert_eq!(gpu_block(&[8192, 8192]), [1, 256]);
        assert_eq!(gpu_block(&[4096, 4096, 3]), [1, 64, 3]);
        assert_eq!(gpu_block(&[1 << 26]), [256]);
        assert_eq!(gpu_block(&[6, 10]), [6, 10]);
        assert_eq!(gpu_block(&[7, 1]), [7, 1]);
    }
}
