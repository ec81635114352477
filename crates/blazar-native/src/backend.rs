//! `CpuBackend`: the CPU as a backend like any other, behind the launch contract.
//!
//! Each launch runs natively when the tier allows it and the kernel is supported
//! (`try_launch`), else on the SIMT interpreter (`blazar_cpu::launch`), the reference.
//! Arrays are the host copies, downloaded first where a device copy is newer.

use crate::{try_launch_on, CpuTier};
use blazar_kir::Kernel;
use blazar_launch::LaunchPlan;
use blazar_launch::{with_host_arrays, ArgVal, Backend, ExecOptions, KValue, KernelError};
use blazar_runtime::ArrayRef;
use std::rc::Rc;

/// Runs kernels on the CPU's cores.
#[derive(Clone, Debug, Default)]
pub struct CpuBackend {
    /// Native code, the SIMT interpreter, or native where a compiler works.
    pub tier: CpuTier,
    /// Worker threads; 0 uses every core.
    pub threads: usize,
}

impl CpuBackend {
    pub fn new(tier: CpuTier, threads: usize) -> CpuBackend {
        CpuBackend { tier, threads }
    }
}

impl Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn launch(
        &mut self,
        k: &Rc<Kernel>,
        plan: &LaunchPlan,
        args: &[ArgVal],
        arrays: &[ArrayRef],
    ) -> Result<Option<Vec<KValue>>, KernelError> {
        let opts = ExecOptions {
            threads: self.threads,
        };
        with_host_arrays(arrays, |arrays| {
            let native = try_launch_on(self.tier, k, plan, args, arrays, &opts);
            native
                .unwrap_or_else(|| crate::interp_launch(k, plan, args, arrays, &opts))
                .map(Some)
        })
    }

    /// Native code now: the C++ library (whose compile this queues) or, where the tier
    /// allows it, the JIT's, compiled here in a millisecond or two.
    fn compiled_ready(&mut self, k: &Rc<Kernel>, plan: &LaunchPlan) -> bool {
        match self.tier {
            CpuTier::Interp => false,
            CpuTier::Native => crate::compiled_ready(k, plan),
            CpuTier::Jit => crate::jit::jitted(k).is_some(),
            CpuTier::Auto => crate::compiled_ready(k, plan) || crate::jit::jitted(k).is_some(),
        }
    }

    fn direct_call(&mut self, k: &Rc<Kernel>) -> Option<Box<dyn blazar_launch::DirectCall>> {
        crate::direct_call(self.tier, k)
    }

    fn grid_stride_reductions(&self) -> bool {
        false
    }

    fn synchronize(&mut self) -> Result<(), KernelError> {
        Ok(())
    }
}
