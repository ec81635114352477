//! The CUDA backend: runs specialised kernels on the GPU (`interp::Backend`).
//!
//! Per launch: find the kernel's module (generated source → cubin from the disk cache
//! or NVRTC → loaded once per specialisation), make every array argument current on the
//! device, pack the parameters, launch asynchronously on one stream, and mark written
//! arrays as newer on the device. Kernels that can raise errors and kernels with
//! outputs wait for the device so that errors and values come back at the launch; all
//! other launches return at once (a host read of their results waits, see `memory`).

use crate::compile::nvrtc_version;
use crate::memory::{driver, ensure_on_device, mark_written, oom_or};
use crate::module::{cubin_for, source_of, Module, Shape, Stats};
use crate::params::scalar_bytes;
use crate::{cache::DiskCache, errors};
use blazar_codegen_cuda::{dynamic_shared_bytes, ParamLayout};
use blazar_kir::{Bind, Kernel};
use blazar_launch::{ArgVal, KValue, KernelError, KernelErrorKind, LaunchPlan, LaunchTiming};
use blazar_launch::{ArrayOp, Backend};
use blazar_runtime::{ArrayRef, ElemType, Residency, Value};
use cudarc::driver::{
    CudaContext, CudaSlice, CudaStream, DevicePtr, PinnedHostSlice, PushKernelArg,
};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Kernel outputs one launch may have.
const MAX_OUTPUTS: usize = 32;
/// Bytes of the error record (`bz_err` of the CUDA prelude: code, line, a, b, the
/// inverted key of the failing position, a lock).
pub(crate) const REC: usize = 32;

/// Bytes of the device pool for dynamic kernel memory (allocated on first use).
const POOL_BYTES: usize = 256 << 20;

/// A GPU and everything Blazar keeps on it.
pub struct CudaBackend {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    /// Device memory of arrays, reused by size, and the stream's queue.
    pub(crate) pool_mem: Rc<crate::pool::Pool>,
    pub arch: u32,
    pub device_name: String,
    nvrtc: (i32, i32),
    cache: DiskCache,
    file_name: String,
    /// Loaded kernels by specialisation and block shape (the interpreter keeps each
    /// `Rc<Kernel>` alive for the whole run; the entry holds a clone so the address
    /// cannot be reused).
    modules: HashMap<(usize, Shape), (Rc<Kernel>, Rc<Module>)>,
    /// Per kernel (held, so the address stays its own): whether its expressions nest
    /// too deeply for NVRTC (`visit::MAX_COMPILED_DEPTH`); those run on the CPU.
    too_deep: HashMap<usize, (Rc<Kernel>, bool)>,
    /// The error record (`REC` bytes) followed by one 16-byte accumulator per kernel
    /// output: one allocation, read back with one copy.
    scratch: CudaSlice<u8>,
    /// Whether the output slots of `scratch` hold zeros on the device (cleared after
    /// each read-back, off the host's path): a sum's launch then sets up nothing.
    slots_zero: bool,
    /// Pinned host memory that `scratch` is read back into: one direct copy, where
    /// pageable memory would take a staged one (the wait after every launch that can
    /// fail or has outputs).
    readback: PinnedHostSlice<u8>,
    pool: Option<(CudaSlice<u8>, CudaSlice<u64>)>,
    max_shared_optin: usize,
    stats: Stats,
    /// cuBLAS for matrix products, opened on first use.
    blas: Option<crate::blas::Blas>,
    /// Events around each kernel under `--profile`.
    clock: Option<crate::timer::KernelClock>,
}

fn bad(msg: impl Into<String>) -> KernelError {
    KernelError::new(0, KernelErrorKind::BadLaunch, msg)
}

impl CudaBackend {
    /// Opens GPU 0. Fails with a one-line reason when there is no usable GPU or CUDA.
    pub fn new(file_name: &str) -> Result<CudaBackend, String> {
        crate::probe()?;
        let ctx = CudaContext::new(0).map_err(|e| format!("no usable GPU ({e})"))?;
        // One stream, in order: cudarc's per-slice event tracking is not needed.
        // SAFETY: nothing has been allocated on this context yet.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let (major, minor) = ctx
            .compute_capability()
            .map_err(|e| driver("querying the GPU", e))?;
        let device_name = ctx.name().unwrap_or_else(|_| "GPU".into());
        let scratch = stream
            .alloc_zeros::<u8>(REC + 16 * MAX_OUTPUTS)
            .map_err(|e| driver("an allocation", e))?;
        // SAFETY: plain bytes, only read after a copy into them has completed.
        let readback = unsafe { ctx.alloc_pinned::<u8>(REC + 16 * MAX_OUTPUTS) }
            .map_err(|e| driver("a pinned host allocation", e))?;
        let max_shared_optin = ctx
            .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .unwrap_or(48 << 10) as usize;
        Ok(CudaBackend {
            ctx,
            pool_mem: Rc::new(crate::pool::Pool::new(Rc::new(crate::queue::Queue::new(
                stream.clone(),
            )))),
            stream,
            arch: (major * 10 + minor) as u32,
            device_name,
            nvrtc: nvrtc_version()?,
            cache: DiskCache::default_location(),
            file_name: file_name.to_string(),
            modules: HashMap::new(),
            too_deep: HashMap::new(),
            scratch,
            slots_zero: true,
            readback,
            pool: None,
            max_shared_optin,
            stats: Stats::default(),
            blas: None,
            clock: None,
        })
    }

