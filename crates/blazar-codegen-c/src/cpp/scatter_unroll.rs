//! Loops over a block's threads whose body updates memory at an index computed from
//! data (`bins[int(x)] += 1`): unrolled four times.
//!
//! Such a loop never vectorises (two threads may update one element), so GCC keeps it
//! a scalar loop, and at `-O3` it does not unroll it: each update then pays the loop's
//! counter, compare and branch, and the processor overlaps fewer updates. Unrolled,
//! the update loop of a histogram of 8-bit pixels took 0.87 of the time on the Xeon
//! the benchmarks run on and 0.93 on an EPYC (single thread, the same C++ otherwise;
//! `benches/cpu/histogram`). A loop that GCC would vectorise has no such update, and
//! is left as it was.

use super::Gen;
use blazar_kir::{ExprKind, Stmt, StmtKind};

/// The unrolling factor.
pub const UNROLL: usize = 4;

impl Gen<'_> {
    /// The line to print before the loop over the threads that runs `body` with the
    /// loop variable `var`: an unrolling pragma when `body` updates memory at an index
    /// that is neither constant nor the loop variable (see the module's notes).
    pub(crate) fn scatter_unroll(&self, body: &[&Stmt], var: u32) -> Option<String> {
        let mut scattered = false;
        for s in body {
            blazar_kir::visit::walk_stmts(std::slice::from_ref(*s), &mut |s| {
                if let StmtKind::Update { index, .. } = &s.kind {
                    scattered |= index.iter().any(|e| {
                        !matches!(e.kind, ExprKind::Const(_))
                            && !matches!(e.kind, ExprKind::Var(v) if v == var)
                    });
                }
            });
        }
        scattered.then(|| format!("#pragma GCC unroll {UNROLL}"))
    }
}
