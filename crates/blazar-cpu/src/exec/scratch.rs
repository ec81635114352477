//! Creating a worker's scratch and resetting it for each work item.

use super::Scratch;
use crate::local::LocalPool;
use crate::ops::with_num;
use crate::program::{Program, Reg, RegKind};
use crate::values::{with_scalar, KValue, LaneTy, Lanes};
use blazar_kir::{AtomicOp, Scalar};

/// Whether every lane of `mask` is set (branch-free, so that it vectorises).
pub(super) fn all_set(mask: &[bool]) -> bool {
    mask.iter().fold(true, |a, &m| a & m)
}

/// The lanes from the first to the last set one of `mask` (None: no lane is set),
/// scanned 16 flags at a time.
pub(crate) fn active_range(mask: &[bool]) -> Option<(usize, usize)> {
    const W: usize = 16;
    let any = |c: &[bool]| c.iter().fold(false, |a, &m| a | m);
    let full = mask.len() / W * W;
    let lo = match mask[..full].chunks_exact(W).position(any) {
        Some(c) => c * W + mask[c * W..].iter().position(|&m| m)?,
        None => full + mask[full..].iter().position(|&m| m)?,
    };
    let hi = match mask[full..].iter().rposition(|&m| m) {
        Some(h) => full + h,
        None => {
            let c = mask[..full].chunks_exact(W).rposition(any)?;
            c * W + mask[c * W..c * W + W].iter().rposition(|&m| m)?
        }
    };
    Some((lo, hi + 1))
}

/// The per-work-item combining op of an output (`-=` sums, then negates at the end).
pub(crate) fn partial_op(op: AtomicOp) -> AtomicOp {
    match op {
        AtomicOp::Sub => AtomicOp::Add,
        AtomicOp::Div | AtomicOp::Pow => AtomicOp::Mul,
        op => op,
    }
}

/// The identity of `op` as a one-lane register of type `s`.
pub(crate) fn identity(op: AtomicOp, s: Scalar) -> Lanes {
    let mut l = Lanes::new(s, 1);
    with_num!(s, T => {
        let v: T = match partial_op(op) {
            AtomicOp::Mul => T::from_kvalue(&KValue::Int(1)),
            AtomicOp::And => T::from_kvalue(&KValue::Int(-1)),
            AtomicOp::Min => crate::memory::Elem::extreme(true),
            AtomicOp::Max => crate::memory::Elem::extreme(false),
            _ => T::default(),
        };
        T::get_mut(&mut l)[0] = v;
    }, ());
    l
}

impl Scratch {
    /// Registers for `width` lanes, with constants and fixed parameters filled in.
    pub(crate) fn new(prog: &Program, width: usize, params: &[(Reg, KValue, bool)]) -> Scratch {
        let mut regs: Vec<Lanes> = prog
            .reg_types
            .iter()
            .map(|&s| Lanes::new(s, width))
            .collect();
        for (r, v) in &prog.consts {
            regs[*r as usize].fill(v, width);
        }
        let mut param_fill = Vec::new();
        for (r, v, assigned) in params {
            regs[*r as usize].fill(v, width);
            if *assigned {
                param_fill.push((*r, v.clone()));
            }
        }
        let zero_regs = (0..regs.len() as Reg)
            .filter(|&r| prog.reg_kinds[r as usize] == RegKind::Var)
            .collect();
        let depth = prog.loop_depth;
        Scratch {
            regs,
            n: 0,
            width,
            live: vec![false; width],
            skipped: vec![false; width],
            any_skipped: false,
            fail_lanes: Vec::new(),
            failure: None,
            kills: 0,
            failed_at: None,
            contiguous: None,
            partials: prog.outputs.iter().map(|o| identity(o.op, o.ty)).collect(),
            pos_lo: vec![0; prog.kernel_rank],
            pos_hi: vec![0; prog.kernel_rank],
            pos_lazy: None,
            full: false,
            item: 0,
            slot: 0,
            split_rng: 0,
            depth: 0,
            in_step: false,
            paused: vec![0; width],
            seen: Vec::new(),
            pool: Vec::new(),
            brk: vec![Vec::new(); depth],
            cont: vec![Vec::new(); depth],
            emask: Vec::new(),
            off: vec![0; width],
            ok: vec![false; width],
            conv: vec![Lanes::default(); 13],
            shared: (0..prog.arrays.len()).map(|_| None).collect(),
            local: LocalPool::default(),
            zero_regs,
            param_fill,
        }
    }

    /// Prepares a work item of `n` lanes (specials are set by the caller).
    pub(crate) fn begin(&mut self, prog: &Program, n: usize) {
        self.n = n;
        for &r in &self.zero_regs {
            with_scalar!(prog.reg_types[r as usize], T => T::get_mut(&mut self.regs[r as usize])[..n].fill(T::default()));
        }
        for (r, v) in &self.param_fill {
            self.regs[*r as usize].fill(v, n);
        }
        self.live[..n].fill(true);
        self.skipped[..n].fill(false);
        self.any_skipped = false;
        self.fail_lanes.clear();
        self.failure = None;
        for s in self.shared.iter_mut().flatten() {
            s.dims.clear();
        }
        self.local.reset(self.width);
        for (p, o) in self.partials.iter_mut().zip(&prog.outputs) {
            *p = identity(o.op, o.ty);
        }
    }
}
