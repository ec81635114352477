//! The random schedule inside one statement: the memory accesses of a statement run
//! as steps, and the threads of a block switch between them.
//!
//! `exec/split.rs` lets a block's threads part between statements; a statement itself
//! still runs in lock step there, so a thread's read and its write of
//! `s[0] = s[0] + 1` are never split by another thread of its block. Here, under
//! `--schedule random`, before a statement with two shared- or global-memory accesses
//! or more (loads of its expression, then its store), the work item may draw
//! a partition of the active threads into 2–4 random groups. Each group walks the
//! statement in *steps*: its instructions up to and including its next memory
//! access, the last step holding the statement's own effect (the store). Steps of
//! different groups are interleaved in a seeded random order, each group keeping its
//! own order, so a group can read, another group read and write, and the first write
//! what it read before: an update lost inside the statement.
//!
//! Groups share the register file, whose instructions compute every lane in a range
//! and whose loads fill every lane: each step saves the registers the statement
//! writes and restores them afterwards for the lanes outside its group, so a group
//! paused between steps finds its values as it left them. Step boundaries lie only
//! outside `MaskPush`/`MaskPop` pairs (the lazy-operand mask stack is one per work
//! item). A failing thread stops as in lock step and its group starts the statement
//! again without it (its earlier steps only read). An observer's `stmt` hook sees
//! each step of each group, with `ItemView::part` its number (0: the group starts the
//! statement).

use super::Scratch;
use super::{Ctx, Inst};
use crate::interleave::next;
use crate::program::{CKind, CStmt, Reg};
use crate::values::Lanes;
use crate::KernelError;
use blazar_kir::Space;

/// The most groups a statement's threads part into.
const GROUPS: u64 = 4;

/// Where a statement's steps end: indices into its `code` after each memory load
/// outside a lazy-operand mask, and whether its own effect is a memory access.
fn bounds<'s>(
    s: &'s CStmt,
    arrays: &[blazar_kir::ArrayTy],
) -> Option<(&'s [Inst], Vec<usize>, bool)> {
    let visible = |a: u32| {
        arrays
            .get(a as usize)
            .is_some_and(|t| t.space != Space::Local)
    };
    let (code, effect) = match &s.kind {
        CKind::Assign { code, .. }
        | CKind::SetLane { code, .. }
        | CKind::Accumulate { code, .. }
        | CKind::Assert { code, .. } => (code, false),
        CKind::Store { code, arr, .. } => (code, visible(*arr)),
        _ => return None,
    };
    let (mut cuts, mut depth) = (Vec::new(), 0usize);
    for (k, i) in code.iter().enumerate() {
        match i {
            Inst::MaskPush { .. } => depth += 1,
            Inst::MaskPop => depth = depth.saturating_sub(1),
            Inst::Load { arr, .. } if depth == 0 && visible(*arr) => cuts.push(k + 1),
            Inst::LoadBin { load, .. } if depth == 0 => {
                if matches!(**load, Inst::Load { arr, .. } if visible(arr)) {
                    cuts.push(k + 1)
                }
            }
            _ => {}
        }
    }
    // The last load's step ends the code when the statement's effect is no access.
    if !effect && cuts.last() == Some(&code.len()) {
        cuts.pop();
    }
    (cuts.len() + effect as usize >= 2).then_some((code, cuts, effect))
}

/// The registers `code` writes (nested index code included).
fn dsts(code: &[Inst], out: &mut Vec<Reg>) {
    for i in code {
        match i {
            Inst::Unary { d, .. }
            | Inst::Binary { d, .. }
            | Inst::Cast { d, .. }
            | Inst::Select { d, .. }
            | Inst::Math { d, .. }
            | Inst::LaneDyn { d, .. }
            | Inst::Size { d, .. }
            | Inst::Numel { d, .. } => out.push(*d),
            Inst::Load { d, slow, .. } => {
                out.push(*d);
                dsts(slow, out);
            }
            Inst::LoadBin { d, load, .. } => {
                out.push(*d);
                dsts(std::slice::from_ref(load), out);
            }
            Inst::MaskPush { .. } | Inst::MaskPop => {}
        }
    }
}

/// Statement `s` without its code: its effect alone.
fn effect_of(s: &CStmt) -> CStmt {
    let mut t = s.clone();
    match &mut t.kind {
        CKind::Assign { code, .. }
        | CKind::SetLane { code, .. }
        | CKind::Accumulate { code, .. }
        | CKind::Assert { code, .. }
        | CKind::Store { code, .. } => code.clear(),
        _ => {}
    }
    t
}