    /// The kernel compiled for one block shape: `blockDim` is a constant in the source
    /// and `threadIdx` has a known range, so the compiler can drop bounds checks.
    fn module(&mut self, k: &Rc<Kernel>, shape: Shape) -> Result<Rc<Module>, KernelError> {
        let key = (Rc::as_ptr(k) as usize, shape);
        if let Some((_, m)) = self.modules.get(&key) {
            return Ok(m.clone());
        }
        let gen = source_of(k, &self.file_name, Some(shape));
        let cubin = cubin_for(
            &gen,
            &k.name,
            self.arch,
            self.nvrtc,
            Some(&self.cache),
            &mut self.stats,
        )
        .map_err(bad)?;
        let m = Rc::new(Module::load(&self.ctx, k, gen, cubin).map_err(bad)?);
        self.modules.insert(key, (k.clone(), m.clone()));
        Ok(m)
    }

    fn pool(&mut self) -> Result<(u64, u64, u64), String> {
        if self.pool.is_none() {
            let base = self
                .stream
                .alloc_zeros::<u8>(POOL_BYTES)
                .map_err(|e| oom_or(e, POOL_BYTES))?;
            let top = self
                .stream
                .alloc_zeros::<u64>(1)
                .map_err(|e| driver("an allocation", e))?;
            self.pool = Some((base, top));
        }
        let (base, top) = self.pool.as_mut().expect("allocated above");
        self.stream
            .memset_zeros(top)
            .map_err(|e| driver("resetting the kernel memory pool", e))?;
        let (b, _s1) = base.device_ptr(&self.stream);
        let (t, _s2) = top.device_ptr(&self.stream);
        Ok((b, POOL_BYTES as u64, t))
    }

    /// Waits for the device, reads the error record and `outputs` accumulators (one
    /// copy), and clears a recorded error so the next launch starts clean.
    fn read_back(&mut self, kernel: &str, outputs: usize) -> Result<Vec<u8>, KernelError> {
        let n = REC + 16 * outputs;
        let failed = |e| bad(format!("{} (in kernel `{kernel}`)", driver("a kernel", e)));
        self.stream
            .memcpy_dtoh(&self.scratch.slice(0..n), &mut self.readback)
            .and_then(|()| self.pool_mem.queue().wait())
            .map_err(failed)?;
        let bytes = self.readback.as_slice().map_err(failed)?[..n].to_vec();
        if outputs > 0 {
            // Cleared for the next launch while the host goes on (same stream, so after
            // the copy above).
            self.slots_zero = self
                .stream
                .memset_zeros(&mut self.scratch.slice_mut(REC..REC + 16 * MAX_OUTPUTS))
                .is_ok();
        }
        let word = |i: usize| {
            i32::from_le_bytes([
                bytes[4 * i],
                bytes[4 * i + 1],
                bytes[4 * i + 2],
                bytes[4 * i + 3],
            ])
        };
        let rec = [word(0), word(1), word(2), word(3)];
        if rec[0] == 0 {
            return Ok(bytes);
        }
        self.stream
            .memset_zeros(&mut self.scratch.slice_mut(0..REC))
            .map_err(|e| bad(driver("resetting the error record", e)))?;
        Err(errors::decode(rec))
    }
}

/// What a launch's source is specialised on: its plan's CUDA block, the coarsening
/// factor and whether array pointers may be `__restrict__`.
pub(crate) fn gpu_shape(
    k: &Kernel,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &[ArrayRef],
) -> Result<Shape, KernelError> {
    let b = crate::module::config(plan, 0, 1).map_err(bad)?.block_dim;
    let coarsen = crate::module::coarsen_factor(k, plan);
    Ok(Shape {
        block: [b.0, b.1, b.2],
        coarsen,
        noalias: crate::module::noalias(k, args, arrays),
        guard: crate::module::ragged(plan, coarsen),
        same_extents: crate::module::same_extents(k, plan, args, arrays),
    })
}

