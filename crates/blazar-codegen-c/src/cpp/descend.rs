//! A load step and an update step on both sides of a barrier, fused into one loop over
//! the block's threads that runs them from the highest thread down (fission).
//!
//! A Hillis–Steele scan step is `v = 0; if blkpos >= d: v = s[blkpos - d]; syncthreads;
//! s[blkpos] = s[blkpos] + v`: two thread loops, the first of which only reads. Run as
//! one loop with the threads in descending order, thread `t` reads `s[t - d]` (`d >= 0`)
//! before any thread at or below `t - d` writes, and every thread above `t` has written
//! only its own element: each read sees the value from before the barrier, as in the
//! executor. The pair qualifies (rank-1 blocks, no per-thread mask, no divergent
//! barriers) when:
//! - the first run holds only assignments and `if`s, the second only assignments,
//!   `if`s and stores, and no expression of either can fail (no `'checked` load, no
//!   `'checked` store);
//! - the second run stores into one shared array `S` only, at the thread's own position
//!   (`blkpos`), and reads `S` only there; the first reads `S` only at `blkpos - u`
//!   with `u` alike in every thread, loads nothing, and assigned in neither run
//!   (other arrays: anything, since only `S` is written);
//! - the assignments that run once (`once`) are the first run's leading ones and the
//!   second's trailing ones (they run before and after the fused loops, as before).
//!
//! At run time the fused loop is taken when every `u >= 0` (the order above) and `S`
//! has at least one element per thread; otherwise both runs are generated as before.
//! In the fused loop an `if blkpos >= u` of the first run's top level splits the threads
//! into those above the split (the `if` taken) and those below (not taken), each a loop
//! of its own, and an access to `S` that every thread of its part reaches in range
//! (checked once, before the loops) reads and writes without its range test: the C++
//! compiler then vectorises both loops (`benches/cpu/prefix_sum`: the scan kernel 29 to
//! 16 ms on one thread of the development VM).

use super::Gen;
use crate::printer::Dialect;
use blazar_kir::{BinOp, Expr, ExprKind, ReadMode, Special, Stmt, StmtKind, Ty, WriteMode};

/// The accesses to the shared array of a fusable pair (see the module notes).
struct Pair {
    /// The shared array.
    arr: u32,
    /// The offsets `u` of the first run's reads `S[blkpos - u]` (None: `S[blkpos]`).
    offsets: Vec<Option<Expr>>,
    /// The split condition's bound `u` of `if blkpos >= u`, if any.
    split: Option<Expr>,
}

