//! One launch on the GPU: the kernel's module, its arrays made current on the device,
//! parameters packed, then either queued behind a running compile (`defer`) or issued
//! at once, with the error record and outputs read back when the kernel has them.

use super::slots::REGION;
use super::{bad, CudaBackend, MAX_OUTPUTS, POOL_BYTES, REC};
use crate::errors;
use crate::memory::{driver, ensure_on_device, mark_written, oom_or};
use crate::module::{Module, Shape};
use crate::params::scalar_bytes;
use blazar_codegen_c::cuda::{dynamic_shared_bytes, ParamLayout};
use blazar_kir::{Bind, Kernel};
use blazar_launch::{ArgVal, KValue, KernelError, LaunchPlan};
use blazar_runtime::ArrayRef;
use cudarc::driver::{DevicePtr, PushKernelArg};
use std::rc::Rc;

impl CudaBackend {
    /// One launch (`Backend::launch` measures the host's time between launches).
    pub(super) fn launch_now(
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
        let facts = self
            .kernels
            .entry(Rc::as_ptr(k) as usize)
            .or_insert_with(|| super::PerKernel::of(k));
        if facts.too_deep {
            return Ok(None);
        }
        let writes = facts.writes.clone();
        self.pool_mem.queue().issue();
        let started = std::time::Instant::now();
        // The default block shape is only a suggestion for kernels that cannot observe
        // it: those run under the GPU's own choice (long contiguous rows per warp).
        let plan = &crate::module::gpu_plan(k, plan);
        let mut ptrs = Vec::with_capacity(arrays.len());
        for a in arrays {
            ptrs.push(ensure_on_device(a, &self.pool_mem).map_err(bad)?);
        }
        let mut shape = gpu_shape(k, plan, args, arrays, &writes, &ptrs)?;
        shape.mirror &= self.slots.can_mirror();
        let m = self.module(k, shape);
        let queue = self.pool_mem.queue().clone();
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
            m.func(&self.ctx)
                .map_err(bad)?
                .set_attribute(
                    cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    shared as i32,
                )
                .map_err(|e| bad(driver("setting the shared memory size", e)))?;
        }
        let mut cfg = crate::module::config(plan, shared as u32, m.gen.coarsen).map_err(bad)?;
        // Row vectors: each thread of the x axis runs 4 positions (the extent is a
        // multiple of 4 block widths, `vector_factor`).
        cfg.grid_dim.0 = cfg.grid_dim.0.div_ceil(m.gen.vector.max(1));
        let base = self.slots.base();
        // A launch that gives the host nothing back waits in the queue while its kernel
        // compiles (or while earlier ones do), and the host program goes on (`defer`).
        let returns = !m.gen.outputs.is_empty() || m.can_fail || m.gen.uses_pool;
        if !returns && self.clock.is_none() && shared <= 48 << 10 {
            queue.issue_ready().map_err(bad)?;
            if queue.has_pending() || !m.ready() {
                let params =
                    crate::params::pack(&m.gen.params, args, arrays, &ptrs, plan, base, None)
                        .map_err(bad)?;
                self.mark_written(k, &m, args, arrays);
                self.stats.launches += 1;
                queue.defer(crate::defer::Deferred {
                    module: m,
                    params,
                    cfg,
                    keep: arrays.to_vec(),
                });
                return Ok(Some(Vec::new()));
            }
        }
        // Waiting for compiles (the queued launches' and this one's) is not preparing.
        let waited = std::time::Instant::now();
        queue.flush().map_err(bad)?;
        let func = m.func(&self.ctx).map_err(bad)?;
        let waited = waited.elapsed();
        if m.gen.chunked() && self.sms > 0 {
            // Long runs of block rows: one wave of the blocks the GPU holds at once.
            let (x, y, z) = cfg.block_dim;
            if let Some(per_sm) = m.resident(x * y * z, shared) {
                crate::module::one_wave(&mut cfg, plan.rank, per_sm as u64 * self.sms as u64);
            }
        }
        if let Some(c) = self.clock.as_mut() {
            c.compile = waited;
        }
        // Kernel outputs: 16-byte accumulators after the error record, each starting
        // at the identity of its operator (one copy for all).
        let nout = m.gen.outputs.len();
        if nout > MAX_OUTPUTS {
            return Err(bad(format!(
                "a kernel may have at most {MAX_OUTPUTS} outputs"
            )));
        }
        if self.started.is_some() && (nout > 0 || m.can_fail) {
            // It would use the read-back region of the launch `start_only` left unread
            // (`slots`): its outputs would be cleared, or read as this one's.
            return Err(bad(format!(
                "internal error: kernel `{}` reads back before a started launch was finished",
                k.name
            )));
        }
        if nout > 0 {
            let mut init = vec![0u8; 16 * nout];
            for (i, o) in m.gen.outputs.iter().enumerate() {
                let b = scalar_bytes(&errors::identity(o.combine, o.ty), o.ty);
                init[16 * i..16 * i + b.len()].copy_from_slice(&b);
            }
            // Sums start at zero bits, which the slots hold after a read-back (`slots`).
            self.slots
                .prepare(&self.stream, &init)
                .map_err(|e| bad(driver("setting up kernel outputs", e)))?;
        }
        let mut pool = None;
        if m.gen.params.iter().any(|p| matches!(p, ParamLayout::Pool)) {
            pool = Some(self.pool().map_err(bad)?);
        }
        let mut params = crate::params::pack(&m.gen.params, args, arrays, &ptrs, plan, base, pool)
            .map_err(bad)?;
        if let Some(at) = m.gen.params.iter().position(|p| *p == ParamLayout::Mirror) {
            // The record and the accumulators, in 32-bit words.
            let words = ((REC + 16 * nout) / 4) as u32;
            params[at] = self
                .slots
                .mirror_param(words)
                .ok_or_else(|| bad("internal error: no mapped memory for kernel outputs"))?;
        }
        let mut builder = self.stream.launch_builder(func);
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
        if let Err(e) = unsafe { builder.launch(cfg) } {
            self.slots.forget_mirror();
            return Err(bad(format!("launching kernel `{}` failed: {e}", k.name)));
        }
        if let Some(c) = self.clock.as_mut() {
            c.after(&self.stream);
        }
        let called = std::time::Instant::now();
        self.stats.launches += 1;
        self.stats.prep_us += (prepared - started - waited).as_secs_f64() * 1e6;
        self.stats.call_us += (called - prepared).as_secs_f64() * 1e6;
        self.mark_written(k, &m, args, arrays);
        if !m.can_fail && nout == 0 {
            return Ok(Some(Vec::new()));
        }
        if self.start_only {
            // Read back by `finish_started`, after other GPUs' launches are queued too.
            self.started = Some((k.name.clone(), m));
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

    /// Marks the arrays a launch of `m` writes as newer on the device.
    fn mark_written(&self, k: &Kernel, m: &Module, args: &[ArgVal], arrays: &[ArrayRef]) {
        for (idx, (p, a)) in k.params.iter().zip(args).enumerate() {
            if let (Bind::Array(_), ArgVal::Array(i)) = (p.bind, a) {
                if m.writes.get(idx).copied().unwrap_or(true) {
                    mark_written(&arrays[*i]);
                }
            }
        }
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
    /// copy, `slots`), and clears a recorded error so the next launch starts clean.
    pub(super) fn read_back(
        &mut self,
        kernel: &str,
        outputs: usize,
    ) -> Result<[u8; REGION], KernelError> {
        let n = REC + 16 * outputs;
        let failed = |e| bad(format!("{} (in kernel `{kernel}`)", driver("a kernel", e)));
        let queue = self.pool_mem.queue().clone();
        queue.flush().map_err(bad)?;
        let bytes = self.slots.read(&queue, n).map_err(failed)?;
        let word = |i: usize| {
            i32::from_le_bytes([
                bytes[4 * i],
                bytes[4 * i + 1],
                bytes[4 * i + 2],
                bytes[4 * i + 3],
            ])
        };
        let rec = [word(0), word(1), word(2), word(3)];
        if rec[0] != 0 {
            self.slots
                .clear_record(&self.stream)
                .map_err(|e| bad(driver("resetting the error record", e)))?;
        }
        if outputs > 0 {
            // The next launch with outputs finds zeros in the next region.
            self.slots
                .advance(&self.stream)
                .map_err(|e| bad(driver("clearing kernel outputs", e)))?;
        }
        if rec[0] != 0 {
            return Err(errors::decode(rec));
        }
        Ok(bytes)
    }
}

/// What a launch's source is specialised on: its plan's CUDA block, the coarsening
/// factor and whether array pointers may be `__restrict__`.
pub(crate) fn gpu_shape(
    k: &Kernel,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &[ArrayRef],
    writes: &[bool],
    ptrs: &[u64],
) -> Result<Shape, KernelError> {
    let b = crate::module::config(plan, 0, 1).map_err(bad)?.block_dim;
    let vector = crate::module::vector_factor(k, plan, args, arrays, ptrs);
    let mut coarsen = crate::module::coarsen_factor(k, plan);
    // Row vectors run 4 positions per thread too: the threads left still fill the GPU.
    let total: usize = plan.data_dims[..plan.rank as usize].iter().product();
    // Row vectors want an exact grid: fewer rows per thread where the run would not
    // divide the rows (a guard turns row vectors off).
    while vector > 1
        && coarsen > 1
        && (total / (4 * coarsen as usize) < crate::module::MIN_THREADS
            || crate::module::ragged(plan, coarsen))
    {
        coarsen /= 2;
    }
    // A chunked run (outputs) takes any number of block rows: only ragged blocks need
    // the guard, not a row count that the run's length does not divide.
    let run = if k.outputs.is_empty() { coarsen } else { 1 };
    Ok(Shape {
        mirror: !k.outputs.is_empty() && crate::module::mirror_on(),
        block: [b.0, b.1, b.2],
        coarsen,
        vector,
        noalias: crate::module::noalias(k, args, arrays, writes),
        guard: crate::module::ragged(plan, run),
        same_extents: crate::module::same_extents(k, plan, args, arrays),
    })
}
