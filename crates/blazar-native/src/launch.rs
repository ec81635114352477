//! Running a compiled kernel: binding arguments, running the work items in ranges on
//! every thread (`spread`), combining kernel outputs and reporting errors.
//!
//! Work items are the executor's (chunks of [`CHUNK`] consecutive threads), and the
//! partials of kernel outputs are kept per item and folded in item order by the
//! generated `bz_finish`, so results do not depend on the number of threads. The first
//! error in item order wins. Anything about the launch that does not fit (argument
//! kinds, array types, a plan the executor would reject) returns `None`, so that the
//! interpreter runs the launch and reports the problem in its own words.

use crate::abi::{code, Call, Err as CErr, FinishFn, GArr, RunFn};
use blazar_codegen_c::cpp::PARTIAL_BYTES;
use blazar_codegen_c::cpp::{Plan, SlotKind};
use blazar_kir::{Bind, Kernel, Scalar, Ty};
use blazar_launch::{
    ArgVal, ArrayArg, ExecOptions, KValue, KernelError, KernelErrorKind, LaunchPlan,
};
use blazar_runtime::Buffer;
use rayon::prelude::*;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Threads per work item (the executor's chunk for kernels without barriers).
pub(crate) const CHUNK: usize = 512;

/// The kernel's index space: extents and block extents per `pos` component.
pub(crate) fn kernel_space(plan: &LaunchPlan, kr: usize) -> Option<([i64; 4], [i64; 4], usize)> {
    let rank = plan.rank as usize;
    if !(1..=4).contains(&rank) || !(1..=4).contains(&kr) {
        return None;
    }
    for d in 0..rank {
        let (n, b) = (plan.data_dims[d], plan.block_dims[d]);
        if b == 0 || n % b != 0 {
            return None;
        }
    }
    if kr < rank && plan.data_dims[..rank - kr].iter().any(|&n| n != 1) {
        return None;
    }
    let (mut kd, mut kb) = ([1i64; 4], [1i64; 4]);
    for c in 0..kr {
        if let Some(p) = (c + rank).checked_sub(kr) {
            kd[c] = i64::try_from(plan.data_dims[p]).ok()?;
            kb[c] = i64::try_from(plan.block_dims[p]).ok()?;
        }
    }
    if kd.iter().any(|&d| d > i32::MAX as i64) {
        return None;
    }
    let total = plan.data_dims[..rank]
        .iter()
        .try_fold(1usize, |a, &n| a.checked_mul(n))?;
    Some((kd, kb, total))
}

/// The last extent of the kernel's index space (`None` when the launch does not fit).
pub(crate) fn last_extent(plan: &LaunchPlan, kr: usize) -> Option<i64> {
    kernel_space(plan, kr).map(|(kd, _, _)| kd[kr - 1])
}

fn as_f64(v: &KValue) -> f64 {
    match v {
        KValue::Bool(b) => *b as u8 as f64,
        KValue::Int(i) => *i as f64,
        KValue::Float(f) => *f,
        KValue::Complex(re, _) => *re,
        KValue::Vector(v) => v.first().map_or(0.0, as_f64),
    }
}

fn as_i64(v: &KValue) -> i64 {
    match v {
        KValue::Bool(b) => *b as i64,
        KValue::Int(i) => *i,
        KValue::Float(f) => *f as i64,
        KValue::Complex(re, _) => *re as i64,
        KValue::Vector(v) => v.first().map_or(0, as_i64),
    }
}

/// The bytes of `v` as a value of type `s` (the executor's conversions).
pub(crate) fn scalar_bytes(v: &KValue, s: Scalar, out: &mut Vec<u8>) {
    let i = as_i64(v);
    match s {
        Scalar::Bool => out.push((i != 0) as u8),
        Scalar::I8 | Scalar::U8 => out.push(i as u8),
        Scalar::I16 | Scalar::U16 => out.extend((i as u16).to_ne_bytes()),
        Scalar::I32 | Scalar::U32 => out.extend((i as u32).to_ne_bytes()),
        Scalar::I64 | Scalar::U64 => out.extend(i.to_ne_bytes()),
        Scalar::F32 => out.extend((as_f64(v) as f32).to_ne_bytes()),
        Scalar::F64 => out.extend(as_f64(v).to_ne_bytes()),
        Scalar::C32 | Scalar::C64 => {
            let (re, im) = match v {
                KValue::Complex(re, im) => (*re, *im),
                v => (as_f64(v), 0.0),
            };
            if s == Scalar::C32 {
                out.extend((re as f32).to_ne_bytes());
                out.extend((im as f32).to_ne_bytes());
            } else {
                out.extend(re.to_ne_bytes());
                out.extend(im.to_ne_bytes());
            }
        }
    }
}

/// A kernel output from its bytes.
pub(crate) fn output_value(b: &[u8], s: Scalar) -> KValue {
    let w = |n: usize| -> [u8; 8] {
        let mut x = [0u8; 8];
        x[..n].copy_from_slice(&b[..n]);
        x
    };
    let f32_at = |o: usize| f32::from_ne_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]) as f64;
    let f64_at = |o: usize| f64::from_ne_bytes(b[o..o + 8].try_into().unwrap_or([0; 8]));
    match s {
        Scalar::Bool => KValue::Bool(b[0] != 0),
        Scalar::I8 => KValue::Int(b[0] as i8 as i64),
        Scalar::U8 => KValue::Int(b[0] as i64),
        Scalar::I16 => KValue::Int(i16::from_ne_bytes([b[0], b[1]]) as i64),
        Scalar::U16 => KValue::Int(u16::from_ne_bytes([b[0], b[1]]) as i64),
        Scalar::I32 => KValue::Int(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as i32 as i64),
        Scalar::U32 => KValue::Int(u32::from_ne_bytes([b[0], b[1], b[2], b[3]]) as i64),
        Scalar::I64 | Scalar::U64 => KValue::Int(i64::from_ne_bytes(w(8))),
        Scalar::F32 => KValue::Float(f32_at(0)),
        Scalar::F64 => KValue::Float(f64_at(0)),
        Scalar::C32 => KValue::Complex(f32_at(0), f32_at(4)),
        Scalar::C64 => KValue::Complex(f64_at(0), f64_at(8)),
    }
}

