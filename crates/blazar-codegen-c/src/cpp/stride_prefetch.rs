//! Prefetching the next iterations of a grid-stride loop under fission.
//!
//! A GPU-style reduction walks its input with `for k = pos..stride..n-1`, `stride`
//! the number of threads of the whole launch: when one block runs, an iteration of its
//! interleaved loop (`interleave::affine_loop`) reads one contiguous run of `blkdim`
//! elements, and the next iteration's run starts `stride` elements further. Each run
//! starts in memory the hardware prefetcher has not seen (it follows streams within
//! a page), so every iteration waits for memory once. When the step is larger than
//! the block, the loads whose index is the loop variable (and otherwise fixed over the
//! loop) are prefetched [`AHEAD`] iterations before they run, a line at a time: the
//! loads of several iterations are then in flight together, as a contiguous stream's
//! would be. Prefetches never fault and change no value; addresses are computed as
//! integers, so one past the array's end is harmless.

use super::Gen;
use crate::cpp::support::SlotKind;
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{ExprKind, Stmt, Ty};

/// Iterations between a prefetch and the loads it serves.
pub const AHEAD: i64 = 4;

impl Gen<'_> {
    /// Global arrays that `body` loads with an index whose last component is `var`
    /// and whose others are fixed over the loop (`direct_index`), with those indices.
    fn strided_loads(&self, body: &[&Stmt], var: u32) -> Vec<(u32, Vec<String>)> {
        let mut out = Vec::new();
        for s in body {
            blazar_kir::visit::walk_stmts(std::slice::from_ref(*s), &mut |s| {
                blazar_kir::visit::stmt_exprs(s, &mut |e| {
                    blazar_kir::visit::walk_expr(e, &mut |x| {
                        if let ExprKind::Load { arr, index, .. } = &x.kind {
                            let global =
                                self.plan.slots.get(*arr as usize) == Some(&SlotKind::Global);
                            if let (true, Some(atoms)) = (global, self.direct_index(index, var)) {
                                out.push((*arr, atoms));
                            }
                        }
                    })
                })
            });
        }
        out.sort();
        out.dedup();
        out
    }

    /// Inside the loop over the iterations of an affine interleaved loop (`bz_b` the
    /// first thread's value, `bz_n` the threads that run it, `bz_s0` the step): the
    /// prefetches of iteration `bz_b + AHEAD * bz_s0` when the step exceeds the block.
    pub(crate) fn stride_prefetch(&mut self, body: &[&Stmt], var: u32) {
        let loads = self.strided_loads(body, var);
        if loads.is_empty() {
            return;
        }
        self.line_out("if (bz_s0 > bz_nt) {");
        self.o.depth += 1;
        self.line_out(&format!("const i64 bz_pb = bz_b + {AHEAD} * bz_s0;"));
        for (a, atoms) in &loads {
            let Some(Ty::Array(t)) = self.k.arrays.get(*a as usize).map(|d| d.ty) else {
                continue;
            };
            let ct = spell::scalar(t.elem);
            let shape = self.shape(*a, (t.rank as usize).max(1), atoms.len());
            let last = atoms.len() - 1;
            let mut off = String::new();
            for (i, x) in atoms[..last].iter().enumerate() {
                off = if off.is_empty() {
                    format!("(i64)({x})")
                } else {
                    format!("({off}) * {} + (i64)({x})", shape[i])
                };
            }
            off = if off.is_empty() {
                "bz_pb + bz_p".to_string()
            } else {
                format!("({off}) * {} + bz_pb + bz_p", shape[last])
            };
            let name = self.arr_name(*a);
            self.line_out(&format!(
                "for (i64 bz_p = 0; bz_p < bz_n; bz_p += 64 / (i64)sizeof({ct}) > 0 ? 64 / (i64)sizeof({ct}) : 1) __builtin_prefetch((const void*)((uintptr_t){name} + (uintptr_t)({off}) * sizeof({ct})));"
            ));
        }
        self.o.depth -= 1;
        self.line_out("}");
    }
}
