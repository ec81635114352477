//! The CUDA backend: runs specialised kernels on the GPU (`interp::Backend`).
//!
//! Per launch: find the kernel's module (generated source → cubin from the disk cache
//! or NVRTC → loaded once per specialisation), make every array argument current on the
//! device, pack the parameters, launch asynchronously on one stream, and mark written
//! arrays as newer on the device. Kernels that can raise errors and kernels with
//! outputs wait for the device so that errors and values come back at the launch; all
//! other launches return at once (a host read of their results waits, see `memory`).

mod launch;
mod slots;
mod started;

pub(crate) use launch::gpu_shape;

use crate::cache::DiskCache;
use crate::compile::nvrtc_version;
use crate::fasthash::FastMap;
use crate::memory::driver;
use crate::module::{source_of, Module, Shape, Stats};
use blazar_kir::Kernel;
use blazar_launch::{ArgVal, KValue, KernelError, KernelErrorKind, LaunchPlan, LaunchTiming};
use blazar_launch::{ArrayOp, Backend};
use blazar_runtime::{ArrayRef, ElemType, Residency, Value};
use cudarc::driver::{CudaContext, CudaSlice, CudaStream};
use std::rc::Rc;
use std::sync::Arc;

/// Kernel outputs one launch may have.
const MAX_OUTPUTS: usize = 32;
/// Bytes of the error record (`bz_err` of the CUDA prelude: code, line, a, b, the
/// inverted key of the failing position, a lock); the outputs' accumulators follow it
/// (`slots`).
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
    modules: FastMap<(usize, Shape), (Rc<Kernel>, Rc<Module>)>,
    /// What each kernel's launches need to know of it, found at its first launch.
    kernels: FastMap<usize, PerKernel>,
    /// The error record and the outputs' accumulators, and their read-back (`slots`).
    slots: slots::Slots,
    pool: Option<(CudaSlice<u8>, CudaSlice<u64>)>,
    max_shared_optin: usize,
    /// Multiprocessors of the GPU (chunked launches fill them once: `module::one_wave`).
    sms: u32,
    stats: Stats,
    /// cuBLAS for matrix products, opened on first use.
    blas: Option<crate::blas::Blas>,
    /// Events around each kernel under `--profile`.
    clock: Option<crate::timer::KernelClock>,
    /// When the last launch returned (the host's time between launches, for stats).
    returned: Option<std::time::Instant>,
    /// When the first launch began.
    first: Option<std::time::Instant>,
    /// Launches with outputs or an error record leave reading them back to
    /// [`CudaBackend::finish_started`] (one GPU of several running a split reduction).
    pub(crate) start_only: bool,
    /// The launch whose read-back `start_only` left for later.
    pub(crate) started: Option<(String, Rc<crate::module::Module>)>,
}

/// Facts of one kernel that every launch of it uses (found once, not per launch).
pub(crate) struct PerKernel {
    /// Held, so that the address that keys it stays this kernel's.
    _keep: Rc<Kernel>,
    /// Its expressions nest too deeply for NVRTC (`visit::MAX_COMPILED_DEPTH`): it runs
    /// on the CPU.
    pub too_deep: bool,
    /// Per parameter: an array the kernel writes (`visit::written_params`).
    pub writes: Rc<[bool]>,
}

impl PerKernel {
    fn of(k: &Rc<Kernel>) -> PerKernel {
        PerKernel {
            _keep: k.clone(),
            // Calls of functions (recursion) are the C++ tier's only: on the CPU too.
            too_deep: blazar_kir::visit::max_expr_depth(k) > blazar_kir::visit::MAX_COMPILED_DEPTH
                || blazar_kir::calls::has_calls(k),
            writes: blazar_kir::visit::written_params(k).into(),
        }
    }
}

fn bad(msg: impl Into<String>) -> KernelError {
    KernelError::new(0, KernelErrorKind::BadLaunch, msg)
}

