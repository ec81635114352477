//! Where a module's kernels run, chosen as `blazar run` chooses it: `auto` takes CUDA
//! when a GPU is usable (chained with the CPU for the launches it leaves) and the CPU
//! otherwise; `cpu` and `cuda` force one (`cuda` without a GPU is an error).

use blazar_interp::BackendRef;
use blazar_launch::Chain;
use blazar_native::{CpuBackend, CpuTier};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Auto,
    Cpu,
    Cuda,
}

impl Choice {
    pub fn parse(s: &str) -> Result<Choice, String> {
        match s {
            "auto" => Ok(Choice::Auto),
            "cpu" => Ok(Choice::Cpu),
            "cuda" | "gpu" => Ok(Choice::Cuda),
            _ => Err(format!(
                "unknown device `{s}` (the devices: \"auto\", \"cpu\", \"cuda\")"
            )),
        }
    }
}

/// The chosen backend, its name ("cpu" or "cuda") and, on a GPU, its memory handle.
type Chosen = (BackendRef, &'static str, Option<blazar_cuda::External>);

/// The backend for `choice`.
pub fn choose(
    choice: Choice,
    threads: usize,
    file_name: &str,
) -> Result<Chosen, Result<blazar_interp::CallError, String>> {
    let cpu = CpuBackend::new(CpuTier::Auto, threads);
    if choice == Choice::Cpu {
        return Ok((BackendRef::new(cpu), "cpu", None));
    }
    match blazar_cuda::CudaBackend::new(file_name) {
        Ok(b) => {
            let ext = b.external();
            Ok((
                BackendRef::new(Chain {
                    first: b,
                    then: cpu,
                }),
                "cuda",
                Some(ext),
            ))
        }
        Err(e) if choice == Choice::Cuda => Err(Err(format!("CUDA is not available: {e}"))),
        Err(_) => Ok((BackendRef::new(cpu), "cpu", None)),
    }
}

/// Waits for the device's last work of a call, reporting an error it raised.
pub fn synchronize(b: &BackendRef) -> Result<(), String> {
    match b.0.try_borrow_mut() {
        Ok(mut b) => b.synchronize().map_err(|e| e.message),
        Err(_) => Ok(()),
    }
}

pub fn cuda_available() -> bool {
    blazar_cuda::CudaBackend::new("<probe>").is_ok()
}
