//! The random schedule inside a block: its threads part at memory accesses and meet
//! again before the next barrier.
//!
//! Without the random schedule the threads of a block run in lock step under one
//! execution mask. Under `--schedule random` (`Ctx::sched`), before each statement
//! that touches shared or global memory (`CStmt::touches`, marked by
//! `compile/sched.rs`) the work item draws from its seeded generator whether to
//! split the active threads into two random groups. The first group then runs the
//! statements up to the next one holding a barrier or a shared allocation
//! (`CStmt::fence`; or to the end of the block) while the second waits, exactly as
//! threads on a branch not taken; then the second group runs the same statements from
//! the same point, and the two meet again. Each group may split again at its own
//! memory accesses, so a thread can run many statements, whole loops included, ahead
//! of another, and a read-modify-write of one thread can fall between another's read
//! and write. Barriers are only ever reached by the merged mask, so they keep their
//! lock-step meaning, branch-dependent barriers included; temporaries die with their
//! statement, so a paused thread loses nothing while the other group runs. Where no
//! split happens before a statement with several memory accesses, its accesses may
//! interleave between groups of threads instead (`steps.rs`).

use super::scratch::all_set;
use super::{Ctx, Scratch};
use crate::interleave::next;
use crate::program::CStmt;
use crate::KernelError;

impl Scratch {
    /// `block_with` under the random schedule: runs block `b` under `mask`, splitting
    /// the active threads at memory accesses. Never inlined: the default path's
    /// `block_with` stays small.
    #[inline(never)]
    #[cold]
    pub(super) fn block_split(
        &mut self,
        ctx: &Ctx,
        b: &[CStmt],
        mask: &mut Vec<bool>,
        mut full: bool,
    ) -> Result<(), KernelError> {
        let n = self.n;
        let mut i = 0;
        while i < b.len() {
            let s = &b[i];
            if s.touches && !s.fence {
                if let Some(mut later) = self.part(&mask[..n]) {
                    // The threads meet again before the next fence.
                    let end = (b[i..].iter().position(|s| s.fence)).map_or(b.len(), |k| i + k);
                    let mut first = self.take_mask();
                    for l in 0..n {
                        first[l] = mask[l] & !later[l];
                    }
                    let seg = &b[i..end];
                    self.pause(&later[..n], s.line);
                    let r = self
                        .block_split(ctx, seg, &mut first, false)
                        .and_then(|()| {
                            self.pause(&later[..n], 0);
                            self.block_split(ctx, seg, &mut later, false)
                        });
                    // Lanes leave only by returning, breaking, continuing or failing.
                    let mut any = false;
                    for l in 0..n {
                        mask[l] = first[l] | later[l];
                        any |= mask[l];
                    }
                    self.pool.push(first);
                    self.pool.push(later);
                    r?;
                    if !any {
                        break;
                    }
                    full = all_set(&mask[..n]);
                    i = end;
                    continue;
                }
                // Or the statement's own accesses interleave (`steps.rs`).
                if self.stmt_steps(ctx, s, &mut mask[..n])? {
                    if !mask[..n].iter().any(|&m| m) {
                        break;
                    }
                    full = all_set(&mask[..n]);
                    i += 1;
                    continue;
                }
            }
            self.block_plain(ctx, std::slice::from_ref(s), mask, full)?;
            if !mask[..n].iter().any(|&m| m) {
                break;
            }
            full = all_set(&mask[..n]);
            i += 1;
        }
        Ok(())
    }

    /// Marks the lanes of `mask` as waiting at `line` (0: running again).
    pub(super) fn pause(&mut self, mask: &[bool], line: u32) {
        for (p, &m) in self.paused.iter_mut().zip(mask) {
            if m {
                *p = line;
            }
        }
    }

    /// With probability 1/2, when `mask` has two active lanes or more: the lanes to
    /// pause, a random subset of the active ones, neither empty nor all of them.
    fn part(&mut self, mask: &[bool]) -> Option<Vec<bool>> {
        if next(&mut self.split_rng) & 1 == 0 {
            return None;
        }
        let mut later = self.take_mask();
        let (mut stay, mut pause) = (false, false);
        let mut bits = 0;
        for (l, (p, &m)) in later.iter_mut().zip(mask).enumerate() {
            if l % 64 == 0 {
                bits = next(&mut self.split_rng);
            }
            *p = m & ((bits >> (l % 64)) & 1 == 1);
            stay |= m & !*p;
            pause |= *p;
        }
        if stay && pause {
            Some(later)
        } else {
            self.pool.push(later);
            None
        }
    }
}
