//! `launch`: binds arguments, splits the index space into work items and runs them.
//!
//! Kernels with barriers or shared memory run one block per work item; others run
//! chunks of [`CHUNK`] consecutive threads (row-major), ignoring block boundaries.
//! Work items are grouped into contiguous ranges that rayon runs in parallel; each
//! group owns one [`Scratch`]. Work item boundaries never depend on the number of
//! threads, and output partials are combined in work-item order afterwards, so results
//! are the same on any number of threads. The first error in work-item order wins.

use crate::exec::{identity, partial_op, Ctx, Scratch};
use crate::memory::{index_shape, with_elem, Elem, GlobalMem, MAX_DIMS};
use crate::observe::{LaunchInfo, Observer};
use crate::program::{ParamBind, Program, Reg};
use crate::specials::{fill_specials, Space};
use crate::values::{KValue, LaneTy, Lanes};
use crate::{ArgVal, ArrayArg, ExecOptions, KernelError, LaunchPlan};
use blazar_kir::{AtomicOp, Kernel};
use rayon::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Threads per work item for kernels without barriers.
pub(crate) const CHUNK: usize = 512;

pub use blazar_launch::INLINE_ITEMS;

/// Runs kernel `k` over the index space of `plan`; returns one value per output.
pub fn launch(
    k: &Kernel,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
) -> Result<Vec<KValue>, KernelError> {
    launch_with(k, plan, args, arrays, opts, None, None)
}

/// [`launch`], serially and observed by `obs` when there is one, under the random
/// schedule of `seed` when there is one.
pub(crate) fn launch_with(
    k: &Kernel,
    plan: &LaunchPlan,
    args: &[ArgVal],
    arrays: &mut [ArrayArg],
    opts: &ExecOptions,
    obs: Option<&mut dyn Observer>,
    seed: Option<u64>,
) -> Result<Vec<KValue>, KernelError> {
    let prog = crate::compile::compile(k)?;
    // The random schedule switches between work items at memory accesses; without an
    // observer, a no-op observer turns the access hooks on.
    let interleave = seed.is_some();
    let observed = obs.is_some();
    let mut quiet = Quiet;
    let obs: Option<&mut dyn Observer> = match obs {
        Some(o) => Some(o),
        None if interleave => Some(&mut quiet),
        None => None,
    };
    let mut space = Space::new(plan, prog.kernel_rank, prog.blocky)?;
    if seed.is_some() {
        space = space.with_chunk(1);
    }
    if args.len() != prog.params.len() {
        return Err(KernelError::bad_launch(format!(
            "kernel {} takes {} arguments, {} given",
            k.name,
            prog.params.len(),
            args.len()
        )));
    }
    // Parameters: variable values and array bindings.
    let mut params: Vec<(Reg, KValue, bool)> = Vec::new();
    let mut slot_arg: Vec<Option<usize>> = vec![None; prog.arrays.len()];
    for (i, (p, a)) in prog.params.iter().zip(args).enumerate() {
        match (p, a) {
            (ParamBind::Var { regs, assigned }, ArgVal::Value(v)) => {
                let comps = match v {
                    KValue::Vector(c) => c.clone(),
                    v => vec![v.clone()],
                };
                if comps.len() != regs.len() {
                    return Err(KernelError::bad_launch(format!(
                        "argument {i} has {} components, not {}",
                        comps.len(),
                        regs.len()
                    )));
                }
                params.extend(regs.iter().zip(comps).map(|(r, c)| (*r, c, *assigned)));
            }
            (ParamBind::Array(s), ArgVal::Array(j)) if *j < arrays.len() => {
                slot_arg[*s as usize] = Some(*j)
            }
            _ => {
                return Err(KernelError::bad_launch(format!(
                    "argument {i} does not match parameter {}",
                    k.params[i].name
                )))
            }
        }
    }
    let mut written = vec![false; arrays.len()];
    for (s, a) in slot_arg.iter().enumerate() {
        if let Some(a) = a {
            written[*a] |= prog.written[s];
        }
    }
    let mut mems = Vec::with_capacity(arrays.len());
    for (i, a) in arrays.iter_mut().enumerate() {
        let numel = a.dims.iter().fold(1usize, |x, &d| x.saturating_mul(d));
        let mem = GlobalMem::new(a.buf, a.dims.clone(), written[i]).ok_or_else(|| {
            KernelError::bad_launch(format!("array argument {i} is a cell array"))
        })?;
        if numel > mem.len() {
            return Err(KernelError::bad_launch(format!(
                "array argument {i} has dims {:?} but {} elements",
                a.dims,
                mem.len()
            )));
        }
        mems.push(mem);
    }
    let globals: Vec<Option<&GlobalMem>> = slot_arg.iter().map(|a| a.map(|a| &mems[a])).collect();
    let kr = prog.kernel_rank;
    let pos_contig: Vec<bool> = globals
        .iter()
        .map(|g| {
            g.is_some_and(|g| {
                let mut shape = [0usize; MAX_DIMS];
                index_shape(&g.dims, kr, &mut shape);
                shape[..kr] == space.kernel_dims()[..]
            })
        })
        .collect();
    if let Some(pos) = &prog.specials[0] {
        let mut used = Vec::new();
        space.skip_pos = !space.blocky
            && crate::program::pos_fast_only(&prog.body, pos, &mut used)
            && used.iter().all(|&a| pos_contig[a as usize]);
    }
    let kdims = space.kernel_dims();
    let kstride = (0..kr).map(|c| kdims[c + 1..].iter().product()).collect();
    let obs = obs.map(|o| {
        o.launch(&LaunchInfo {
            kernel: k,
            shape: space.shape(),
            slot_arg: &slot_arg,
            arg_dims: arrays.iter().map(|a| a.dims.clone()).collect(),
            arg_written: written.clone(),
        });
        Mutex::new(o)
    });
    let ctx = Ctx {
        obs: obs.as_ref(),
        sched: None,
        prog: &prog,
        globals,
        pos_contig,
        kdims,
        kstride,
        space: &space,
    };
    // A small launch runs on the calling thread: handing it to the pool's threads and
    // waiting for them costs more than its work (the results are the same).
    let order = seed.map(|s| crate::observe::permutation(space.items, s));
    let partials = if let (Some(order), Some(s)) = (&order, seed) {
        crate::interleave::run(&ctx, &space, &params, order, s, observed)
    } else if plan.serial || space.items <= INLINE_ITEMS || ctx.obs.is_some() {
        run_items(&ctx, &space, &params, true)
    } else {
        with_pool(opts.threads, || run_items(&ctx, &space, &params, false))
    };
    if let Some(o) = &obs {
        o.lock().unwrap_or_else(|e| e.into_inner()).end();
    }
    Ok(finish(&prog, &partials?))
}

