//! An `if` whose two branches store the same elements as stores of selects, without a
//! branch: the compare-exchange of a sorting network (`if up: s[i] = min(a, b);
//! s[i + j] = max(a, b) else: s[i] = max(a, b); s[i + j] = min(a, b)`) becomes
//! `s[i] = up ? min(a, b) : max(a, b); s[i + j] = up ? max(a, b) : min(a, b)`.
//!
//! The rewrite applies when both branches are the same number of plain stores, pairwise
//! to the same array at structurally equal indices (evaluated in the same order, as the
//! branch taken evaluates them), and neither the condition nor any stored value reads
//! memory: evaluating both values is then free of effects and errors, the condition
//! reads the same variables before each store (stores change no variable), and the
//! elements written, their order and their values are the branch's. Where the array's
//! writes are `'checked`, the paired stores must also sit on the same line, so that an
//! index outside reports the line the taken branch would. The branch-free form costs
//! both values (cheap: they read no memory) and saves a branch that the threads of a
//! sorting network take in turn (`benches/cpu/row_sort`: 81 ms to 65 ms on one thread).

use super::Gen;
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{Expr, ExprKind, Stmt, StmtKind, Ty, WriteMode};

/// `text`, a value of the branch-free form, with its float `min`/`max` spelled by the
/// prelude's scalar SSE forms (`bz_sfminf`, ...; the same results): with the bit-mask
/// forms GCC 13 still branches on the compare when it prints the select, and a
/// compare-exchange's compare is taken at random (`benches/cpu/row_sort` on the Xeon:
/// 1.7 to 2.1 times the C reference with the masks, 1.1 to 1.5 with these). The names
/// start with `bz_`, which no other printed name shares.
fn scalar_minmax(text: &str) -> String {
    text.replace("bz_fminf(", "bz_sfminf(")
        .replace("bz_fmaxf(", "bz_sfmaxf(")
        .replace("bz_fmin(", "bz_sfmin(")
        .replace("bz_fmax(", "bz_sfmax(")
}

/// Whether `e` reads memory (an array element).
fn reads_memory(e: &Expr) -> bool {
    let mut hit = false;
    blazar_kir::visit::walk_expr(e, &mut |x| {
        hit |= matches!(x.kind, ExprKind::Load { .. });
    });
    hit
}

impl Gen<'_> {
    /// The pairs of stores (then, else) of `if cond then else els` when the `if` can run
    /// as stores of selects (see the module notes).
    fn select_pairs<'s>(
        &self,
        cond: &Expr,
        then: &'s [Stmt],
        els: &'s [Stmt],
    ) -> Option<Vec<(&'s Stmt, &'s Stmt)>> {
        if then.is_empty() || then.len() != els.len() {
            return None;
        }
        if !matches!(cond.ty, Ty::Scalar(_)) || reads_memory(cond) {
            return None;
        }
        let pairs: Vec<(&Stmt, &Stmt)> = then.iter().zip(els).collect();
        for (a, b) in &pairs {
            let (
                StmtKind::Store {
                    arr: arr_a,
                    index: index_a,
                    value: value_a,
                    at: at_a,
                },
                StmtKind::Store {
                    arr: arr_b,
                    index: index_b,
                    value: value_b,
                    at: at_b,
                },
            ) = (&a.kind, &b.kind)
            else {
                return None;
            };
            if arr_a != arr_b || index_a != index_b || value_a.ty != value_b.ty {
                return None;
            }
            if !matches!(value_a.ty, Ty::Scalar(_))
                || reads_memory(value_a)
                || reads_memory(value_b)
            {
                return None;
            }
            let checked = match self.k.arrays.get(*arr_a as usize).map(|d| d.ty) {
                Some(Ty::Array(t)) => t.write == WriteMode::Checked,
                _ => return None,
            };
            if checked && (a.line != b.line || at_a != at_b) {
                return None;
            }
        }
        Some(pairs)
    }

    /// Prints `s`, an `if`, as stores of selects when its branches allow it (see the
    /// module notes); false (nothing printed) otherwise.
    ///
    /// The condition and both values of every store are computed into temporaries
    /// first, so the C++ compiler sees plain selects of computed values (with the
    /// values inside a `?:` it may branch again).
    pub(crate) fn select_stores(&mut self, s: &Stmt) -> bool {
        let StmtKind::If { cond, then, els } = &s.kind else {
            return false;
        };
        let Some(pairs) = self.select_pairs(cond, then, els) else {
            return false;
        };
        self.line_out("{");
        self.o.depth += 1;
        let c = self.tmp();
        let x = self.expr(cond);
        self.line_out(&format!("const bool {c} = {x};"));
        let mut picks = Vec::new();
        for (a, b) in &pairs {
            let (StmtKind::Store { value: v, .. }, StmtKind::Store { value: w, .. }) =
                (&a.kind, &b.kind)
            else {
                continue;
            };
            let t = spell::ty(v.ty);
            let (x, y) = (scalar_minmax(&self.expr(v)), scalar_minmax(&self.expr(w)));
            let (tx, ty) = (self.tmp(), self.tmp());
            self.line_out(&format!("const {t} {tx} = {x}, {ty} = {y};"));
            picks.push((format!("({c} ? {tx} : {ty})"), v.ty.elem()));
        }
        for ((a, _), (pick, from)) in pairs.iter().zip(picks) {
            let StmtKind::Store { arr, index, at, .. } = &a.kind else {
                continue;
            };
            self.begin_stmt(a);
            // Keyed by the `if` itself: no row proof (made under the branch's
            // condition) applies to the unconditional store.
            self.store_of(
                s as *const Stmt as usize,
                (*arr, *at),
                index,
                None,
                true,
                |_| (pick, from, false),
            );
        }
        self.o.depth -= 1;
        self.line_out("}");
        true
    }
}