impl Gen<'_> {
    /// `e` is the thread's position (`blkpos`, or a variable that always holds it).
    fn is_blkpos(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Special(Special::BlkPos) => true,
            ExprKind::Var(v) => self.aliases.get(v) == Some(&Special::BlkPos),
            _ => false,
        }
    }

    /// `e` is alike in every thread, loads nothing, cannot fail, and reads no variable
    /// in `assigned`.
    fn steady(&self, e: &Expr, assigned: &[bool]) -> bool {
        if !matches!(e.ty, Ty::Scalar(_)) || blazar_kir::uniform::is_varying(e, &self.varying) {
            return false;
        }
        let mut ok = true;
        blazar_kir::visit::walk_expr(e, &mut |x| match &x.kind {
            ExprKind::Load { .. } => ok = false,
            ExprKind::Var(v) => ok &= !assigned.get(*v as usize).copied().unwrap_or(true),
            _ => {}
        });
        ok
    }

    /// The offset `u` of an index `blkpos - u` (None for `blkpos` itself).
    fn thread_offset(&self, index: &[Expr], assigned: &[bool]) -> Option<Option<Expr>> {
        let [e] = index else { return None };
        if !e.ty.elem().is_int() {
            return None;
        }
        if self.is_blkpos(e) {
            return Some(None);
        }
        match &e.kind {
            ExprKind::Binary(BinOp::Sub, a, b)
                if self.is_blkpos(a) && b.ty == a.ty && self.steady(b, assigned) =>
            {
                Some(Some((**b).clone()))
            }
            _ => None,
        }
    }

    /// Checks the loads of `e`: of `arr` only at offsets (`first`) or at `blkpos` itself;
    /// collects the offsets. False when `e` may fail or reads `arr` elsewhere.
    fn loads_ok(&self, e: &Expr, p: &mut Pair, first: bool, assigned: &[bool]) -> bool {
        if self.has_checked(e) {
            return false;
        }
        let mut ok = true;
        blazar_kir::visit::walk_expr(e, &mut |x| {
            if let ExprKind::Load { arr, index, .. } = &x.kind {
                if *arr != p.arr {
                    return;
                }
                match self.thread_offset(index, assigned) {
                    Some(None) => p.offsets.push(None),
                    Some(Some(u)) if first => p.offsets.push(Some(u)),
                    _ => ok = false,
                }
            }
        });
        ok
    }

    /// The statements of the first run (`first`) or of the second have the pair's form.
    fn steps_ok(&self, b: &[&Stmt], p: &mut Pair, first: bool, assigned: &[bool]) -> bool {
        b.iter().all(|s| match &s.kind {
            StmtKind::Assign { value, .. } => self.loads_ok(value, p, first, assigned),
            StmtKind::If { cond, then, els } => {
                let then: Vec<&Stmt> = then.iter().collect();
                let els: Vec<&Stmt> = els.iter().collect();
                self.loads_ok(cond, p, first, assigned)
                    && self.steps_ok(&then, p, first, assigned)
                    && self.steps_ok(&els, p, first, assigned)
            }
            StmtKind::Store {
                arr, index, value, ..
            } if !first && *arr == p.arr => {
                matches!(self.thread_offset(index, assigned), Some(None))
                    && self.loads_ok(value, p, first, assigned)
            }
            _ => false,
        })
    }

    /// The shared array that the second run stores into, when it is one array.
    fn stored_shared(&self, b: &[&Stmt]) -> Option<u32> {
        let mut w = Vec::new();
        for s in b {
            super::interleave::written_arrays(std::slice::from_ref(*s), &mut w);
        }
        let a = *w.first()?;
        let shared = matches!(
            self.plan.slots.get(a as usize),
            Some(crate::cpp::support::SlotKind::Shared)
        ) && matches!(
            self.k.arrays.get(a as usize).map(|d| d.ty),
            Some(Ty::Array(t)) if t.rank == 1 && t.write != WriteMode::Checked
                && t.read != ReadMode::Checked
        );
        (shared && w.iter().all(|x| *x == a)).then_some(a)
    }

    /// The pair `first; syncthreads; second` when it can run fused (module notes).
    fn fusable(&self, first: &[&Stmt], second: &[&Stmt]) -> Option<Pair> {
        if self.k.rank > 1 || self.active.is_some() || self.divergent {
            return None;
        }
        if first.is_empty() || second.is_empty() {
            return None;
        }
        let arr = self.stored_shared(second)?;
        let all: Vec<&Stmt> = first.iter().chain(second).copied().collect();
        let assigned = super::fission::assigned_in(&all, self.k.vars.len());
        let mut p = Pair {
            arr,
            offsets: Vec::new(),
            split: None,
        };
        let mut firsts = Vec::new();
        for s in first {
            super::interleave::written_arrays(std::slice::from_ref(*s), &mut firsts);
        }
        if !firsts.is_empty()
            || !self.steps_ok(first, &mut p, true, &assigned)
            || !self.steps_ok(second, &mut p, false, &assigned)
        {
            return None;
        }
        p.split = first.iter().find_map(|s| self.split_bound(s, &assigned));
        Some(p)
    }

    /// The bound `u` of a statement `if blkpos >= u` (alike in every thread).
    fn split_bound(&self, s: &Stmt, assigned: &[bool]) -> Option<Expr> {
        let StmtKind::If { cond, .. } = &s.kind else {
            return None;
        };
        match &cond.kind {
            ExprKind::Binary(BinOp::Ge, a, b)
                if self.is_blkpos(a) && b.ty == a.ty && self.steady(b, assigned) =>
            {
                Some((**b).clone())
            }
            _ => None,
        }
    }

    /// A block of statements under fission, with fusable load/update pairs fused.
    pub(crate) fn fblock_pairs(&mut self, runs: Vec<Piece<'_>>) {
        let mut i = 0;
        while i < runs.len() {
            if let (Piece::Run(a), Some(Piece::Point(bar)), Some(Piece::Run(b))) =
                (&runs[i], runs.get(i + 1), runs.get(i + 2))
            {
                if matches!(bar.kind, StmtKind::Barrier) && self.try_fuse(a, bar, b) {
                    i += 3;
                    continue;
                }
            }
            match &runs[i] {
                Piece::Run(r) => self.thread_loop(r),
                Piece::Point(s) => self.fission_stmt(s),
            }
            i += 1;
        }
    }

    /// `first; syncthreads; second` as `thread_loop` splits each run (assignments of
    /// specials to their aliases dropped, uniform ones at the ends once a block), with
    /// the thread loops fused where they qualify; false (nothing generated) otherwise.
    /// The first run's trailing and the second's leading once-assignments would sit
    /// between the two loops: none may.
    fn try_fuse(&mut self, first: &[&Stmt], bar: &Stmt, second: &[&Stmt]) -> bool {
        let a: Vec<&Stmt> = first
            .iter()
            .filter(|s| !self.alias_assign(s))
            .copied()
            .collect();
        let b: Vec<&Stmt> = second
            .iter()
            .filter(|s| !self.alias_assign(s))
            .copied()
            .collect();
        let ((apre, apost), (bpre, bpost)) = (self.once_split(&a), self.once_split(&b));
        if apost > 0 || bpre > 0 {
            return false;
        }
        let (a_once, a_loop) = a.split_at(apre);
        let (b_loop, b_once) = b.split_at(b.len() - bpost);
        let Some(p) = self.fusable(a_loop, b_loop) else {
            return false;
        };
        for s in a_once {
            self.run_once(s);
        }
        self.fused(a_loop, bar, b_loop, &p);
        for s in b_once {
            self.run_once(s);
        }
        true
    }

    /// The pair run fused when the run-time conditions hold, else as two thread loops.
    fn fused(&mut self, first: &[&Stmt], bar: &Stmt, second: &[&Stmt], p: &Pair) {
        let s = self.arr_name(p.arr);
        let (fast, split) = (self.tmp(), self.tmp());
        // The parts: threads from the split up (the split `if` taken), then below it.
        let bodies = [
            (
                split.clone(),
                "bz_kb0".to_string(),
                self.part(first, second, p, true),
            ),
            (
                "0".to_string(),
                split.clone(),
                self.part(first, second, p, false),
            ),
        ];
        self.line_out("{");
        self.o.depth += 1;
        self.line_out(&format!("bool {fast}; i64 {split};"));
        self.uniform_open();
        let bound = match &p.split {
            Some(u) => format!("(i64)({})", self.expr(u)),
            None => "(i64)0".to_string(),
        };
        self.line_out(&format!(
            "{split} = {bound} < 0 ? 0 : ({bound} > bz_kb0 ? bz_kb0 : {bound});"
        ));
        // No thread has stopped (the fused loops test none), `S` has an element per
        // thread, every read is at or below the reader, and each part's reads are in
        // range (offsets up to the part's lowest thread).
        let mut conds = vec!["!bz_fe.code".to_string(), format!("{s}_d0 >= bz_kb0")];
        for u in p.offsets.iter().flatten() {
            conds.push(format!("(i64)({}) >= 0", self.expr(u)));
        }
        for (lo, hi, stmts) in &bodies {
            let mut offs = Vec::new();
            collect_offsets(stmts, p.arr, self, &mut offs);
            let cs: Vec<String> = offs
                .iter()
                .map(|u| format!("(i64)({}) <= {lo}", self.expr(u)))
                .collect();
            if !cs.is_empty() {
                conds.push(format!("({lo} >= {hi} || ({}))", cs.join(" && ")));
            }
        }
        self.line_out(&format!("{fast} = {};", conds.join(" && ")));
        self.close();
        // (Marked likely: with the two forms weighed alike, GCC 12 laid out the block's
        // loops so that the fused ones ran 24 ms against 18 in the scan on one thread.)
        self.line_out(&format!("if (__builtin_expect({fast}, 1)) {{"));
        let local = self.pair_local(first, second);
        self.o.depth += 1;
        for (lo, hi, stmts) in &bodies {
            let refs: Vec<&Stmt> = stmts.iter().collect();
            let mut keys = Vec::new();
            access_keys(stmts, p.arr, &mut keys);
            let saved = std::mem::replace(&mut self.in_range, keys);
            self.thread_range = Some((lo.clone(), hi.clone()));
            let assigned = super::fission::assigned_in(&refs, self.k.vars.len());
            self.open_threads(&assigned);
            for s in &refs {
                self.block(std::slice::from_ref(*s));
            }
            let mut written = assigned;
            for ((w, l), q) in written.iter_mut().zip(&self.run_local).zip(&local) {
                *w &= !*l && !*q;
            }
            self.close_threads(&written);
            self.in_range = saved;
        }
        self.o.depth -= 1;
        self.line_out("} else {");
        self.o.depth += 1;
        self.threads_of(first);
        self.fission_stmt(bar);
        self.threads_of(second);
        self.close();
        self.close();
    }

    /// The variables whose value never leaves the pair: read nowhere else in the kernel,
    /// and first met, in the pair's order, by an assignment that does not read them. The
    /// fused loops write them back to no array (the value would never be read).
    fn pair_local(&self, first: &[&Stmt], second: &[&Stmt]) -> Vec<bool> {
        let n = self.k.vars.len();
        let count = |b: &[Stmt], out: &mut Vec<usize>| {
            blazar_kir::visit::walk_stmts(b, &mut |s| {
                if let StmtKind::SetLane { var, .. } = &s.kind {
                    out[*var as usize] += 1;
                }
                blazar_kir::visit::stmt_exprs(s, &mut |e| {
                    blazar_kir::visit::walk_expr(e, &mut |x| {
                        if let ExprKind::Var(v) = x.kind {
                            if let Some(c) = out.get_mut(v as usize) {
                                *c += 1;
                            }
                        }
                    })
                });
            })
        };
        let (mut total, mut inner) = (vec![0; n], vec![0; n]);
        count(&self.k.body, &mut total);
        for s in first.iter().chain(second) {
            count(std::slice::from_ref(*s), &mut inner);
        }
        let mut local = vec![false; n];
        let mut met = vec![false; n];
        for s in first.iter().chain(second) {
            let mut touched = vec![0; n];
            count(std::slice::from_ref(*s), &mut touched);
            let mut assigned = vec![false; n];
            super::fission::assigned_in(std::slice::from_ref(s), n)
                .iter()
                .enumerate()
                .for_each(|(v, a)| assigned[v] = *a);
            for v in 0..n {
                if met[v] || (touched[v] == 0 && !assigned[v]) {
                    continue;
                }
                met[v] = true;
                local[v] = total[v] == inner[v]
                    && touched[v] == 0
                    && matches!(&s.kind, StmtKind::Assign { var, .. } if *var as usize == v);
            }
        }
        local
    }

    /// The statements of one part: the first run with its split `if`s replaced by the
    /// branch they take there (`taken`), then the second run.
    fn part(&self, first: &[&Stmt], second: &[&Stmt], p: &Pair, taken: bool) -> Vec<Stmt> {
        let all: Vec<&Stmt> = first.iter().chain(second).copied().collect();
        let assigned = super::fission::assigned_in(&all, self.k.vars.len());
        let mut out = Vec::new();
        for s in first {
            match (&s.kind, &p.split) {
                (StmtKind::If { then, els, .. }, Some(u))
                    if self.split_bound(s, &assigned).as_ref() == Some(u) =>
                {
                    out.extend(if taken { then.clone() } else { els.clone() });
                }
                _ => out.push((*s).clone()),
            }
        }
        out.extend(second.iter().map(|s| (*s).clone()));
        out
    }
}