impl CudaBackend {
    /// Opens GPU 0. Fails with a one-line reason when there is no usable GPU or CUDA.
    pub fn new(file_name: &str) -> Result<CudaBackend, String> {
        CudaBackend::on_gpu(0, file_name)
    }

    /// Opens GPU `ordinal` (one of several: `--devices`).
    pub fn on_gpu(ordinal: usize, file_name: &str) -> Result<CudaBackend, String> {
        crate::probe()?;
        let ctx =
            CudaContext::new(ordinal).map_err(|e| format!("no usable GPU {ordinal} ({e})"))?;
        // One stream, in order: cudarc's per-slice event tracking is not needed.
        // SAFETY: nothing has been allocated on this context yet.
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.default_stream();
        let (major, minor) = ctx
            .compute_capability()
            .map_err(|e| driver("querying the GPU", e))?;
        let device_name = ctx.name().unwrap_or_else(|_| "GPU".into());
        let slots = slots::Slots::new(&ctx, &stream)?;
        let max_shared_optin = ctx
            .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .unwrap_or(48 << 10) as usize;
        let sms = ctx
            .attribute(
                cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            )
            .map_or(0, |n| n.max(0) as u32);
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
            modules: FastMap::default(),
            kernels: FastMap::default(),
            slots,
            pool: None,
            max_shared_optin,
            sms,
            stats: Stats::default(),
            blas: None,
            clock: None,
            returned: None,
            first: None,
            start_only: false,
            started: None,
        })
    }

    /// A handle for sharing device memory with other libraries (`external`).
    pub fn external(&self) -> crate::External {
        crate::External::new(
            self.pool_mem.clone(),
            self.ctx.clone(),
            self.arch,
            self.nvrtc,
            self.cache.clone(),
        )
    }

    /// The kernel for one block shape (`blockDim` is a constant in the source and
    /// `threadIdx` has a known range, so the compiler can drop bounds checks), its
    /// binary from the disk cache or compiling in the background.
    fn module(&mut self, k: &Rc<Kernel>, shape: Shape) -> Rc<Module> {
        let key = (Rc::as_ptr(k) as usize, shape);
        if let Some((_, m)) = self.modules.get(&key) {
            return m.clone();
        }
        let gen = source_of(k, &self.file_name, Some(shape));
        let m = Rc::new(Module::start(k, gen, self.arch, self.nvrtc, &self.cache));
        self.modules.insert(key, (k.clone(), m.clone()));
        m
    }
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
        let entered = std::time::Instant::now();
        if let Some(t) = self.returned {
            self.stats.between_us += (entered - t).as_secs_f64() * 1e6;
        }
        self.first.get_or_insert(entered);
        let r = self.launch_now(k, plan, args, arrays);
        self.returned = Some(std::time::Instant::now());
        r
    }

    fn array_op(&mut self, op: ArrayOp, args: &[Value]) -> Option<Result<Value, String>> {
        let (ArrayOp::MatMul, [Value::Array(a), Value::Array(b)]) = (op, args) else {
            return None;
        };
        // cuBLAS works on the stream and on arrays deferred launches may write.
        if let Err(e) = self.pool_mem.queue().flush() {
            return Some(Err(e));
        }
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
        let mut st = self.stats;
        for (_, m) in self.modules.values() {
            match m.compiled() {
                (Some(t), _) => {
                    st.compiled += 1;
                    st.compile_ms += t.as_secs_f64() * 1e3;
                }
                (None, true) => st.cached += 1,
                (None, false) => {}
            }
        }
        Some(format!(
            "stats: compiled={} cached={} compile_ms={:.1} device_ops={} launches={} \
             prep_us={:.1} call_us={:.1} wait_us={:.1} between_us={:.1} span_us={:.1} device={} sm_{}",
            st.compiled,
            st.cached,
            st.compile_ms,
            st.array_ops,
            st.launches,
            per(st.prep_us),
            per(st.call_us),
            per(st.wait_us),
            per(st.between_us),
            match (self.first, self.returned) {
                (Some(a), Some(b)) => per((b - a).as_secs_f64() * 1e6),
                _ => 0.0,
            },
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