/// The data pointer, element type and length of a buffer (`None` for cells).
fn buffer_raw(buf: &mut Buffer) -> Option<(*mut u8, Scalar, usize)> {
    macro_rules! raw {
        ($v:expr, $s:ident) => {
            Some(($v.as_mut_ptr() as *mut u8, Scalar::$s, $v.len()))
        };
    }
    match buf {
        Buffer::F32(v) => raw!(v, F32),
        Buffer::F64(v) => raw!(v, F64),
        Buffer::C32(v) => raw!(v, C32),
        Buffer::C64(v) => raw!(v, C64),
        Buffer::I8(v) => raw!(v, I8),
        Buffer::I16(v) => raw!(v, I16),
        Buffer::I32(v) => raw!(v, I32),
        Buffer::I64(v) => raw!(v, I64),
        Buffer::U8(v) => raw!(v, U8),
        Buffer::U16(v) => raw!(v, U16),
        Buffer::U32(v) => raw!(v, U32),
        Buffer::U64(v) => raw!(v, U64),
        Buffer::Cell(_) => None,
    }
}

/// Runs `f` on a pool of `threads` workers (0: the current pool).
fn with_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    type Pools = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;
    static POOLS: OnceLock<Pools> = OnceLock::new();
    if threads == 0 {
        return f();
    }
    let pools = POOLS.get_or_init(|| Mutex::new(Vec::new()));
    let pool = {
        let mut p = pools.lock().unwrap_or_else(|e| e.into_inner());
        match p.iter().find(|(n, _)| *n == threads) {
            Some((_, pool)) => Some(pool.clone()),
            None => rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
                .map(|pool| {
                    let pool = Arc::new(pool);
                    p.push((threads, pool.clone()));
                    pool
                }),
        }
    };
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// The error of a failed range as the executor words it.
pub(crate) fn kernel_error(e: &CErr) -> KernelError {
    // The line, or a failing access's line and column (`blazar_kir::Loc::record`).
    let record = e.line as u32;
    let line = blazar_kir::Loc::from_record(record).line;
    let (kind, message) = match e.code {
        code::ASSERT => (
            KernelErrorKind::AssertFailed,
            "assertion failed".to_string(),
        ),
        code::OUT_OF_BOUNDS => (
            KernelErrorKind::OutOfBounds,
            blazar_launch::out_of_bounds_message(e.a as i64, e.b as usize, e.c as usize),
        ),
        code::ALLOC_TOO_LARGE => (
            KernelErrorKind::OutOfMemory,
            format!(
                "dynamic kernel memory: an allocation of {} bytes exceeds the 32768-byte limit",
                e.a
            ),
        ),
        code::POOL_EXHAUSTED => (
            KernelErrorKind::OutOfMemory,
            format!(
                "dynamic kernel memory: {} bytes in use exceed the 16777216-byte limit per block",
                e.a
            ),
        ),
        code::NEGATIVE_EXTENT => (
            KernelErrorKind::BadSize,
            blazar_kir::negative_extent_message(e.b.max(0) as usize, e.a as i64),
        ),
        code::DIVERGENCE => (
            KernelErrorKind::Divergence,
            blazar_kir::uniform::skipped_barrier_message(line),
        ),
        code::SHARED_TOO_LARGE => (
            KernelErrorKind::OutOfMemory,
            format!("shared memory: an allocation of {} bytes is too large", e.a),
        ),
        code::CALL_DEPTH => (
            KernelErrorKind::BadLaunch,
            blazar_kir::calls::CALL_DEPTH_MESSAGE.to_string(),
        ),
        code::INTERRUPTED => (
            KernelErrorKind::Interrupted,
            blazar_runtime::interrupt::message(e.a as usize),
        ),
        code::BUDGET => (
            KernelErrorKind::BadLaunch,
            blazar_kir::calls::BUDGET_MESSAGE.to_string(),
        ),
        c => (
            KernelErrorKind::BadLaunch,
            format!("native kernel error {c}"),
        ),
    };
    KernelError::new(record, kind, message)
}

