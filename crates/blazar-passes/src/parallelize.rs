//! The loop parallelizer: a HIR → HIR pass, run after checking, that turns each host
//! `for` nest whose iterations are independent into a generated kernel launched in its
//! place ([`hir::ParallelLoop`]), and reports its decision for every loop.
//!
//! Up to three perfectly nested levels with loop-invariant ranges become the kernel's
//! dimensions; if the analysis refuses the full nest, fewer levels are tried (an inner
//! loop then runs inside each thread). A loop that stays serial is searched for inner
//! loops that can run in parallel. `#pragma force_serial` or `!serial for` keeps a loop
//! serial; `#pragma force_parallel` or `!parallel for` drops the minimum trip count and
//! accepts element writes the analysis cannot prove distinct.

use crate::loop_body::names_any;
use crate::loop_deps::{analyze, Analysis, Class, Refusal};
use crate::loop_live::{live_after, Outer};
use crate::outline::{outline, Caching, Names};
use blazar_diagnostics::Span;
use blazar_hir::{
    self as hir, ExprKind, FnId, FnKind, LoopDecision, LoopReport, Program, Stmt, StmtKind, Var,
};

/// The most loop levels a kernel takes as its dimensions.
const MAX_LEVELS: usize = 3;

/// A loop nest to outline: where it is and what the analysis found.
struct Candidate {
    fid: FnId,
    path: Vec<(usize, usize)>,
    depth: usize,
    analysis: Analysis,
    forced: bool,
    /// The shared-memory caching transform asked for, and its target.
    caching: Option<(Caching, Option<String>)>,
    /// `!kernel_tiling`: the block shape asked for, and its target.
    tiling: Option<(Vec<usize>, Option<String>)>,
}

/// Parallelises the host loops of `prog`; returns a report per `for` loop, in source
/// order.
pub fn parallelize(prog: &mut Program, names: &Names) -> Vec<LoopReport> {
    let mut found = Vec::new();
    let mut reports = Vec::new();
    for fid in 0..prog.functions.len() as FnId {
        let f = &prog.functions[fid as usize];
        if f.kind != FnKind::Host {
            continue;
        }
        let mut scan = Scan {
            prog,
            fid,
            names,
            found: &mut found,
            reports: &mut reports,
        };
        scan.block(&f.body, &mut vec![], &mut vec![], 0);
    }
    for c in found {
        let fid = c.fid;
        let nest = stmt_at(&prog.functions[fid as usize].body, &c.path).clone();
        let name_of = var_namer(prog, fid);
        // The kernel, and the same kernel under the caching transform when asked for
        // (its host result variables go unused: the plan's outputs are the first's).
        let make = |prog: &mut Program, cache: Option<&Caching>| {
            outline(
                prog,
                &nest,
                c.depth,
                &c.analysis,
                c.forced,
                names,
                &name_of,
                &mut |p, name| new_host_var(p, fid, name),
                cache,
            )
        };
        let mut plan = make(prog, None);
        plan.tiling = c.tiling.clone();
        if let Some((cache, target)) = &c.caching {
            let cached = make(prog, Some(cache));
            plan.cached = Some(hir::CachedKernel {
                kernel: cached.kernel,
                target: target.clone(),
                array: cache.array,
                numel: cache.numel,
            });
        }
        let body = &mut prog.functions[fid as usize].body;
        let s = stmt_at_mut(body, &c.path);
        s.kind = StmtKind::Parallel(Box::new(plan));
    }
    reports.sort_by_key(|r| (r.span.file.0, r.span.lo));
    reports
}

/// Names host variables of function `fid` (owned, so the program can change meanwhile).
pub(crate) fn var_namer(prog: &Program, fid: FnId) -> impl Fn(Var) -> String {
    let locals = prog.functions[fid as usize].local_names.clone();
    let globals = prog.global_names.clone();
    move |v| match v {
        Var::Local(s) => locals.get(s as usize).cloned().unwrap_or_default(),
        Var::Global(g) => globals.get(g as usize).cloned().unwrap_or_default(),
    }
}