/// Two matrices of one real element type, large enough (16K elements each) that a
/// product on the GPU pays for copying them there.
fn large_matrices(a: &ArrayRef, b: &ArrayRef) -> bool {
    let (Ok(x), Ok(y)) = (a.meta(), b.meta()) else {
        return false;
    };
    x.dims.len() == 2
        && y.dims.len() == 2
        && x.elem() == y.elem()
        && matches!(x.elem(), ElemType::F32 | ElemType::F64)
        && x.len() >= 1 << 14
        && y.len() >= 1 << 14
}

impl Backend for CudaBackend {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn keeps_arrays(&self) -> bool {
        true
    }

    fn alloc(&mut self, dims: Vec<usize>, elem: ElemType) -> Result<ArrayRef, String> {
        // Device memory only: the host buffer appears on the first host read.
        let (a, _) = crate::memory::new_device_array(&self.pool_mem, dims, elem)?;
        a.data.set_residency(Residency::Device);
        Ok(a)
    }

    fn fuse_min(&self) -> usize {
        // Smaller host arrays stay on the host (arrays already on the device fuse at
        // any size, see `interp::fuse`).
        1 << 14
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        if let Some(c) = self.clock.as_mut() {
            c.reset();
        }
        if plan.serial {
            // `serial_do` promises one position after another: the CPU runs it.
            return Ok(None);
        }
        if plan.data_dims.iter().any(|&d| d == 0) {
            return Ok(Some(crate::errors::empty_outputs(k)));
        }
        let deep = &mut self
            .too_deep
            .entry(Rc::as_ptr(k) as usize)
            .or_insert_with(|| {
                let d = blazar_kir::visit::max_expr_depth(k);
                (k.clone(), d > blazar_kir::visit::MAX_COMPILED_DEPTH)
            });
        if deep.1 {
            return Ok(None);
        }
        self.pool_mem.queue().issue();
        let started = std::time::Instant::now();
        // The default block shape is only a suggestion for kernels that cannot observe
        // it: those run under the GPU's own choice (long contiguous rows per warp).
        let plan = &crate::module::gpu_plan(k, plan);
        let loaded = self.modules.len();
        let m = self.module(k, gpu_shape(k, plan, args, arrays)?)?;
        if let Some(c) = self.clock.as_mut().filter(|_| self.modules.len() > loaded) {
            c.compile = started.elapsed();
        }
        let mut ptrs = Vec::with_capacity(arrays.len());
        for a in arrays {
            ptrs.push(ensure_on_device(a, &self.pool_mem).map_err(bad)?);
        }
        let var_value = |v: u32| -> Option<i64> {
            k.params
                .iter()
                .zip(args)
                .find_map(|(p, a)| match (p.bind, a) {
                    (Bind::Var(x), ArgVal::Value(KValue::Int(i))) if x == v => Some(*i),
                    _ => None,
                })
        };
        let shared = match m.gen.shared_bytes {
            Some(_) => 0,
            None => {
                let blk: Vec<i64> = plan.block_dims[..plan.rank as usize]
                    .iter()
                    .map(|&b| b as i64)
                    .collect();
                // Extents the host cannot compute: reserve the default maximum; the
                // kernel reports an allocation that does not fit (error record).
                dynamic_shared_bytes(&m.gen, &blk, &var_value).unwrap_or(48 << 10)
            }
        };
        if shared > self.max_shared_optin {
            return Err(bad(format!(
                "the kernel needs {shared} bytes of shared memory per block; this GPU has {}",
                self.max_shared_optin
            )));
        }
        if shared > 48 << 10 {
            m.func
                .set_attribute(
                    cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    shared as i32,
                )
                .map_err(|e| bad(driver("setting the shared memory size", e)))?;
        }
        let cfg = crate::module::config(plan, shared as u32, m.gen.coarsen).map_err(bad)?;
        // Kernel outputs: 16-byte accumulators after the error record, each starting
        // at the identity of its operator (one copy for all).
        let nout = m.gen.outputs.len();
        if nout > MAX_OUTPUTS {
            return Err(bad(format!(
                "a kernel may have at most {MAX_OUTPUTS} outputs"
            )));
        }
        if nout > 0 {
            let mut init = vec![0u8; 16 * nout];
            for (i, o) in m.gen.outputs.iter().enumerate() {
                let b = scalar_bytes(&errors::identity(o.combine, o.ty), o.ty);
                init[16 * i..16 * i + b.len()].copy_from_slice(&b);
            }
            let mut slots = self.scratch.slice_mut(REC..REC + 16 * nout);
            // Sums start at zero bits: the slots already hold them after a read-back
            // (else an asynchronous memset, where a copy from host memory would wait
            // for the host).
            let zero = init.iter().all(|&b| b == 0);
            if !(zero && self.slots_zero) {
                if zero {
                    self.stream.memset_zeros(&mut slots)
                } else {
                    self.stream.memcpy_htod(&init, &mut slots)
                }
                .map_err(|e| bad(driver("setting up kernel outputs", e)))?;
            }
            // This launch writes them; the read-back clears them again.
            self.slots_zero = false;
        }
        let base = self.scratch.device_ptr(&self.stream).0;
        let mut pool = None;
        if m.gen.params.iter().any(|p| matches!(p, ParamLayout::Pool)) {
            pool = Some(self.pool().map_err(bad)?);
        }
        let params = crate::params::pack(&m.gen.params, args, arrays, &ptrs, plan, base, pool)
            .map_err(bad)?;
        let mut builder = self.stream.launch_builder(&m.func);
        for p in &params {
            builder.arg(p);
        }
        let prepared = std::time::Instant::now();
        // SAFETY: the parameters are laid out exactly as the generated kernel declares
        // them (`ParamLayout`), every pointer is a live device allocation that outlives
        // the launch (arrays are kept by their stores, outputs until the copy below).
        if let Some(c) = self.clock.as_mut() {
            c.before(&self.stream);
        }
        unsafe { builder.launch(cfg) }
            .map_err(|e| bad(format!("launching kernel `{}` failed: {e}", k.name)))?;
        if let Some(c) = self.clock.as_mut() {
            c.after(&self.stream);
        }
        let called = std::time::Instant::now();
        self.stats.launches += 1;
        self.stats.prep_us += (prepared - started).as_secs_f64() * 1e6;
        self.stats.call_us += (called - prepared).as_secs_f64() * 1e6;
        for (idx, (p, a)) in k.params.iter().zip(args).enumerate() {
            if let (Bind::Array(_), ArgVal::Array(i)) = (p.bind, a) {
                if m.writes.get(idx).copied().unwrap_or(true) {
                    mark_written(&arrays[*i]);
                }
            }
        }
        if !m.can_fail && nout == 0 {
            return Ok(Some(Vec::new()));
        }
        let bytes = self.read_back(&k.name, nout)?;
        self.stats.wait_us += called.elapsed().as_secs_f64() * 1e6;
        Ok(Some(
            m.gen
                .outputs
                .iter()
                .enumerate()
                .map(|(i, o)| errors::finish(o, &bytes[REC + 16 * i..REC + 16 + 16 * i]))
                .collect(),
        ))
    }

