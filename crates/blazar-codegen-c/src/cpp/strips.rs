//! Strips of lanes: a counted loop that every thread runs with the same bounds becomes
//! the outer loop of a strip of [`LANES`] consecutive threads, with the loop over the
//! lanes inside, so that the C++ compiler vectorises across threads (a dot product per
//! thread becomes a vector of dot products, each still summed in its own order).
//!
//! The kernel body must be `pre; for v = a..s..b (body); post` at the top level, where
//! the loop is uniform (`emit::range`), `pre` and the loop body only assign variables,
//! and every load in them is proven in range and reads an array that the kernel never
//! writes (and that does not overlap a written one at run time). Then each thread's
//! `pre` and loop iterations touch only its own variables and memory that does not
//! change during the launch, so running `pre` for all lanes, then the iterations
//! lane-interleaved, then `post` lane by lane in thread order, is the executor's
//! result: `post` (stores, outputs, errors) still runs in thread order.
//!
//! A body without the loop, `pre; accumulate*` (a reduction with a thread per element,
//! as whole-array reductions are lowered for the CPU), runs in strips too: `pre` for all
//! lanes, then each output's values of the strip combined into one accumulator per lane
//! (`bz_lacc<o>`, an element-wise map the compiler vectorises), folded pairwise into the
//! output once per work item (`bz_fold`). The outputs' operations are associative and
//! partial results have no order across threads anyway.

use super::Gen;
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{Expr, ExprKind, Stmt, StmtKind, Ty};
use std::collections::BTreeSet;

/// Threads per strip.
pub(crate) const LANES: usize = 64;

/// The parts of a kernel run in strips.
pub(crate) struct Strip<'k> {
    pub pre: &'k [Stmt],
    /// The uniform loop; `None` for a reduction strip (`post` only accumulates).
    pub lp: Option<&'k Stmt>,
    pub post: &'k [Stmt],
    /// Array slots read by `pre` and the loop, and slots the kernel writes.
    pub reads: BTreeSet<u32>,
    pub writes: BTreeSet<u32>,
}

pub(super) fn written(b: &[Stmt], out: &mut BTreeSet<u32>) {
    for s in b {
        match &s.kind {
            StmtKind::Store { arr, .. } | StmtKind::Update { arr, .. } => {
                out.insert(*arr);
            }
            StmtKind::If { then, els, .. } => {
                written(then, out);
                written(els, out);
            }
            StmtKind::While { body, .. } | StmtKind::For { body, .. } => written(body, out),
            _ => {}
        }
    }
}

impl<'k> Gen<'k> {
    /// The loads of `e` are all proven and read none of `writes` (collected in `reads`).
    pub(super) fn pure_loads(
        &self,
        e: &Expr,
        writes: &BTreeSet<u32>,
        reads: &mut BTreeSet<u32>,
    ) -> bool {
        let mut ok = true;
        blazar_kir::visit::walk_expr(e, &mut |x| {
            if let ExprKind::Load { arr, .. } = &x.kind {
                ok &= self
                    .proofs
                    .accesses
                    .contains_key(&(x as *const Expr as usize))
                    && !writes.contains(arr);
                reads.insert(*arr);
            }
        });
        ok
    }

    /// Statements that only assign variables from pure expressions.
    pub(super) fn pure_assigns(
        &self,
        b: &[Stmt],
        writes: &BTreeSet<u32>,
        reads: &mut BTreeSet<u32>,
    ) -> bool {
        b.iter().all(|s| match &s.kind {
            StmtKind::Assign { value, .. } => self.pure_loads(value, writes, reads),
            StmtKind::SetLane { lane, value, .. } => {
                self.pure_loads(lane, writes, reads) && self.pure_loads(value, writes, reads)
            }
            _ => false,
        })
    }

