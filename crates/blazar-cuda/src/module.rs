//! A kernel specialisation made ready for the GPU: generated source, cubin (from the
//! disk cache or NVRTC), loaded function, and the facts the launcher needs about it.

use crate::cache::DiskCache;
use crate::compile::{compile_cubin, options};
use crate::memory::driver;
use blazar_codegen_cuda::{generate, CodegenOptions, Generated};
use blazar_kir::{Bind, Kernel, ReadMode, Stmt, StmtKind, Ty, WriteMode};
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

/// The source of a kernel as compiled for the GPU.
pub fn source_of(k: &Kernel, file_name: &str, block: Option<[u32; 3]>) -> Generated {
    let opts = CodegenOptions {
        file_name: file_name.to_string(),
        line_directives: true,
        block,
    };
    generate(k, &opts)
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