/// One element of a block under fission: a run of statements between fission points,
/// or a fission point.
pub(crate) enum Piece<'s> {
    Run(Vec<&'s Stmt>),
    Point(&'s Stmt),
}

/// The offsets `u` of the accesses `arr[blkpos - u]` in `b` (every access to `arr` in a
/// fusable pair is of that form or at `blkpos`).
fn collect_offsets(b: &[Stmt], arr: u32, g: &Gen<'_>, out: &mut Vec<Expr>) {
    for s in b {
        let mut visit = |e: &Expr| {
            blazar_kir::visit::walk_expr(e, &mut |x| {
                if let ExprKind::Load { arr: a, index, .. } = &x.kind {
                    if *a == arr {
                        if let [ExprKind::Binary(BinOp::Sub, l, r)] =
                            index.iter().map(|e| &e.kind).collect::<Vec<_>>()[..]
                        {
                            if g.is_blkpos(l) {
                                out.push((**r).clone());
                            }
                        }
                    }
                }
            })
        };
        match &s.kind {
            StmtKind::Assign { value, .. } => visit(value),
            StmtKind::Store { index, value, .. } => {
                index.iter().for_each(&mut visit);
                visit(value);
            }
            StmtKind::If { cond, then, els } => {
                visit(cond);
                collect_offsets(then, arr, g, out);
                collect_offsets(els, arr, g, out);
            }
            _ => {}
        }
    }
}

/// The keys (`memory`) of the loads and stores of `arr` in `b`.
fn access_keys(b: &[Stmt], arr: u32, out: &mut Vec<usize>) {
    for s in b {
        let mut visit = |e: &Expr| {
            blazar_kir::visit::walk_expr(e, &mut |x| {
                if matches!(&x.kind, ExprKind::Load { arr: a, .. } if *a == arr) {
                    out.push(x as *const Expr as usize);
                }
            })
        };
        match &s.kind {
            StmtKind::Assign { value, .. } => visit(value),
            StmtKind::Store {
                arr: a,
                index,
                value,
                ..
            } => {
                index.iter().for_each(&mut visit);
                visit(value);
                if *a == arr {
                    out.push(s as *const Stmt as usize);
                }
            }
            StmtKind::If { cond, then, els } => {
                visit(cond);
                access_keys(then, arr, out);
                access_keys(els, arr, out);
            }
            _ => {}
        }
    }
}