impl Scratch {
    /// With probability 1/2, when statement `s` has two memory accesses or more and
    /// `mask` two active lanes or more: runs it in steps (see the module
    /// documentation) and returns true; else false, and nothing has run.
    #[inline(never)]
    pub(super) fn stmt_steps(
        &mut self,
        ctx: &Ctx,
        s: &CStmt,
        mask: &mut [bool],
    ) -> Result<bool, KernelError> {
        let n = self.n;
        let Some((code, cuts, _)) = bounds(s, &ctx.prog.arrays) else {
            return Ok(false);
        };
        if next(&mut self.split_rng) & 1 == 0 {
            return Ok(false);
        }
        // The groups: each active lane draws one of `k`.
        let k = 2 + next(&mut self.split_rng) % (GROUPS - 1);
        let mut groups: Vec<Vec<bool>> = (0..k).map(|_| vec![false; n]).collect();
        for l in (0..n).filter(|&l| mask[l]) {
            groups[(next(&mut self.split_rng) % k) as usize][l] = true;
        }
        groups.retain(|g| g.iter().any(|&m| m));
        if groups.len() < 2 {
            return Ok(false);
        }
        let effect = effect_of(s);
        let mut written = Vec::new();
        dsts(code, &mut written);
        if let CKind::Store { slow, .. } = &s.kind {
            dsts(slow, &mut written);
        }
        written.sort_unstable();
        written.dedup();
        // Step `j` runs `code[starts[j]..ends[j]]`; the last one also the effect.
        let mut starts = vec![0];
        starts.extend(&cuts);
        let mut ends = cuts.clone();
        ends.push(code.len());
        let steps = starts.len();
        let mut at = vec![0usize; groups.len()];
        let kills = self.kills;
        // Every group waits at this statement while others take their steps.
        self.pause(&mask[..n], s.line);
        loop {
            let open: Vec<usize> = (0..groups.len()).filter(|&g| at[g] < steps).collect();
            if open.is_empty() {
                break;
            }
            let g = open[(next(&mut self.split_rng) % open.len() as u64) as usize];
            let j = at[g];
            self.notify(ctx, s.line, &groups[g], j as u32);
            let last = (j + 1 == steps).then_some(&effect);
            match self.step(
                ctx,
                &code[starts[j]..ends[j]],
                last,
                &groups[g],
                &written,
                s.line,
            ) {
                Ok(()) => at[g] += 1,
                Err(e) if !e.stops_one_thread() => return Err(e),
                Err(e) => {
                    // The group's earlier steps only read: it starts again without
                    // its failing threads.
                    if self.stop_failed(e, &mut groups[g]) {
                        at[g] = 0;
                    } else {
                        at[g] = steps;
                    }
                }
            }
        }
        self.pause(&mask[..n], 0);
        for l in 0..n {
            mask[l] = groups.iter().any(|g| g[l]);
        }
        if self.kills != kills {
            for (m, &l) in mask.iter_mut().zip(&self.live) {
                *m &= l;
            }
        }
        Ok(true)
    }

    /// One step of a group: `code`, then the statement's `effect` when this is its
    /// last step, for the lanes of `group`; the registers in `written` keep their
    /// values in the other lanes.
    fn step(
        &mut self,
        ctx: &Ctx,
        code: &[Inst],
        effect: Option<&CStmt>,
        group: &[bool],
        written: &[Reg],
        line: u32,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let saved: Vec<Lanes> = written
            .iter()
            .map(|&r| self.regs[r as usize].clone())
            .collect();
        self.full = false;
        let mut m = group.to_vec();
        // The effect runs through `block_plain` (its failing lanes stop there, as in
        // lock step), so that `stmt` keeps its single caller and the default path its
        // code; the step's own hook has been called.
        let r = self.code(ctx, code, &m, line).and_then(|()| match effect {
            Some(e) => {
                self.in_step = true;
                let r = self.block_plain(ctx, std::slice::from_ref(e), &mut m, false);
                self.in_step = false;
                r
            }
            None => Ok(()),
        });
        for (&r, mut old) in written.iter().zip(saved) {
            old.copy_masked(&self.regs[r as usize], &group[..n], false);
            self.regs[r as usize] = old;
        }
        r
    }

    /// The observer's `stmt` hook for step `part` of the lanes of `mask`.
    fn notify(&self, ctx: &Ctx, line: u32, mask: &[bool], part: u32) {
        if let Some(o) = ctx.obs {
            let view = crate::view::ItemView {
                scratch: self,
                ctx,
                item: self.item,
                line,
                depth: self.depth,
                mask: &mask[..self.n],
                part,
            };
            o.lock().unwrap_or_else(|e| e.into_inner()).stmt(&view);
        }
    }
}