    fn array_op(&mut self, op: ArrayOp, args: &[Value]) -> Option<Result<Value, String>> {
        let (ArrayOp::MatMul, [Value::Array(a), Value::Array(b)]) = (op, args) else {
            return None;
        };
        let blas = self
            .blas
            .get_or_insert_with(|| crate::blas::Blas::open(&self.stream));
        self.pool_mem.queue().issue();
        if large_matrices(a, b) {
            // A large product runs on cuBLAS wherever its operands are: host operands
            // are uploaded (and stay on the device for the next use).
            for r in [a, b] {
                if let Err(e) = crate::memory::ensure_on_device(r, &self.pool_mem) {
                    return Some(Err(e));
                }
            }
        }
        let r = blas.product(&self.pool_mem, a, b);
        self.stats.array_ops += r.is_some() as usize;
        r
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        self.read_back("(last launch)", 0).map(|_| ())
    }

    fn stats(&self) -> Option<String> {
        let per = |us: f64| us / self.stats.launches.max(1) as f64;
        Some(format!(
            "stats: compiled={} cached={} compile_ms={:.1} device_ops={} launches={} \
             prep_us={:.1} call_us={:.1} wait_us={:.1} device={} sm_{}",
            self.stats.compiled,
            self.stats.cached,
            self.stats.compile_ms,
            self.stats.array_ops,
            self.stats.launches,
            per((self.stats.prep_us - self.stats.compile_ms * 1e3).max(0.0)),
            per(self.stats.call_us),
            per(self.stats.wait_us),
            self.device_name.replace(' ', "_"),
            self.arch
        ))
    }

    fn set_profiling(&mut self, on: bool) {
        self.clock = if on {
            crate::timer::KernelClock::new(&self.stream).ok()
        } else {
            None
        };
    }

    fn last_timing(&mut self) -> LaunchTiming {
        self.clock
            .as_mut()
            .map_or_else(LaunchTiming::default, |c| LaunchTiming {
                compile: c.compile,
                device: c.take(),
            })
    }
}