fn new_host_var(p: &mut Program, fid: FnId, name: String) -> Var {
    if fid == p.script {
        p.global_names.push(name);
        Var::Global(p.global_names.len() as u32 - 1)
    } else {
        let f = &mut p.functions[fid as usize];
        f.local_names.push(name);
        f.n_locals += 1;
        Var::Local(f.n_locals - 1)
    }
}

pub(crate) fn stmt_at<'a>(body: &'a [Stmt], path: &[(usize, usize)]) -> &'a Stmt {
    let mut s = &body[path[0].1];
    for &(b, i) in &path[1..] {
        s = &hir::visit::blocks(s)[b][i];
    }
    s
}

pub(crate) fn stmt_at_mut<'a>(body: &'a mut [Stmt], path: &[(usize, usize)]) -> &'a mut Stmt {
    let mut s = &mut body[path[0].1];
    for &(b, i) in &path[1..] {
        s = &mut hir::visit::blocks_mut(s)
            .into_iter()
            .nth(b)
            .expect("a valid path")[i];
    }
    s
}

struct Scan<'s, 'a> {
    prog: &'a Program,
    fid: FnId,
    names: &'s Names<'s>,
    found: &'s mut Vec<Candidate>,
    reports: &'s mut Vec<LoopReport>,
}

