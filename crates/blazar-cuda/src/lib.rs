//! The CUDA runtime of Blazar: the only crate that calls CUDA (through cudarc, loaded
//! dynamically, so the `blazar` binary runs where CUDA is absent).
//!
//! - [`probe`] says whether CUDA can be used here, without panicking (cudarc panics
//!   when a library is missing, so presence is checked first).
//! - [`CudaBackend`] runs kernels on GPU 0 (`blazar run --device cuda|auto`);
//!   [`LazyCuda`] opens it at its first use (`--device auto`: a program that never
//!   touches the device does not pay the context's creation).
//! - [`NvrtcCheck`] runs kernels on the CPU but first compiles each specialisation with
//!   NVRTC (`blazar run --check-cuda`): code generation is checked without a GPU.
//! - [`External`] shares device memory with other libraries (DLPack from Python).
//! - `compile` (NVRTC to cubin), `cache` (disk cache of cubins), `memory` (device
//!   copies and residency), `params` (launch parameters), `module` (loaded kernels),
//!   `errors` (error records, outputs), `queue` (the stream and the host's waits for
//!   it), `timer` (CUDA events for `tic`/`toc`), `props` (what GPU 0 offers per
//!   multiprocessor: [`device_info`], for the debugger's occupancy).

mod backend;
mod binary;
mod blas;
pub mod cache;
pub mod compile;
mod defer;
mod errors;
mod external;
mod fasthash;
pub mod gpus;
mod lazy;
mod memory;
mod module;
pub mod multi;
mod params;
mod pool;
mod props;
mod queue;
mod reuse;
pub mod strided;
mod timer;

pub use backend::CudaBackend;
pub use external::{order_after_blazar, Exported, External, Ordered};
pub use lazy::{LazyCuda, LazyTimer};
pub use props::{device_info, Attr, DeviceInfo};
pub use reuse::PoolStats;
pub use timer::EventTimer;

use blazar_kir::Kernel;
use blazar_launch::Backend;
use blazar_launch::{ArgVal, KValue, KernelError, KernelErrorKind, LaunchPlan};
use blazar_runtime::ArrayRef;
use std::collections::HashSet;
use std::rc::Rc;

/// Whether the CUDA driver and NVRTC libraries can be loaded; the reason if not.
pub fn probe() -> Result<(), String> {
    // SAFETY: only tries to open the shared library.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("the CUDA driver library (libcuda) was not found".into());
    }
    if !compile::nvrtc_present() {
        return Err("the NVRTC library (libnvrtc) was not found".into());
    }
    Ok(())
}

/// The architecture `--check-cuda` compiles for (`BLAZAR_CUDA_ARCH`, default 90).
pub fn check_arch() -> u32 {
    std::env::var("BLAZAR_CUDA_ARCH")
        .ok()
        .and_then(|s| s.trim_start_matches("sm_").parse().ok())
        .unwrap_or(90)
}

/// Compiles every kernel specialisation with NVRTC, then lets the CPU run it.
pub struct NvrtcCheck {
    arch: u32,
    file_name: String,
    nvrtc: (i32, i32),
    seen: HashSet<(usize, module::Shape)>,
    keep: Vec<Rc<Kernel>>,
    stats: module::Stats,
}

impl NvrtcCheck {
    pub fn new(file_name: &str) -> Result<NvrtcCheck, String> {
        if !compile::nvrtc_present() {
            return Err("the NVRTC library (libnvrtc) was not found".into());
        }
        Ok(NvrtcCheck {
            arch: check_arch(),
            file_name: file_name.to_string(),
            nvrtc: compile::nvrtc_version()?,
            seen: HashSet::new(),
            keep: Vec::new(),
            stats: module::Stats::default(),
        })
    }
}

impl Backend for NvrtcCheck {
    fn name(&self) -> &'static str {
        "cpu+nvrtc"
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        // The source the GPU would compile: specialised on the launch's block shape.
        let writes = blazar_kir::visit::written_params(k);
        // Device addresses as the GPU's pool gives them (aligned allocations).
        let ptrs = vec![0u64; arrays.len()];
        let plan = &module::gpu_plan(k, plan);
        let shape = backend::gpu_shape(k, plan, args, arrays, &writes, &ptrs)?;
        if self.seen.insert((Rc::as_ptr(k) as usize, shape)) {
            self.keep.push(k.clone());
            if blazar_kir::visit::max_expr_depth(k) > blazar_kir::visit::MAX_COMPILED_DEPTH
                || blazar_kir::calls::has_calls(k)
            {
                // The GPU declines it too (`CudaBackend::launch`): nothing to compile.
                return Ok(None);
            }
            let gen = module::source_of(k, &self.file_name, Some(shape));
            module::cubin_for(&gen, &k.name, self.arch, self.nvrtc, None, &mut self.stats)
                .map_err(|m| KernelError::new(0, KernelErrorKind::BadLaunch, m))?;
        }
        Ok(None)
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        Ok(())
    }

    fn stats(&self) -> Option<String> {
        Some(format!(
            "stats: compiled={} cached=0 compile_ms={:.1} device=none sm_{}",
            self.stats.compiled, self.stats.compile_ms, self.arch
        ))
    }
}
