//! `--devices` (several devices behind one backend, `blazar-multi`) and `blazar info`.

use crate::cli::Device;
use blazar_interp::BackendRef;
use blazar_multi::{DeviceSpec, LogRef, MultiBackend, SimDevice};
use blazar_native::CpuBackend;
use blazar_runtime::builtins::time::DeviceTimer;
use std::collections::HashMap;
use std::process::ExitCode;
use std::time::Instant;

/// The backend of `--devices SPEC`, with the log `--profile` prints; `Ok(None)` when
/// the run keeps today's single-device path (`--devices all` or `0` on a host with at
/// most one GPU).
pub fn choose(
    spec: &DeviceSpec,
    device: Device,
    cpu: &CpuBackend,
    file_name: &str,
) -> Result<Option<(BackendRef, LogRef)>, ExitCode> {
    match spec {
        DeviceSpec::Sim(n) | DeviceSpec::SimLag(n) => {
            if device == Device::Cuda {
                eprintln!(
                    "blazar: error: --devices {spec} simulates devices on the CPU; leave out \
                     --device cuda"
                );
                return Err(ExitCode::from(2));
            }
            let lag = matches!(spec, DeviceSpec::SimLag(_));
            let devices = (0..*n)
                .map(|i| {
                    Box::new(SimDevice::with_lag(i, Box::new(cpu.clone()), lag))
                        as Box<dyn blazar_multi::Device>
                })
                .collect();
            let mut b = MultiBackend::new(devices, Box::new(cpu.clone()));
            // Every launch that qualifies splits and every independent one spreads (to
            // test both), unless the variables ask for the GPUs' thresholds.
            b.set_split_min(env_num("BLAZAR_SPLIT_MIN").unwrap_or(0) as usize);
            b.set_spread_min(env_num("BLAZAR_SPREAD_MIN").unwrap_or(0));
            b.set_overlap(overlap());
            let log = b.log();
            Ok(Some((BackendRef::new(b), log)))
        }
        DeviceSpec::All | DeviceSpec::Gpus(_) => {
            let gpus = blazar_cuda::gpus::list().unwrap_or_default();
            let wanted: Vec<usize> = match spec {
                DeviceSpec::Gpus(ids) => ids.clone(),
                _ => (0..gpus.len()).collect(),
            };
            if let Some(missing) = wanted.iter().find(|&&i| i >= gpus.len().max(1)) {
                eprintln!(
                    "blazar: error: --devices {spec}: there is no GPU {missing} ({} found)",
                    gpus.len()
                );
                return Err(ExitCode::from(crate::cli::EXIT_UNAVAILABLE));
            }
            if wanted.len() <= 1 && wanted.first().is_none_or(|&i| i == 0) {
                return Ok(None);
            }
            if device == Device::Cpu {
                eprintln!("blazar: error: --devices {spec} names GPUs; leave out --device cpu");
                return Err(ExitCode::from(2));
            }
            let devices: Vec<Box<dyn blazar_multi::Device>> =
                match blazar_cuda::multi::open_all(&wanted, file_name) {
                    Ok(ds) => ds
                        .into_iter()
                        .map(|d| Box::new(d) as Box<dyn blazar_multi::Device>)
                        .collect(),
                    Err((i, e)) => {
                        eprintln!("blazar: error: --devices {spec}: GPU {i}: {e}");
                        return Err(ExitCode::from(crate::cli::EXIT_UNAVAILABLE));
                    }
                };
            let mut b = MultiBackend::new(devices, Box::new(cpu.clone()));
            // A launch pays a few microseconds per GPU and band: smaller ones stay whole
            // on one GPU (`--profile` says so per kernel).
            b.set_split_min(split_min());
            b.set_spread_min(spread_min());
            b.set_overlap(overlap());
            let log = b.log();
            Ok(Some((BackendRef::new(b), log)))
        }
    }
}

/// The device set of a run that names none: every GPU under `--device cuda` when the
/// host has more than one (with one, or none, the single-GPU path as before; `--device
/// auto` keeps it too: it opens one GPU at its first large launch, and a run that stays
/// small never opens any).
pub fn default_spec(device: Device) -> Option<DeviceSpec> {
    if device != Device::Cuda {
        return None;
    }
    let gpus = blazar_cuda::gpus::list().ok()?;
    (gpus.len() > 1).then_some(DeviceSpec::All)
}

/// Work items from which a launch splits over the GPUs (`BLAZAR_SPLIT_MIN`; default 32M,
/// twice a 4096x4096 image). A band costs the host a launch, events and halo copies per
/// GPU, a few microseconds each, while a 4096x4096 element-wise kernel runs for about 30
/// on one H200: smaller launches stay whole, and independent ones spread over the GPUs
/// by placement instead.
fn split_min() -> usize {
    env_num("BLAZAR_SPLIT_MIN").unwrap_or(1 << 25) as usize
}

