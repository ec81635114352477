//! Kernel facts: what every backend asks of a kernel before generating or running it,
//! computed once per kernel (on first use, by [`crate::Kernel::facts`]) and shared by
//! all of them: which variables may differ between the threads of a block
//! (`uniform`), where a barrier or `return` sits under such a condition, whether the
//! kernel has barriers, which arrays it writes, which variables alias a special
//! (`alias`), whether its results cannot depend on the block shape (`block_free`),
//! and, on demand ([`crate::Kernel::ranges`]), the row-level range facts of its array
//! accesses (`affine`).

use crate::{Kernel, Special, StmtKind, VarId};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The facts of one kernel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Per variable: it may differ between the threads of a block.
    pub varying: Vec<bool>,
    /// The line of a barrier under a thread-dependent condition, if any.
    pub divergent_barrier: Option<u32>,
    /// The line of a `return` under a thread-dependent condition, if any.
    pub varying_return: Option<u32>,
    /// The kernel holds a barrier.
    pub has_barrier: bool,
    /// Per array slot: the kernel stores into it or updates it.
    pub written: Vec<bool>,
    /// Variables that always hold a special when read, with that special.
    pub aliases: HashMap<VarId, Special>,
    /// Its results cannot depend on the block shape ([`crate::props::block_free`]).
    pub block_free: bool,
    /// The row-level range facts, computed on first use (only row-wise backends ask).
    ranges: OnceLock<crate::affine::Ranges>,
}

impl Facts {
    /// Computes the facts of `k`.
    pub fn of(k: &Kernel) -> Facts {
        let mut has_barrier = false;
        crate::visit::walk_stmts(&k.body, &mut |s| {
            has_barrier |= matches!(s.kind, StmtKind::Barrier)
        });
        Facts {
            varying: crate::uniform::varying_vars(k),
            divergent_barrier: crate::uniform::divergent_barrier(k),
            varying_return: crate::uniform::varying_return(k),
            has_barrier,
            written: crate::visit::written_arrays(k),
            aliases: crate::alias::kernel_aliases(k),
            block_free: crate::props::block_free(k),
            ranges: OnceLock::new(),
        }
    }
}

impl Kernel {
    /// The row-level range facts of the kernel's array accesses (see [`crate::affine`]),
    /// computed once. They name expressions and statements by address, so they belong
    /// to this kernel only: a clone computes its own.
    pub fn ranges(&self) -> &crate::affine::Ranges {
        let f = self.facts();
        f.ranges
            .get_or_init(|| crate::affine::ranges(self, &f.aliases))
    }
}

/// The facts of a kernel once computed. A pass that changes a kernel resets them
/// (`blazar-passes` does after each one); a clone starts without them (the range facts
/// name parts of the kernel by address); they take no part in comparing kernels.
#[derive(Debug, Default)]
pub struct FactsCell(OnceLock<Facts>);

impl Clone for FactsCell {
    fn clone(&self) -> FactsCell {
        FactsCell::default()
    }
}

impl FactsCell {
    pub(crate) fn get(&self, k: &Kernel) -> &Facts {
        self.0.get_or_init(|| Facts::of(k))
    }
}

impl PartialEq for FactsCell {
    fn eq(&self, _: &FactsCell) -> bool {
        true
    }
}