    /// The strip plan of the kernel, when it has one of the shapes above.
    pub(crate) fn strip_plan(&self) -> Option<Strip<'k>> {
        let body: &'k [Stmt] = &self.k.body;
        let Some(i) = body
            .iter()
            .position(|s| matches!(s.kind, StmtKind::For { .. } | StmtKind::While { .. }))
        else {
            return self.reduce_plan();
        };
        let lp = &body[i];
        if matches!(lp.kind, StmtKind::While { .. }) {
            return self.while_plan(i);
        }
        if !self
            .proofs
            .uniform_for
            .contains(&(lp as *const Stmt as usize))
        {
            return None;
        }
        let StmtKind::For { body: lb, .. } = &lp.kind else {
            return None;
        };
        self.loop_strip(i, lb, |_, _| true)
    }

    /// The strip `pre; loop; post` around the loop at `body[i]` (whose body is `lb`):
    /// `pre` and `lb` assign pure values, and `head` (the loop's own test, given the
    /// slots the kernel writes and collecting those it reads) holds.
    pub(super) fn loop_strip(
        &self,
        i: usize,
        lb: &'k [Stmt],
        head: impl FnOnce(&BTreeSet<u32>, &mut BTreeSet<u32>) -> bool,
    ) -> Option<Strip<'k>> {
        let body: &'k [Stmt] = &self.k.body;
        let mut writes = BTreeSet::new();
        written(body, &mut writes);
        let mut reads = BTreeSet::new();
        let ok = !lb.is_empty()
            && head(&writes, &mut reads)
            && self.pure_assigns(&body[..i], &writes, &mut reads)
            && self.pure_assigns(lb, &writes, &mut reads);
        ok.then_some(Strip {
            pre: &body[..i],
            lp: Some(&body[i]),
            post: &body[i + 1..],
            reads,
            writes,
        })
    }

    /// `pre; accumulate*`: pure assignments, then outputs accumulated with pure values.
    fn reduce_plan(&self) -> Option<Strip<'k>> {
        let body: &'k [Stmt] = &self.k.body;
        let i = body
            .iter()
            .position(|s| matches!(s.kind, StmtKind::Accumulate { .. }))?;
        let writes = BTreeSet::new();
        let mut reads = BTreeSet::new();
        let ok = self.pure_assigns(&body[..i], &writes, &mut reads)
            && body[i..].iter().all(|s| match &s.kind {
                StmtKind::Accumulate { output, value } => {
                    self.k.outputs.get(*output as usize).is_some_and(|o| {
                        use blazar_kir::AtomicOp::*;
                        matches!(crate::names::partial_op(o.op), Add | Mul | Min | Max)
                    }) && self.pure_loads(value, &writes, &mut reads)
                }
                _ => false,
            });
        ok.then_some(Strip {
            pre: &body[..i],
            lp: None,
            post: &body[i..],
            reads,
            writes,
        })
    }

    /// What the compiler may assume of a strip's first lane: without flattening, lanes
    /// are the last position component, whose extent fits an i32 (the launch checks),
    /// so `(i32)(bz_sp + l)` never wraps and consecutive lanes read consecutive
    /// elements (vector loads rather than one element at a time).
    pub(super) fn strip_bounds(&mut self) {
        if self.flat.is_none() {
            self.line_out(&format!(
                "if (bz_sp < 0 || bz_sp > {}ll) __builtin_unreachable();",
                i32::MAX as i64 - LANES as i64
            ));
        }
    }

    /// The reduction strip: `pre` for every lane, then each output folded.
    fn reduce_code(&mut self, st: &Strip<'k>) {
        self.strip_bounds();
        let body: Vec<&Stmt> = self.k.body.iter().collect();
        let assigned = super::fission::assigned_in(&body, self.k.vars.len());
        for (i, v) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            self.line_out(&format!("{} {name}_l[{LANES}];", spell::ty(v.ty)));
        }
        self.lane_phase(st.pre, true, None, true);
        for s in st.post {
            let StmtKind::Accumulate { output, value } = &s.kind else {
                continue;
            };
            let o = &self.k.outputs[*output as usize];
            let (op, t) = (
                spell::op_code(crate::names::partial_op(o.op)),
                spell::scalar(o.ty),
            );
            let (oty, vty) = (o.ty, value.ty.elem());
            let vals = self.tmp();
            self.line_out(&format!("{t} {vals}[{LANES}];"));
            self.line_out(&format!("for (int bz_l = 0; bz_l < {LANES}; bz_l++) {{"));
            self.o.depth += 1;
            self.lane_pos();
            for (i, v) in self.k.vars.iter().enumerate() {
                let name = self.var_base(i as u32);
                // A variable the body never assigns (a view's start) holds its
                // parameter in every lane: read directly, the compiler sees it uniform
                // and the lanes' loads as consecutive.
                let from = if assigned[i] {
                    format!("{name}_l[bz_l]")
                } else {
                    self.var_init(i)
                };
                self.line_out(&format!("const {} {name} = {from};", spell::ty(v.ty)));
            }
            let x = self.expr(value);
            let x = spell::cast(oty, vty, &x);
            self.line_out(&format!("{vals}[bz_l] = {x};"));
            self.o.depth -= 1;
            self.line_out("}");
            self.line_out(&format!(
                "for (int bz_l = 0; bz_l < {LANES}; bz_l++) bz_lacc{output}[bz_l] = bz_lane_combine<{op}, {t}>(bz_lacc{output}[bz_l], {vals}[bz_l]);"
            ));
        }
        self.lane_outputs = true;
    }

    /// Per work item: the lane accumulators of a reduction strip (`fold`: false) or
    /// their fold into the outputs (`fold`: true).
    pub(crate) fn lane_accumulators(&self, fold: bool) -> String {
        let mut s = String::new();
        if !self.lane_outputs {
            return s;
        }
        for (i, o) in self.k.outputs.iter().enumerate() {
            let (op, t) = (
                spell::op_code(crate::names::partial_op(o.op)),
                spell::scalar(o.ty),
            );
            s.push_str(&if fold {
                format!("    bz_acc{i} = bz_combine<{op}, {t}>(bz_acc{i}, bz_fold<{op}, {t}, {LANES}>(bz_lacc{i}));\n")
            } else {
                format!("    {t} bz_lacc{i}[{LANES}]; for (int bz_l = 0; bz_l < {LANES}; bz_l++) bz_lacc{i}[bz_l] = bz_identity<{op}, {t}>();\n")
            });
        }
        s
    }

    /// Launch-wide: no array read by the strip overlaps an array the kernel writes.
    pub(crate) fn strip_noalias(&self, st: &Strip) -> String {
        let mut conds = Vec::new();
        let bytes = |a: u32| -> String {
            let t = match self.k.arrays[a as usize].ty {
                Ty::Array(t) => spell::scalar(t.elem),
                _ => "u8",
            };
            format!(
                "(const char*){0}, (const char*){0} + bz_c->arrs[{a}].len * (i64)sizeof({t})",
                self.arr_name(a)
            )
        };
        for &r in &st.reads {
            for &w in &st.writes {
                conds.push(format!("bz_apart({}, {})", bytes(r), bytes(w)));
            }
        }
        if conds.is_empty() {
            "true".into()
        } else {
            conds.join(" && ")
        }
    }

    /// One loop over the lanes of the strip running `b` (`init`: variables start from
    /// their initial values; `cur`: the loop variable's value to set first).
    pub(super) fn lane_phase(
        &mut self,
        b: &[Stmt],
        init: bool,
        cur: Option<(u32, &str)>,
        save: bool,
    ) {
        self.line_out(&format!("for (int bz_l = 0; bz_l < {LANES}; bz_l++) {{"));
        self.o.depth += 1;
        self.lane_pos();
        for (i, v) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            let from = if init {
                self.var_init(i)
            } else {
                format!("{name}_l[bz_l]")
            };
            self.line_out(&format!("{} {name} = {from};", spell::ty(v.ty)));
        }
        if let Some((v, x)) = cur {
            let name = self.var_base(v);
            self.line_out(&format!("{name} = {x};"));
        }
        self.next_tmp += 1;
        self.next = format!("bz_nexts{}", self.next_tmp);
        self.block(b);
        let label = self.next.clone();
        self.line_out(&format!("{label}:;"));
        if save {
            for i in 0..self.k.vars.len() {
                let name = self.var_base(i as u32);
                self.line_out(&format!("{name}_l[bz_l] = {name};"));
            }
        }
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// The position of lane `bz_l` of the strip starting at row index `bz_sp`.
    pub(super) fn lane_pos(&mut self) {
        let r = self.k.rank.clamp(1, 4) as usize;
        match self.flat {
            Some(k) => {
                self.line_out("const i64 bz_f = bz_sp + bz_l;");
                self.line_out(&format!(
                    "const i32 bz_pos{} = (i32)(bz_f / {k}), bz_pos{} = (i32)(bz_f % {k}); const i64 bz_fr = bz_f / {k}; (void)bz_fr;",
                    r - 2,
                    r - 1
                ));
            }
            None => {
                self.line_out("const i64 bz_f = bz_sp + bz_l;");
                self.line_out(&format!("const i32 bz_pos{} = (i32)bz_f;", r - 1));
            }
        }
        let decls = self.special_decls();
        for l in decls.lines() {
            self.line_out(l.trim());
        }
    }

    /// The code of one strip (lanes `bz_sp .. bz_sp + LANES` of the row), fast copy.
    pub(crate) fn strip_code(&mut self, st: &Strip<'k>) -> String {
        let saved = (
            std::mem::take(&mut self.o.text),
            self.o.depth,
            self.next.clone(),
        );
        self.o.depth = 4;
        let Some(lp) = st.lp else {
            self.reduce_code(st);
            let (out, depth, next) = saved;
            self.o.depth = depth;
            self.next = next;
            return std::mem::replace(&mut self.o.text, out);
        };
        if let StmtKind::While { cond, body } = &lp.kind {
            self.while_code(st, cond, body);
            let (out, depth, next) = saved;
            self.o.depth = depth;
            self.next = next;
            return std::mem::replace(&mut self.o.text, out);
        }
        let StmtKind::For {
            var,
            start,
            step,
            end,
            body,
        } = &lp.kind
        else {
            return String::new();
        };
        self.strip_bounds();
        for (i, v) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            self.line_out(&format!("{} {name}_l[{LANES}];", spell::ty(v.ty)));
        }
        self.lane_phase(st.pre, true, None, true);
        let t = spell::ty(start.ty);
        let (lo, hi, sp, cur) = (self.tmp(), self.tmp(), self.tmp(), self.tmp());
        self.line_out(&format!("{t} {lo}, {hi}, {sp};"));
        // The bounds, evaluated once in lane 0's context (they are the same in all).
        self.line_out("{");
        self.o.depth += 1;
        self.line_out("const int bz_l = 0;");
        self.lane_pos();
        for (i, v) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            self.line_out(&format!("const {} {name} = {name}_l[0];", spell::ty(v.ty)));
        }
        for (name, e) in [(&lo, start), (&sp, step), (&hi, end)] {
            let x = self.expr(e);
            self.line_out(&format!("{name} = {x};"));
        }
        self.o.depth -= 1;
        self.line_out("}");
        self.line_out(&format!(
            "{t} {cur} = {lo};\nfor (; {cur} <= {hi}; {cur} += {sp}) {{"
        ));
        self.o.depth += 1;
        self.lane_phase(body, false, Some((*var, &cur)), true);
        self.o.depth -= 1;
        self.line_out("}");
        self.lane_phase(st.post, false, Some((*var, &cur)), false);
        let (out, depth, next) = saved;
        self.o.depth = depth;
        self.next = next;
        std::mem::replace(&mut self.o.text, out)
    }
}