impl<'a> Scan<'_, 'a> {
    fn block(
        &mut self,
        block: &'a [Stmt],
        path: &mut Vec<(usize, usize)>,
        outer: &mut Vec<Outer<'a>>,
        which: usize,
    ) {
        for (i, s) in block.iter().enumerate() {
            path.push((which, i));
            let mut descend = true;
            if let StmtKind::ForRange { .. } = s.kind {
                let (forced, serial) = attributes(&block[..i]);
                if serial {
                    self.report(s.span, LoopDecision::Serial, "marked serial".into());
                    self.serial_reports(s);
                    descend = false;
                } else {
                    match self.nest(s, block, i, outer, forced) {
                        Ok(c) => {
                            let (decision, mut why) = describe(&c, &*self.names_of());
                            if let Some((dims, target)) = &c.tiling {
                                why.push_str(&format!(
                                    "; blocks of {dims:?} from `!kernel_tiling`{}",
                                    target
                                        .as_ref()
                                        .map_or(String::new(), |t| format!(" on target {t}"))
                                ));
                            }
                            self.report(s.span, decision, why);
                            self.inner_reports(s, s.span, c.depth - 1);
                            self.found.push(Candidate {
                                path: path.clone(),
                                ..c
                            });
                            descend = false;
                        }
                        Err((at, why)) => {
                            let line = format!("line {}", self.line(at));
                            self.report(s.span, LoopDecision::Serial, format!("{line}: {why}"));
                        }
                    }
                }
            }
            if descend {
                let looping = matches!(
                    s.kind,
                    StmtKind::ForRange { .. }
                        | StmtKind::ForEach { .. }
                        | StmtKind::While { .. }
                        | StmtKind::Repeat { .. }
                );
                outer.push(Outer {
                    block,
                    index: i,
                    looping,
                });
                for (b, inner) in hir::visit::blocks(s).into_iter().enumerate() {
                    self.block(inner, path, outer, b);
                }
                outer.pop();
            }
            path.pop();
        }
    }

    fn names_of(&self) -> Box<dyn Fn(Var) -> String> {
        Box::new(var_namer(self.prog, self.fid))
    }

    fn line(&self, span: Span) -> u32 {
        (self.names.line_of)(span)
    }

    fn report(&mut self, span: Span, decision: LoopDecision, reason: String) {
        self.reports.push(LoopReport {
            span,
            decision,
            reason,
        });
    }

    /// Reports the loops inside a loop marked serial: serial too.
    fn serial_reports(&mut self, nest: &Stmt) {
        for b in hir::visit::blocks(nest) {
            for s in b {
                if let StmtKind::ForRange { .. } = s.kind {
                    let why = "inside a loop marked serial".to_string();
                    self.report(s.span, LoopDecision::Serial, why);
                }
                self.serial_reports(s);
            }
        }
    }

    /// Reports the loops inside a parallel nest: the next `levels` nested loops are
    /// dimensions of its kernel, the others run in each thread.
    fn inner_reports(&mut self, nest: &Stmt, at: Span, levels: usize) {
        for b in hir::visit::blocks(nest) {
            for s in b {
                let mut left = levels;
                if let StmtKind::ForRange { .. } = s.kind {
                    let line = self.line(at);
                    let why = if levels > 0 {
                        left -= 1;
                        format!("a dimension of the kernel of line {line}")
                    } else {
                        format!("runs in each thread of the kernel of line {line}")
                    };
                    self.report(s.span, LoopDecision::Inner, why);
                }
                self.inner_reports(s, at, left);
            }
        }
    }

    /// Tries the `for` nest at `block[i]` with as many levels as possible.
    fn nest(
        &self,
        s: &'a Stmt,
        block: &'a [Stmt],
        i: usize,
        outer: &[Outer<'a>],
        forced: bool,
    ) -> Result<Candidate, Refusal> {
        let mut levels: Vec<(Var, &'a [Stmt])> = Vec::new();
        let mut cur = s;
        while let StmtKind::ForRange {
            var,
            start,
            step,
            end,
            body,
        } = &cur.kind
        {
            let outer_vars: Vec<Var> = levels.iter().map(|l| l.0).collect();
            let ranges = [Some(start), step.as_ref(), Some(end)];
            let ranges_ok = ranges
                .iter()
                .flatten()
                .all(|e| !names_any(e, &outer_vars) && pure(e, self.names.builtin_name, self.prog));
            if !ranges_ok {
                if levels.is_empty() {
                    return Err((
                        cur.span,
                        "its range is not a pure expression of values set before the loop".into(),
                    ));
                }
                break;
            }
            levels.push((*var, body));
            if levels.len() == MAX_LEVELS {
                break;
            }
            let mut rest = body
                .iter()
                .filter(|s| !matches!(s.kind, StmtKind::Attribute { .. }));
            match (rest.next(), rest.next()) {
                (
                    Some(
                        inner @ Stmt {
                            kind: StmtKind::ForRange { .. },
                            ..
                        },
                    ),
                    None,
                ) if !attributes(body).1 => cur = inner,
                _ => break,
            }
        }
        let names = self.names_of();
        let live = |v: Var| live_after(self.prog, self.fid, v, s, block, i, outer);
        let mut first_err = None;
        for depth in (1..=levels.len()).rev() {
            let vars: Vec<Var> = levels[..depth].iter().map(|l| l.0).collect();
            let body = levels[depth - 1].1;
            match analyze(
                &vars,
                body,
                s.span,
                forced,
                self.names.builtin_name,
                self.prog,
                &live,
                &*names,
            ) {
                // A level whose range the body changes stays an inner serial loop.
                Ok(analysis) if !inner_ranges_fixed(s, depth, &analysis) => {}
                Ok(analysis) => {
                    let bodies: Vec<&[Stmt]> = levels[..depth].iter().map(|l| l.1).collect();
                    let caching =
                        crate::loop_attrs::caching(&bodies, &analysis, self.prog, &*names);
                    let tiling = crate::loop_attrs::tiling(&bodies, self.prog, depth);
                    return Ok(Candidate {
                        fid: self.fid,
                        path: vec![],
                        depth,
                        analysis,
                        forced,
                        caching,
                        tiling,
                    });
                }
                Err(e) => {
                    if depth == 1 {
                        first_err = Some(e);
                    }
                }
            }
        }
        Err(first_err.unwrap_or((s.span, "no loop level can run in parallel".into())))
    }
}

/// Whether the ranges of the inner levels of the nest at `s` (evaluated once, before the
/// kernel) use no variable the body assigns.
fn inner_ranges_fixed(s: &Stmt, depth: usize, an: &Analysis) -> bool {
    let modified: Vec<Var> = an
        .vars
        .iter()
        .filter(|(_, c)| matches!(c, Class::Private | Class::Accum(_)))
        .map(|(v, _)| *v)
        .collect();
    let mut cur = s;
    for _ in 1..depth {
        let StmtKind::ForRange { body, .. } = &cur.kind else {
            return true;
        };
        let Some(inner) = body
            .iter()
            .find(|x| matches!(x.kind, StmtKind::ForRange { .. }))
        else {
            return true;
        };
        if let StmtKind::ForRange {
            start, step, end, ..
        } = &inner.kind
        {
            let ranges = [Some(start), step.as_ref(), Some(end)];
            if ranges.iter().flatten().any(|e| names_any(e, &modified)) {
                return false;
            }
        }
        cur = inner;
    }
    true
}

/// What `#pragma`s and `!` attributes just before a loop say: (forced, serial).
fn attributes(before: &[Stmt]) -> (bool, bool) {
    let (mut forced, mut serial) = (false, false);
    for s in before.iter().rev() {
        let StmtKind::Attribute { name, args, .. } = &s.kind else {
            break;
        };
        let args = args.trim();
        match name.as_str() {
            "force_parallel" => forced = true,
            "parallel" if args.starts_with("for") => forced = true,
            "force_serial" => serial = true,
            "serial" if args.starts_with("for") => serial = true,
            "pragma" if args.contains("force_parallel") => forced = true,
            "pragma" if args.contains("force_serial") => serial = true,
            _ => {}
        }
    }
    (forced, serial)
}

/// The decision and its reason for an accepted nest.
fn describe(c: &Candidate, name: &dyn Fn(Var) -> String) -> (LoopDecision, String) {
    let list = |pred: &dyn Fn(Class) -> bool| {
        c.analysis
            .vars
            .iter()
            .filter(|(_, k)| pred(*k))
            .map(|(v, k)| match k {
                Class::Accum(r) => format!("`{}` ({})", name(*v), r.word()),
                Class::ElemAccum => format!("elements of `{}`", name(*v)),
                _ => format!("`{}`", name(*v)),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let dims = format!("{}-dimensional kernel", c.depth);
    let forced = if c.forced { ", forced" } else { "" };
    if c.analysis
        .has(|k| matches!(k, Class::Accum(_) | Class::ElemAccum))
    {
        let accs = list(&|k| matches!(k, Class::Accum(_) | Class::ElemAccum));
        (
            LoopDecision::Reduction,
            format!("{dims}{forced}: accumulates {accs} as a parallel reduction"),
        )
    } else if c.analysis.has(|k| k == Class::Atomic) {
        let arrs = list(&|k| k == Class::Atomic);
        let cached = match &c.caching {
            Some((x, t)) => format!(
                "; shared-memory caching of `{}` ({} elements{})",
                name(x.array),
                x.numel,
                t.as_ref()
                    .map_or(String::new(), |t| format!(", on target {t}"))
            ),
            None => String::new(),
        };
        (
            LoopDecision::Atomics,
            format!(
                "{dims}{forced}: updates {arrs} at data-dependent indices with atomic operations{cached}"
            ),
        )
    } else {
        let arrs = list(&|k| k == Class::Written);
        (
            LoopDecision::Kernel,
            format!("{dims}{forced}: each iteration writes its own elements of {arrs}"),
        )
    }
}

/// Whether `e` can be evaluated twice without effect (ranges of a nest).
fn pure(e: &hir::Expr, builtin_name: &dyn Fn(u32) -> &'static str, prog: &Program) -> bool {
    let mut ok = true;
    hir::visit::each_expr(e, &mut |x| match &x.kind {
        ExprKind::Call { callee, args } => {
            ok &= match callee {
                hir::Callee::Builtin(id) => {
                    crate::builtins::classify(builtin_name(*id), args.len()).is_some()
                }
                _ => false,
            }
        }
        ExprKind::Closure { .. } | ExprKind::FuncValue(_) => ok = false,
        _ => {}
    });
    let _ = prog;
    ok
}
