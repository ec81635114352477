//! Failing threads: a lane that fails a check (an assertion, a `'checked` access)
//! stops, as if it returned, and the other lanes of the work item run on; the item
//! keeps the failure of its lowest failing lane, so that a launch reports the failure
//! of its lowest failing thread on every tier.

use super::Scratch;
use crate::KernelError;
use std::mem::take;

impl Scratch {
    /// The lowest lane of the work item that failed, if any (after [`Scratch::run`]
    /// returned an error).
    pub(crate) fn failed_lane(&self) -> Option<usize> {
        self.failed_at
    }

    /// After statement `s` failed with `e`: stops the failing lanes (the first active
    /// lane when the check named none), keeps the failure of the lowest lane, and says
    /// whether the statement is to run again for the lanes left.
    pub(super) fn stop_failed(&mut self, e: KernelError, mask: &mut [bool]) -> bool {
        let n = self.n;
        // The failing check left the statement's code midway: masks it pushed for `?:`
        // branches (`MaskPush`) were never popped.
        while let Some(m) = self.emask.pop() {
            self.pool.push(m);
        }
        let mut lanes = take(&mut self.fail_lanes);
        // Only lanes of this statement's mask can stop here (a check may report the
        // lanes of a wider mask); one always does, so the statement's reruns end.
        lanes.retain(|&l| l < n && mask[l]);
        if lanes.is_empty() {
            match (0..n).find(|&l| mask[l]) {
                Some(l) => lanes.push(l),
                None => return false,
            }
        }
        let low = lanes.iter().copied().min().unwrap_or(0);
        if self.failure.as_ref().is_none_or(|(l, _)| low < *l) {
            self.failure = Some((low, e));
        }
        for &l in &lanes {
            if l < n {
                self.live[l] = false;
                mask[l] = false;
            }
        }
        lanes.clear();
        self.fail_lanes = lanes;
        self.kills += 1;
        mask[..n].iter().any(|&m| m)
    }
}
