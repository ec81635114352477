//! Direct calls of a one-thread kernel's compiled code (`Backend::direct_call`): the
//! compiled host tier calls a small function's kernel many times, and a launch's
//! preparation (the arrays' descriptors, a fresh parameter block and partials, the
//! thread pool's choice, a memo lookup of the library) costs more than the body.
//!
//! A [`Direct`] holds what every call reuses: the entry points (the C++ library's, or
//! the JIT's), kept loaded by holding their owner; the parameter block laid out by the
//! kernel's plan; the partials and results of its one work item. A call writes the
//! arguments into the block, runs work item 0 on the calling thread and folds its
//! outputs as `launch::run` does, so results and errors are the same.

use crate::abi::{Call, Err as CErr, GArr};
use crate::launch::{self, Entry, CHUNK};
use blazar_codegen_c::cpp::{Plan, PARTIAL_BYTES};
use blazar_kir::{Bind, Kernel, Ty};
use blazar_launch::{DirectCall, KValue, KernelError, LaunchPlan};
use std::rc::Rc;
use std::sync::atomic::AtomicI64;

/// What keeps a [`Direct`]'s code loaded.
pub(crate) enum Keep {
    Library(#[allow(dead_code)] std::sync::Arc<crate::compile::Library>),
    Jit(#[allow(dead_code)] std::sync::Arc<crate::jit::Jitted>),
}

/// A one-thread kernel's compiled code, ready to be called directly.
pub(crate) struct Direct {
    kernel: Rc<Kernel>,
    entry: Entry,
    offsets: Vec<usize>,
    _keep: Keep,
    kd: [i64; 4],
    kb: [i64; 4],
    params: Vec<u8>,
    parts: Vec<u8>,
    res: Vec<u8>,
    bytes: Vec<u8>,
}

impl Direct {
    /// `None` when `k` takes an array or is not a one-thread kernel of rank 1.
    pub(crate) fn new(k: &Rc<Kernel>, entry: Entry, plan: &Plan, keep: Keep) -> Option<Direct> {
        if k.params.iter().any(|p| matches!(p.bind, Bind::Array(_))) || plan.blocky {
            return None;
        }
        let one = LaunchPlan {
            rank: 1,
            data_dims: [1, 1, 1, 1],
            block_dims: [1, 1, 1, 1],
            serial: true,
            block_given: false,
        };
        let (kd, kb, total) = launch::kernel_space(&one, k.rank as usize)?;
        if total != 1 {
            return None;
        }
        let nout = k.outputs.len();
        Some(Direct {
            kernel: k.clone(),
            entry,
            offsets: plan.param_offsets.clone(),
            _keep: keep,
            kd,
            kb,
            params: vec![0u8; plan.params_size.max(16)],
            parts: vec![0u8; nout.max(1) * PARTIAL_BYTES],
            res: vec![0u8; nout.max(1) * PARTIAL_BYTES],
            bytes: Vec::with_capacity(64),
        })
    }
}

impl DirectCall for Direct {
    fn call(&mut self, args: &[KValue]) -> Result<Vec<KValue>, KernelError> {
        let k = &self.kernel;
        if args.len() != k.params.len() {
            return Err(KernelError::bad_launch(
                "a direct call with the wrong arguments",
            ));
        }
        for (i, (p, a)) in k.params.iter().zip(args).enumerate() {
            let Bind::Var(v) = p.bind else {
                return Err(KernelError::bad_launch(
                    "a direct call of a kernel with arrays",
                ));
            };
            self.bytes.clear();
            match (k.vars.get(v as usize).map(|d| d.ty), a) {
                (Some(Ty::Vector(s, n)), KValue::Vector(c)) if c.len() == n as usize => c
                    .iter()
                    .for_each(|x| launch::scalar_bytes(x, s, &mut self.bytes)),
                (Some(Ty::Vector(s, 1) | Ty::Scalar(s)), v) => {
                    launch::scalar_bytes(v, s, &mut self.bytes)
                }
                _ => {
                    return Err(KernelError::bad_launch(
                        "a direct call's argument does not fit",
                    ))
                }
            }
            let off = self.offsets[i];
            let Some(dst) = self.params.get_mut(off..off + self.bytes.len()) else {
                return Err(KernelError::bad_launch(
                    "a direct call's argument does not fit",
                ));
            };
            dst.copy_from_slice(&self.bytes);
        }
        let stop = AtomicI64::new(i64::MAX);
        let garr = GArr::default();
        let call = Call {
            arrs: &garr,
            params: self.params.as_ptr(),
            stop: stop.as_ptr(),
            kd: self.kd,
            kb: self.kb,
            total: 1,
            items: 1,
            chunk: CHUNK as i64,
            sig: blazar_runtime::interrupt::flag_ptr(),
            shared: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
        };
        let mut err = CErr::default();
        // SAFETY: the code is kept loaded by `_keep`; `call` and what it points to (the
        // parameter block laid out by the kernel's plan, the stop mark, an array
        // descriptor the kernel never reads: it has no array slots bound) outlive the
        // call; `parts` has room for the one work item's partials, `res` for the
        // results, as `launch::run` lays them out.
        unsafe {
            (self.entry.run)(&call, 0, 1, self.parts.as_mut_ptr(), &mut err);
        }
        if err.code != 0 {
            return Err(launch::kernel_error(&err));
        }
        // SAFETY: as above: one item's partials in, the outputs' results out.
        unsafe { (self.entry.finish)(self.parts.as_ptr(), 1, self.res.as_mut_ptr()) };
        Ok(k.outputs
            .iter()
            .enumerate()
            .map(|(i, o)| launch::output_value(&self.res[i * PARTIAL_BYTES..], o.ty))
            .collect())
    }
}