/// The observer of an interleaved launch: only its access hooks are wanted.
struct Quiet;

impl Observer for Quiet {
    fn access(&mut self, _: &crate::observe::Access) {}
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
            None => match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => {
                    let pool = Arc::new(pool);
                    p.push((threads, pool.clone()));
                    Some(pool)
                }
                Err(_) => None,
            },
        }
    };
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// Output partials of each work item, in order.
type Partials = Vec<Vec<Lanes>>;

fn run_items(
    ctx: &Ctx,
    space: &Space,
    params: &[(Reg, KValue, bool)],
    serial: bool,
) -> Result<Partials, KernelError> {
    let items = space.items;
    // The failure reported is that of the failing thread with the lowest linear
    // position (a failing thread stops; the others run on). `stop` holds that position
    // so far: an item whose first position is past it cannot hold a lower one, nor can
    // any later item (items start at increasing positions).
    let stop = AtomicUsize::new(usize::MAX);
    let first_err: Mutex<Option<(usize, KernelError)>> = Mutex::new(None);
    let has_outputs = !ctx.prog.outputs.is_empty();
    let run_group = |range: std::ops::Range<usize>| -> Partials {
        let mut scratch = Scratch::new(ctx.prog, space.width, params);
        let mut out = Vec::new();
        for item in range {
            if space.linear_pos(item, 0) > stop.load(Ordering::Relaxed) {
                break;
            }
            let n = fill_specials(ctx.prog, space, &mut scratch, item);
            scratch.item = item;
            if let Some(o) = ctx.obs {
                o.lock().unwrap_or_else(|e| e.into_inner()).item(item, n);
            }
            let r = scratch.run(ctx);
            if let Some(o) = ctx.obs {
                o.lock().unwrap_or_else(|e| e.into_inner()).done(item);
            }
            if let Err(e) = r {
                let at = space.linear_pos(item, scratch.failed_lane().unwrap_or(0));
                stop.fetch_min(at, Ordering::Relaxed);
                let mut f = first_err.lock().unwrap_or_else(|e| e.into_inner());
                if f.as_ref().is_none_or(|(p, _)| at < *p) {
                    *f = Some((at, e));
                }
                continue;
            }
            let _ = n;
            if has_outputs {
                out.push(std::mem::take(&mut scratch.partials));
                scratch.partials = ctx
                    .prog
                    .outputs
                    .iter()
                    .map(|o| identity(o.op, o.ty))
                    .collect();
            }
        }
        out
    };
    let groups = if serial {
        1
    } else {
        (rayon::current_num_threads() * 8).clamp(1, items.max(1))
    };
    let per = items.div_ceil(groups.max(1)).max(1);
    let ranges: Vec<_> = (0..items)
        .step_by(per)
        .map(|s| s..(s + per).min(items))
        .collect();
    let parts: Vec<Partials> = if serial || ranges.len() <= 1 {
        ranges.into_iter().map(run_group).collect()
    } else {
        ranges.into_par_iter().map(run_group).collect()
    };
    if let Some((_, e)) = first_err.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(parts.into_iter().flatten().collect())
}

/// Combines the partials of all work items in order and applies each output's op.
fn finish(prog: &Program, partials: &Partials) -> Vec<KValue> {
    prog.outputs
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let op = partial_op(o.op);
            let mut acc = identity(o.op, o.ty);
            with_elem!(o.ty, T => {
                let mut a = T::get(&acc)[0];
                for p in partials {
                    a = T::combine(op, a, T::get(&p[i])[0]);
                }
                let zero = T::default();
                let one = T::from_kvalue(&KValue::Int(1));
                a = match o.op {
                    AtomicOp::Sub => T::combine(AtomicOp::Sub, zero, a),
                    AtomicOp::Div => T::combine(AtomicOp::Div, one, a),
                    AtomicOp::Pow => one,
                    _ => a,
                };
                T::get_mut(&mut acc)[0] = a;
            }, ());
            acc.lane(0)
        })
        .collect()
}
