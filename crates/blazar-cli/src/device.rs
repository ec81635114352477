//! Choosing where kernels run (`--device`, `--check-cuda`) and closing the device at
//! the end of a run (last synchronisation, `BLAZAR_STATS=1` line).

use crate::cli::{CpuTierArg, Device, EXIT_UNAVAILABLE};
use blazar_interp::BackendRef;
use blazar_launch::Chain;
use blazar_native::CpuBackend;
use blazar_runtime::builtins::Ctx;
use std::process::ExitCode;

/// The backend of a run: `cpu` alone, or a GPU backend chained with `cpu` for the
/// launches it leaves (`serial_do`; every launch under `--check-cuda`). Under
/// `--device auto` a machine without a usable GPU runs on the CPU after a one-line
/// notice (the GPU itself is opened at its first use, [`blazar_cuda::LazyCuda`]); under
/// `--device cuda` it is opened at once and its absence is an error with exit status
/// [`EXIT_UNAVAILABLE`].
pub fn choose(
    device: Device,
    check_cuda: bool,
    cpu: CpuBackend,
    file_name: &str,
    ctx: &mut Ctx,
) -> Result<BackendRef, ExitCode> {
    if check_cuda {
        if device == Device::Cuda {
            eprintln!(
                "blazar: error: --check-cuda runs kernels on the CPU; leave out --device cuda"
            );
            return Err(ExitCode::from(2));
        }
        return match blazar_cuda::NvrtcCheck::new(file_name) {
            Ok(b) => Ok(BackendRef::new(Chain {
                first: b,
                then: cpu,
            })),
            Err(e) => {
                eprintln!("blazar: error: --check-cuda needs NVRTC: {e}");
                Err(ExitCode::from(EXIT_UNAVAILABLE))
            }
        };
    }
    if device == Device::Cpu {
        return Ok(BackendRef::new(cpu));
    }
    if device == Device::Auto {
        // Opened at the first launch or device allocation: creating the context costs
        // about 350 ms, which a program that never touches the device does not pay.
        // Where the libraries are missing, the notice comes at once, as before.
        return match blazar_cuda::probe() {
            Ok(()) => {
                let b = blazar_cuda::LazyCuda::new(file_name, |e| {
                    if std::env::var_os("BLAZAR_QUIET").is_none() {
                        eprintln!(
                            "blazar: note: running kernels on the CPU (CUDA is not available: {e})"
                        );
                    }
                });
                ctx.device_timer = Some(Box::new(b.timer()));
                Ok(BackendRef::new(Chain {
                    first: b,
                    then: cpu,
                }))
            }
            Err(e) => {
                if std::env::var_os("BLAZAR_QUIET").is_none() {
                    eprintln!(
                        "blazar: note: running kernels on the CPU (CUDA is not available: {e})"
                    );
                }
                Ok(BackendRef::new(cpu))
            }
        };
    }
    match blazar_cuda::CudaBackend::new(file_name) {
        Ok(b) => {
            ctx.device_timer = Some(Box::new(blazar_cuda::EventTimer::new(&b)));
            Ok(BackendRef::new(Chain {
                first: b,
                then: cpu,
            }))
        }
        Err(e) => {
            eprintln!("blazar: error: CUDA is not available: {e}");
            Err(ExitCode::from(EXIT_UNAVAILABLE))
        }
    }
}

/// Waits for the device's last work (reporting an error it raised) and prints the
/// compile statistics when `BLAZAR_STATS=1`.
pub fn finish(b: &BackendRef) -> ExitCode {
    let Ok(mut b) = b.0.try_borrow_mut() else {
        return ExitCode::SUCCESS;
    };
    let code = match b.synchronize() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("blazar: error: {}", e.message);
            ExitCode::FAILURE
        }
    };
    if std::env::var("BLAZAR_STATS").is_ok_and(|v| v == "1") {
        if let Some(line) = b.stats() {
            eprintln!("{line}");
        }
    }
    code
}

/// Says once, at the start, when CPU kernels will run on the SIMT interpreter because
/// no C++ compiler works here (`--cpu-tier auto` falls back per kernel without a word
/// otherwise; `BLAZAR_QUIET` silences the note, as the missing-GPU one).
pub fn note_cpu_tier(backend: &BackendRef, tier: CpuTierArg) {
    if tier != CpuTierArg::Auto || std::env::var_os("BLAZAR_QUIET").is_some() {
        return;
    }
    let on_cpu = backend.0.try_borrow().is_ok_and(|b| b.name() == "cpu");
    // Only whether the compiler exists: probing it (tens of milliseconds) waits for
    // the first kernel that needs it, in the background.
    if let (true, Err(e)) = (on_cpu, blazar_native::compiler_found()) {
        eprintln!(
            "blazar: note: CPU kernels run on the interpreter, several times slower than \
             compiled code ({e}; install a C++ compiler or set CXX)"
        );
    }
}