/// The entry points of a compiled kernel: the C++ tier's library or the JIT's code.
/// Whoever makes one keeps the code alive while it is used.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub run: RunFn,
    pub finish: FinishFn,
}

/// Runs `lib` (the compiled `k`) over `plan`; `None` when the launch does not fit.
pub(crate) fn run(
    lib: Entry,
    k: &Kernel,
    kplan: &Plan,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
) -> Option<Result<Vec<KValue>, KernelError>> {
    let (kd, kb, total) = kernel_space(plan, k.rank as usize)?;
    if args.len() != k.params.len() {
        return None;
    }
    // Arrays: every distinct buffer once, then one descriptor per slot.
    let mut raw = Vec::with_capacity(arrays.len());
    for a in arrays.iter_mut() {
        let (ptr, elem, len) = buffer_raw(a.buf)?;
        raw.push((ptr, elem, len, a.dims.clone()));
    }
    let mut garrs = vec![GArr::default(); k.arrays.len()];
    let mut params = vec![0u8; kplan.params_size.max(16)];
    for (i, (p, a)) in k.params.iter().zip(args).enumerate() {
        match (p.bind, a) {
            (Bind::Array(s), ArgVal::Array(j)) => {
                let (ptr, elem, len, dims) = raw.get(*j)?;
                let Ty::Array(t) = k.arrays.get(s as usize)?.ty else {
                    return None;
                };
                let numel = dims.iter().try_fold(1usize, |x, &d| x.checked_mul(d))?;
                if *elem != t.elem || dims.len() != t.rank as usize || numel > *len {
                    return None;
                }
                // Generated code indexes with `blkpos ± c` in 64 bits, which agrees
                // with the wrapped 32-bit index only below this extent (`widen.rs`).
                let wide = blazar_codegen_c::cpp::MAX_WIDE_EXTENT;
                if numel > wide || dims.iter().any(|&d| d > wide) {
                    return None;
                }
                let g = &mut garrs[s as usize];
                g.data = *ptr;
                g.len = i64::try_from(*len).ok()?;
                g.rank = dims.len() as i64;
                for (d, &n) in dims.iter().enumerate() {
                    g.dims[d] = i64::try_from(n).ok()?;
                }
            }
            (Bind::Var(v), ArgVal::Value(val)) => {
                let t = k.vars.get(v as usize)?.ty;
                let mut bytes = Vec::new();
                match (t, val) {
                    (Ty::Vector(s, n), KValue::Vector(c)) if c.len() == n as usize => {
                        c.iter().for_each(|x| scalar_bytes(x, s, &mut bytes))
                    }
                    (Ty::Vector(s, 1), v) | (Ty::Scalar(s), v) => scalar_bytes(v, s, &mut bytes),
                    _ => return None,
                }
                let off = kplan.param_offsets[i];
                params
                    .get_mut(off..off + bytes.len())?
                    .copy_from_slice(&bytes);
            }
            _ => return None,
        }
    }
    if (kplan.slots.iter().zip(&garrs)).any(|(s, g)| *s == SlotKind::Global && g.data.is_null()) {
        return None;
    }
    // Work items: blocks for kernels run by loop fission, else chunks of threads.
    let (items, chunk) = if kplan.blocky {
        let nt = kb.iter().product::<i64>() as usize;
        let blocks = (0..4).map(|c| (kd[c] / kb[c]) as usize).product::<usize>();
        (if total == 0 { 0 } else { blocks }, nt)
    } else {
        (total.div_ceil(CHUNK), CHUNK)
    };
    let stop = AtomicI64::new(i64::MAX);
    let blocky = kplan.blocky;
    let call = Call {
        arrs: garrs.as_ptr(),
        params: params.as_ptr(),
        stop: stop.as_ptr(),
        kd,
        kb,
        total: total as i64,
        items: items as i64,
        chunk: chunk as i64,
        sig: blazar_runtime::interrupt::flag_ptr(),
        shared: std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()),
    };
    let nout = k.outputs.len();
    let mut partials = vec![0u8; items * nout * PARTIAL_BYTES];
    let parts_ptr = partials.as_mut_ptr() as usize;
    let call_ptr = &call as *const Call as usize;
    let errors = Mutex::new(Vec::<CErr>::new());
    let run_range = |r: std::ops::Range<usize>| {
        let mut err = CErr::default();
        // SAFETY: `call` and everything it points to (array descriptors, the parameter
        // block, the stop mark) outlive every range: they are dropped after the
        // parallel loop returns. The global buffers are borrowed mutably by `arrays`
        // for this whole function. `partials` has room for `items * nout` partials and
        // each range writes only the partials of its own items. `bz_run` checks every
        // array access against the extents in the descriptors, which fit the buffers
        // (checked above).
        let rc = unsafe {
            (lib.run)(
                call_ptr as *const Call,
                r.start as i64,
                r.end as i64,
                parts_ptr as *mut u8,
                &mut err,
            )
        };
        if rc != 0 {
            // Blocks are ranked by the failing thread's position, chunks (threads in
            // order) by the item.
            stop.fetch_min(if blocky { err.pos } else { err.item }, Ordering::Relaxed);
            errors.lock().unwrap_or_else(|e| e.into_inner()).push(err);
        }
    };
    // A small launch runs on the calling thread (see `blazar_launch::INLINE_ITEMS`).
    let serial = plan.serial || items <= blazar_launch::INLINE_ITEMS;
    let threads = opts.threads;
    let rayon_ranges = || {
        with_pool(threads, || {
            let groups = (rayon::current_num_threads() * 8).clamp(1, items.max(1));
            let per = items.div_ceil(groups.max(1)).max(1);
            let ranges: Vec<_> = (0..items)
                .step_by(per)
                .map(|s| s..(s + per).min(items))
                .collect();
            ranges.into_par_iter().for_each(run_range);
        })
    };
    if serial {
        run_range(0..items);
    } else {
        // A team busy with another thread's launch: rayon's threads take this one.
        if !crate::spread::spread(threads, items, &run_range) {
            rayon_ranges()
        }
    }
    let errors = errors.into_inner().unwrap_or_else(|e| e.into_inner());
    let failed = errors.iter().filter(|e| e.code != 0);
    let first = if blocky {
        failed.min_by_key(|e| e.pos)
    } else {
        failed.min_by_key(|e| e.item)
    };
    if let Some(e) = first {
        return Some(Err(kernel_error(e)));
    }
    let mut res = vec![0u8; nout.max(1) * PARTIAL_BYTES];
    // SAFETY: `partials` holds `items * nout` partials written by the ranges above and
    // `res` has room for `nout` results; `bz_finish` reads and writes only those.
    unsafe { (lib.finish)(partials.as_ptr(), items as i64, res.as_mut_ptr()) };
    Some(Ok(k
        .outputs
        .iter()
        .enumerate()
        .map(|(i, o)| output_value(&res[i * PARTIAL_BYTES..], o.ty))
        .collect()))
}