/// Whether split stencils run their interior rows while their halo rows are copied
/// (`BLAZAR_HALO_OVERLAP=0` turns it off, to measure what it gains).
fn overlap() -> bool {
    env_num("BLAZAR_HALO_OVERLAP") != Some(0)
}

/// The number in environment variable `name`, if it holds one.
fn env_num(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Work (work items times statements per item) from which a launch that depends on no
/// GPU's data may start on the next GPU in turn (`BLAZAR_SPREAD_MIN`; default 4M, about
/// 10 µs of an H200, more than the host takes to queue the launch): smaller launches stay
/// on the GPU of the launch before, so a program's small work never crosses between
/// GPUs, while independent images and frames still spread.
fn spread_min() -> u64 {
    env_num("BLAZAR_SPREAD_MIN").unwrap_or(1 << 22)
}

/// `tic`/`toc` over several devices: `toc` waits for every device's work queued before
/// it, then measures the host's time from the `tic` (as one GPU's events measure from
/// the `tic` to the end of the work before the `toc`).
pub struct SyncTimer {
    backend: BackendRef,
    marks: HashMap<u64, Instant>,
    next: u64,
}

impl SyncTimer {
    pub fn new(backend: BackendRef) -> SyncTimer {
        SyncTimer {
            backend,
            marks: HashMap::new(),
            next: 0,
        }
    }
}

impl DeviceTimer for SyncTimer {
    fn mark(&mut self) -> Result<u64, String> {
        // The mark is a point in the devices' queues: the work queued before the `tic`
        // ends first, or `toc` would count it.
        self.synchronize()?;
        self.next += 1;
        if self.marks.len() > 64 {
            let oldest = self.next.saturating_sub(64);
            self.marks.retain(|&k, _| k >= oldest);
        }
        self.marks.insert(self.next, Instant::now());
        Ok(self.next)
    }

    fn elapsed_ms(&mut self, from: u64) -> Result<f64, String> {
        let at = *self.marks.get(&from).ok_or("the matching tic is too old")?;
        self.synchronize()?;
        Ok(at.elapsed().as_secs_f64() * 1e3)
    }
}

impl SyncTimer {
    /// Waits for every device's queued work (unless the backend is in use: then it
    /// queues nothing either).
    fn synchronize(&self) -> Result<(), String> {
        match self.backend.0.try_borrow_mut() {
            Ok(mut b) => b.synchronize().map_err(|e| e.message),
            Err(_) => Ok(()),
        }
    }
}

/// `blazar info`: the devices a run can use.
pub fn info() -> ExitCode {
    println!("blazar {}", env!("CARGO_PKG_VERSION"));
    match blazar_cuda::gpus::list() {
        Ok(gpus) if gpus.is_empty() => println!("no CUDA device (the driver found no GPU)"),
        Ok(gpus) => {
            for g in gpus {
                let peers = if g.peers.is_empty() {
                    "none".to_string()
                } else {
                    let p: Vec<String> = g.peers.iter().map(|p| p.to_string()).collect();
                    p.join(",")
                };
                println!(
                    "cuda {}: {}, {:.1} GiB, peer access to: {peers}",
                    g.index,
                    g.name,
                    g.memory as f64 / (1u64 << 30) as f64
                );
            }
        }
        Err(e) => println!("no CUDA device ({e})"),
    }
    println!(
        "cpu: {} cores; `--devices sim:N` simulates N devices on it (`sim:N:lag`: each \
         runs its queue only when something waits for it)",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::SyncTimer;
    use blazar_interp::BackendRef;
    use blazar_kir::Kernel;
    use blazar_launch::{ArgVal, Backend, KValue, KernelError, LaunchPlan};
    use blazar_runtime::builtins::time::DeviceTimer;
    use blazar_runtime::ArrayRef;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A backend that only counts its synchronisations.
    struct Counting(Rc<Cell<usize>>);

    impl Backend for Counting {
        fn name(&self) -> &'static str {
            "counting"
        }
        fn launch(
            &mut self,
            _kernel: &Rc<Kernel>,
            _plan: &LaunchPlan,
            _args: &[ArgVal],
            _arrays: &[ArrayRef],
        ) -> Result<Option<Vec<KValue>>, KernelError> {
            Ok(None)
        }
        fn synchronize(&mut self) -> Result<(), KernelError> {
            self.0.set(self.0.get() + 1);
            Ok(())
        }
    }

    #[test]
    fn tic_waits_for_the_work_queued_before_it() {
        let syncs = Rc::new(Cell::new(0));
        let mut t = SyncTimer::new(BackendRef::new(Counting(syncs.clone())));
        let m = t.mark().expect("mark");
        assert_eq!(
            syncs.get(),
            1,
            "earlier work ends before the tic's time is taken"
        );
        t.elapsed_ms(m).expect("elapsed");
        assert_eq!(syncs.get(), 2);
    }
}
