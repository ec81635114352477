//! Memory instructions as an observer sees them: the element of each active lane.
//!
//! Called only when the launch has an observer (`Ctx::obs`), after the instruction
//! has computed its offsets: a contiguous [`Span`], the gathered `off`/`ok` lanes, or
//! one element for every active lane (uniform loads).

use super::{Ctx, Scratch, Span};
use crate::observe::{Access, AccessKind, MemSpace};
use blazar_kir::Space;

/// Where the lanes of an access find their elements.
#[derive(Clone, Copy)]
pub(super) enum At {
    /// Lanes `lo..hi` of the span read or write `start + (lane - lo)`.
    Span(Span),
    /// Each lane at `off[lane]` where `ok[lane]`.
    Gather,
    /// Every active lane at one element (`None`: outside the array).
    One(Option<usize>),
}

impl Scratch {
    /// Reports the active lanes (`mask`) of an access to array slot `arr` to the
    /// launch's observer, if any.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn observe(
        &mut self,
        ctx: &Ctx,
        arr: u32,
        kind: AccessKind,
        line: u32,
        mask: &[bool],
        at: At,
    ) {
        // The instruction has taken effect: under the random schedule another
        // coroutine may run now.
        if let Some(b) = ctx.sched {
            b.switch(self.slot);
        }
        let Some(obs) = ctx.obs else {
            return;
        };
        let a = arr as usize;
        let (space, dims): (MemSpace, &[usize]) = match ctx.prog.arrays[a].space {
            Space::Global => match ctx.globals[a] {
                Some(g) => (MemSpace::Global, &g.dims),
                None => return,
            },
            Space::Shared => match &self.shared[a] {
                Some(s) => (MemSpace::Shared, &s.dims),
                None => return,
            },
            Space::Local => return,
        };
        let n = self.n;
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        match at {
            At::Span(sp) => {
                let (lo, hi) = (sp.lo.min(n), sp.hi.min(n));
                for l in lo..hi.max(lo) {
                    if mask[l] {
                        seen.push((l as u32, sp.start + (l - lo)));
                    }
                }
            }
            At::Gather => {
                for l in 0..n {
                    if mask[l] && self.ok[l] {
                        seen.push((l as u32, self.off[l]));
                    }
                }
            }
            At::One(Some(o)) => {
                for l in 0..n {
                    if mask[l] {
                        seen.push((l as u32, o));
                    }
                }
            }
            At::One(None) => {}
        }
        if !seen.is_empty() {
            let access = Access {
                slot: arr,
                space,
                kind,
                line,
                item: self.item,
                dims,
                lanes: &seen,
            };
            obs.lock()
                .unwrap_or_else(|e| e.into_inner())
                .access(&access);
        }
        self.seen = seen;
    }
}
