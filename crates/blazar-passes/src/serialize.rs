//! The serial-loop outliner: a HIR → HIR pass, run after the loop parallelizer, that
//! turns each host `for` or `while` loop left serial whose body kernel code can express
//! into a one-thread kernel ([`hir::SerialLoop`]): the compiled host tier. The
//! interpreter specialises the kernel for the types its variables hold when it starts
//! using it, and runs the loop in chunks of iterations (see `blazar_interp::serial`).
//!
//! What must stay dynamic (printing, strings, cells, objects, slices, allocation,
//! function values, `return` from inside the loop, a `break` out of an enclosing loop)
//! keeps the loop on the interpreter; the reason is added to the loop's report
//! (`blazar emit loops`). The kernel specialiser may still refuse a loop at run time
//! (types kernel code cannot hold, a called function it cannot inline): that loop then
//! runs on the interpreter too.

use crate::kernel_form::{self, Form, Refusal};
use crate::outline::{assign, e, place, Names};
use crate::parallelize::{stmt_at, stmt_at_mut, var_namer};
use blazar_diagnostics::Span;
use blazar_hir::{
    self as hir, BinOp, Callee, Expr, ExprKind, FnId, FnKind, LoopDecision, LoopReport, Param,
    Program, SerialHead, SerialLoop, Stmt, StmtKind, Ty, Var,
};
use std::collections::HashMap;

thread_local! {
    /// The functions whose bodies are being checked (a recursive call stops there).
    static CHECKING: std::cell::RefCell<Vec<FnId>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Outlines the serial host loops of `prog`, adding what it decided to `reports`.
pub fn serialize(prog: &mut Program, names: &Names, reports: &mut Vec<LoopReport>) {
    let mut found: Vec<(FnId, Vec<(usize, usize)>)> = Vec::new();
    let mut notes: Vec<(Span, bool, String)> = Vec::new();
    for fid in 0..prog.functions.len() as FnId {
        let f = &prog.functions[fid as usize];
        if f.kind != FnKind::Host {
            continue;
        }
        scan(
            prog,
            fid,
            &f.body,
            &mut vec![],
            0,
            names,
            &mut found,
            &mut notes,
        );
    }
    for (fid, path) in found {
        let lp = stmt_at(&prog.functions[fid as usize].body, &path).clone();
        let plan = outline(prog, fid, &lp, names);
        let s = stmt_at_mut(&mut prog.functions[fid as usize].body, &path);
        s.kind = StmtKind::Serial(Box::new(plan));
    }
    for (span, compiled, why) in notes {
        let text = if compiled {
            "host tier: compiled as a serial kernel (when its types allow)".to_string()
        } else {
            format!("host tier: interpreter, {why}")
        };
        match reports.iter_mut().find(|r| r.span == span) {
            Some(r) => r.reason = format!("{}; {text}", r.reason),
            None => reports.push(LoopReport {
                span,
                decision: LoopDecision::Serial,
                reason: text,
            }),
        }
    }
    reports.sort_by_key(|r| (r.span.file.0, r.span.lo));
}

#[allow(clippy::too_many_arguments)]
fn scan(
    prog: &Program,
    fid: FnId,
    block: &[Stmt],
    path: &mut Vec<(usize, usize)>,
    which: usize,
    names: &Names,
    found: &mut Vec<(FnId, Vec<(usize, usize)>)>,
    notes: &mut Vec<(Span, bool, String)>,
) {
    for (i, s) in block.iter().enumerate() {
        path.push((which, i));
        let mut descend = !matches!(s.kind, StmtKind::Parallel(_));
        if matches!(s.kind, StmtKind::ForRange { .. } | StmtKind::While { .. }) {
            let body = hir::visit::blocks(s)[0];
            match eligible(body, 0, prog, names, false) {
                Ok(()) => {
                    notes.push((s.span, true, String::new()));
                    found.push((fid, path.clone()));
                    descend = false;
                }
                Err((at, why)) => {
                    let line = (names.line_of)(at);
                    notes.push((s.span, false, format!("line {line}: {why}")));
                }
            }
        }
        if descend {
            for (b, inner) in hir::visit::blocks(s).into_iter().enumerate() {
                scan(prog, fid, inner, path, b, names, found, notes);
            }
        }
        path.pop();
    }
}

/// Checks that kernel code can express every statement of `body`, `depth` loops inside
/// the outlined loop (`func`: `body` is the body of a function the loop calls).
pub(crate) fn eligible(
    body: &[Stmt],
    depth: u32,
    prog: &Program,
    names: &Names,
    func: bool,
) -> Result<(), Refusal> {
    kernel_form::walk(body, depth, &Serial { prog, names, func })
}

/// The serial-loop outliner's rules: calls of user functions whose bodies have a
/// kernel form too (for their effect or their several results), jumps within the loop,
/// `return` inside a called function, and small parallel nests run as written.
struct Serial<'a> {
    prog: &'a Program,
    names: &'a Names<'a>,
    /// Walking the body of a called function.
    func: bool,
}

impl Form for Serial<'_> {
    fn stmt(&self, s: &Stmt, depth: u32) -> Result<(), Refusal> {
        let no = |m: &str| Err((s.span, m.to_string()));
        let user_call = |x: &Expr| {
            matches!(
                &x.kind,
                ExprKind::Call {
                    callee: Callee::Group(_),
                    ..
                }
            )
        };
        match &s.kind {
            StmtKind::Expr(x) if !user_call(x) => {
                no("an expression statement that is not a call of a function")
            }
            StmtKind::Assign { ty: Some(_), .. } => no("an assignment with a declared type"),
            StmtKind::MultiAssign { targets, value }
                if !user_call(value) || targets.iter().any(|t| !t.path.is_empty()) =>
            {
                no("a multiple assignment of other than a function's results")
            }
            StmtKind::Break(n) | StmtKind::Continue(n)
                if *n > depth || (self.func && *n >= depth) =>
            {
                no("`break` or `continue` leaves an enclosing loop")
            }
            StmtKind::Return if !self.func => {
                no("`return` leaves the function from inside the loop")
            }
            // A small nest runs inside the serial kernel as written: its body is
            // walked as the loop's.
            StmtKind::Parallel(p) if !small(p) => no("it holds a loop run as a parallel kernel"),
            _ => Ok(()),
        }
    }

    fn expr(&self, x: &Expr) -> Result<(), Refusal> {
        let no = |m: String| Err((x.span, m));
        let (prog, names) = (self.prog, self.names);
        let (callee, args) = match &x.kind {
            ExprKind::Matrix(_) => return no("it builds an array".into()),
            ExprKind::Convert(..) => return no("it converts to a declared type".into()),
            ExprKind::Call { callee, args } => (callee, args),
            _ => return Ok(()),
        };
        match callee {
            Callee::Builtin(id) => {
                use crate::builtins::KBuiltin as K;
                let name = (names.builtin_name)(*id);
                match crate::builtins::classify(name, args.len()) {
                    None => return no(format!("it calls `{name}`, which runs only on the host")),
                    Some(K::Zeros | K::Ones | K::Uninit) => {
                        return no(format!("it allocates an array with `{name}`"))
                    }
                    Some(K::Reduce(_) | K::Dotprod) => {
                        return no(format!("it reduces a value with `{name}`"))
                    }
                    Some(_) => {}
                }
            }
            Callee::Group(g) => {
                let group = &prog.groups[*g as usize];
                let kernel = group
                    .members
                    .iter()
                    .any(|f| prog.functions[*f as usize].kind == FnKind::Kernel);
                if kernel || group.members.len() != 1 {
                    return no(format!(
                        "it calls `{}`, which has several definitions or is a kernel",
                        group.name
                    ));
                }
                let f = &prog.functions[group.members[0] as usize];
                // Kernel code has one access mode per array: a mode written on a
                // parameter would not apply there as it does on the host.
                if f.params
                    .iter()
                    .any(|p| p.ty.as_ref().is_some_and(|a| a.mode.is_some()))
                {
                    return no(format!(
                        "it calls `{}`, whose parameters declare access modes",
                        group.name
                    ));
                }
                if f.result.is_some() || !f.capture_slots.is_empty() {
                    return no(format!("it calls `{}`, a lambda or closure", group.name));
                }
                // What the function does must have a kernel form too (each function
                // is looked at once per call site; recursion is refused when lowering).
                if !CHECKING.with(|c| c.borrow().contains(&group.members[0])) {
                    CHECKING.with(|c| c.borrow_mut().push(group.members[0]));
                    let r = eligible(&f.body, 0, prog, names, true);
                    CHECKING.with(|c| c.borrow_mut().pop());
                    if let Err((_, why)) = r {
                        return no(format!("it calls `{}`, where {why}", group.name));
                    }
                }
            }
            _ => return no("it calls a function value or an intrinsic".into()),
        }
        Ok(())
    }
}

/// The fewest iterations a parallel loop inside a serial loop must be known to have to
/// stay a kernel launch (the interpreter's `LOOP_MIN`): a smaller nest of literal
/// ranges runs inside the serial kernel as written.
const LAUNCH_MIN: i64 = 4096;

/// Whether the parallel nest `p` has literal ranges with fewer than [`LAUNCH_MIN`]
/// iterations in all (and is not forced parallel).
fn small(p: &hir::ParallelLoop) -> bool {
    fn int(x: &Expr) -> Option<i64> {
        match &x.kind {
            ExprKind::Int(v) => Some(*v),
            ExprKind::Unary(hir::UnOp::Neg, a) => int(a).map(|v| -v),
            _ => None,
        }
    }
    let mut total: i64 = 1;
    for l in &p.levels {
        let (Some((a, st)), Some(b)) = (l.literal(), int(&l.end)) else {
            return false;
        };
        if st == 0 {
            return false;
        }
        let n = ((b - a) / st + 1).max(0);
        total = total.saturating_mul(n);
    }
    !p.forced && total < LAUNCH_MIN
}

/// Replaces each small parallel nest (see [`small`]) by the loop as written.
pub(crate) fn unparallel(body: &mut [Stmt]) {
    for s in body.iter_mut() {
        if let StmtKind::Parallel(p) = &s.kind {
            if small(p) {
                *s = (*p.serial).clone();
            }
        }
        for b in hir::visit::blocks_mut(s) {
            unparallel(b);
        }
    }
}

/// The variables `s` names (reads or writes), in order of first appearance.
fn vars_of(s: &Stmt, out: &mut Vec<Var>) {
    let mut c = s.clone();
    hir::visit::rename_stmt(&mut c, &mut |v| {
        if !out.contains(&v) {
            out.push(v);
        }
        v
    });
}

/// The variables assigned whole anywhere in `body` (and the variables of nested `for`
/// loops).
fn assigned(body: &[Stmt], out: &mut Vec<Var>) {
    for s in body {
        match &s.kind {
            StmtKind::Assign { target, .. }
                if target.path.is_empty() && !out.contains(&target.var) =>
            {
                out.push(target.var)
            }
            StmtKind::ForRange { var, .. } if !out.contains(var) => out.push(*var),
            StmtKind::MultiAssign { targets, .. } => {
                for t in targets {
                    if !out.contains(&t.var) {
                        out.push(t.var)
                    }
                }
            }
            _ => {}
        }
        for b in hir::visit::blocks(s) {
            assigned(b, out);
        }
    }
}

fn has_jump(s: &Stmt) -> bool {
    matches!(s.kind, StmtKind::Break(_) | StmtKind::Continue(_))
        || hir::visit::blocks(s).iter().any(|b| b.iter().any(has_jump))
}

/// The variables each iteration assigns before anything reads them: the first
/// statement of the body that names one assigns it whole from a value without it, and
/// no `break` or `continue` comes before.
fn temps(body: &[Stmt]) -> Vec<Var> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    let mut jumped = false;
    for s in body {
        let mut here = Vec::new();
        vars_of(s, &mut here);
        if let StmtKind::Assign {
            target,
            op: None,
            value,
            ..
        } = &s.kind
        {
            let v = target.var;
            let mut reads = Vec::new();
            hir::visit::each_expr(value, &mut |x| {
                if let ExprKind::Var(y) = x.kind {
                    reads.push(y)
                }
            });
            if !jumped && target.path.is_empty() && !seen.contains(&v) && !reads.contains(&v) {
                out.push(v);
            }
        }
        // A nested `for` over a literal range that is not empty sets its variable.
        if let StmtKind::ForRange {
            var,
            start,
            step: None,
            end,
            ..
        } = &s.kind
        {
            let lit = |x: &Expr| match x.kind {
                ExprKind::Int(v) => Some(v),
                _ => None,
            };
            if let (Some(a), Some(b)) = (lit(start), lit(end)) {
                if !jumped && a <= b && !seen.contains(var) {
                    out.push(*var);
                    // Its first iteration runs: what that sets first is set too.
                    let body = hir::visit::blocks(s)[0];
                    for v in temps(body) {
                        if !seen.contains(&v) && !out.contains(&v) {
                            out.push(v);
                        }
                    }
                }
            }
        }
        if let StmtKind::MultiAssign { targets, value } = &s.kind {
            let mut reads = Vec::new();
            hir::visit::each_expr(value, &mut |x| {
                if let ExprKind::Var(y) = x.kind {
                    reads.push(y)
                }
            });
            for t in targets {
                let v = t.var;
                if !jumped && !seen.contains(&v) && !reads.contains(&v) {
                    out.push(v);
                }
            }
        }
        jumped |= has_jump(s);
        seen.extend(here);
    }
    out
}

/// Points every `break` that leaves the outlined loop (`depth` loops inside it) at a
/// statement that records it in `state` first.
fn mark_breaks(body: &mut [Stmt], depth: u32, state: Var) {
    for s in body.iter_mut() {
        if let StmtKind::Break(n) = s.kind {
            if n == depth {
                let span = s.span;
                let one = e(ExprKind::Int(1), span);
                let set = assign(
                    place(state, span),
                    None,
                    e(ExprKind::Int(hir::serial::STATE_BROKE), span),
                    span,
                );
                let brk = Stmt {
                    kind: StmtKind::Break(n),
                    span,
                };
                s.kind = StmtKind::If {
                    arms: vec![(one, vec![set, brk])],
                    otherwise: vec![],
                };
                continue;
            }
        }
        let inner = match s.kind {
            StmtKind::ForRange { .. } | StmtKind::While { .. } | StmtKind::Repeat { .. } => 1,
            _ => 0,
        };
        for b in hir::visit::blocks_mut(s) {
            mark_breaks(b, depth + inner, state);
        }
    }
}

/// Makes the kernel of loop `lp` of host function `fid` and returns its plan.
fn outline(prog: &mut Program, fid: FnId, lp: &Stmt, names: &Names) -> SerialLoop {
    let span = lp.span;
    let line = (names.line_of)(span);
    let name_of = var_namer(prog, fid);
    let original = lp;
    let mut lp = lp.clone();
    unparallel(std::slice::from_mut(&mut lp));
    let lp = &lp;
    let (head, cond, body) = match &lp.kind {
        StmtKind::ForRange {
            var,
            start,
            step,
            end,
            body,
        } => (
            SerialHead::For {
                var: *var,
                start: start.clone(),
                step: step.clone(),
                end: end.clone(),
            },
            None,
            body.clone(),
        ),
        StmtKind::While { cond, body } => (SerialHead::While, Some(cond.clone()), body.clone()),
        _ => unreachable!("only `for` and `while` loops are outlined"),
    };
    // The host variables: those named in the loop; what it assigns; what needs no value
    // at entry.
    let mut named = Vec::new();
    vars_of(lp, &mut named);
    let mut outputs = Vec::new();
    if let SerialHead::For { var, .. } = &head {
        outputs.push(*var);
    }
    assigned(&body, &mut outputs);
    let mut tmp = temps(&body);
    if let SerialHead::For { var, .. } = &head {
        if !tmp.contains(var) {
            tmp.push(*var);
        }
    }
    let args: Vec<Var> = named.iter().copied().filter(|v| !tmp.contains(v)).collect();
    // Kernel slots: one per host variable, then the control values.
    let mut local_names: Vec<String> = Vec::new();
    let mut slot = |n: String| {
        local_names.push(n);
        local_names.len() as u32 - 1
    };
    let mut slots: HashMap<Var, u32> = HashMap::new();
    for v in &named {
        slots.insert(*v, slot(name_of(*v)));
    }
    let mut params = Vec::new();
    let param = |slot: u32, name: &str| Param {
        name: name.to_string(),
        slot,
        ty: None,
        default: None,
        span,
    };
    let budget = slot("budget".into());
    params.push(param(budget, "budget"));
    let is_for = matches!(head, SerialHead::For { .. });
    let (next, step, last) = if is_for {
        let (a, b, c) = (
            slot("next".into()),
            slot("step".into()),
            slot("last".into()),
        );
        params.push(param(a, "next"));
        params.push(param(b, "step"));
        params.push(param(c, "last"));
        (a, b, c)
    } else {
        (0, 0, 0)
    };
    let mut arg_slots = Vec::new();
    for v in &args {
        let s = slot(format!("{}@in", name_of(*v)));
        params.push(param(s, &format!("{}_in", name_of(*v))));
        arg_slots.push(s);
    }
    let state = slot("state".into());
    let count = slot("count".into());
    let mut outs = Vec::new();
    let mut out_param = |n: String, slot: &mut dyn FnMut(String) -> u32| {
        let s = slot(n.clone());
        outs.push(param(s, &n));
        s
    };
    let out_state = out_param("state@out".into(), &mut slot);
    let out_count = out_param("count@out".into(), &mut slot);
    let out_next = if is_for {
        out_param("next@out".into(), &mut slot)
    } else {
        0
    };
    let out_vars: Vec<u32> = outputs
        .iter()
        .map(|v| out_param(format!("{}@out", name_of(*v)), &mut slot))
        .collect();
    let lv = |s: u32| Var::Local(s);
    let var = |s: u32| e(ExprKind::Var(Var::Local(s)), span);
    let int = |x: i64| e(ExprKind::Int(x), span);
    let bin = |op: BinOp, a: Expr, b: Expr| e(ExprKind::Binary(op, Box::new(a), Box::new(b)), span);
    let set = |s: u32, x: Expr| assign(place(lv(s), span), None, x, span);
    let brk = || Stmt {
        kind: StmtKind::Break(0),
        span,
    };
    let when = |c: Expr, then: Vec<Stmt>| Stmt {
        kind: StmtKind::If {
            arms: vec![(c, then)],
            otherwise: vec![],
        },
        span,
    };
    // The body in the kernel's slots, each `break` of the loop recorded.
    let mut body = body;
    body.retain(|s| !matches!(s.kind, StmtKind::Attribute { .. }));
    let rename = |v: Var| Var::Local(slots[&v]);
    hir::visit::rename_stmts(&mut body, &mut { rename });
    mark_breaks(&mut body, 0, lv(state));
    let mut kbody = Vec::new();
    for (v, s) in args.iter().zip(&arg_slots) {
        kbody.push(set(slots[v], var(*s)));
    }
    kbody.push(set(count, int(0)));
    kbody.push(set(state, int(hir::serial::STATE_DONE)));
    let mut each = vec![when(
        bin(BinOp::Ge, var(count), var(budget)),
        vec![set(state, int(hir::serial::STATE_BUDGET)), brk()],
    )];
    if let SerialHead::For { var: lvar, .. } = &head {
        let i = slot("i".into());
        kbody.push(set(i, var(next)));
        let past = bin(
            BinOp::Or,
            bin(
                BinOp::And,
                bin(BinOp::Gt, var(step), int(0)),
                bin(BinOp::Gt, var(i), var(last)),
            ),
            bin(
                BinOp::And,
                bin(BinOp::Lt, var(step), int(0)),
                bin(BinOp::Lt, var(i), var(last)),
            ),
        );
        each.push(when(past, vec![brk()]));
        each.push(set(count, bin(BinOp::Add, var(count), int(1))));
        each.push(set(slots[lvar], var(i)));
        each.push(set(i, bin(BinOp::Add, var(i), var(step))));
        each.extend(body);
        kbody.push(Stmt {
            kind: StmtKind::While {
                cond: int(1),
                body: each,
            },
            span,
        });
        kbody.push(acc(out_next, var(i), span));
    } else {
        let mut cond = cond.expect("a while loop has a condition");
        hir::visit::rename_expr(&mut cond, &mut { rename });
        each.push(Stmt {
            kind: StmtKind::If {
                arms: vec![(cond, vec![])],
                otherwise: vec![brk()],
            },
            span,
        });
        each.push(set(count, bin(BinOp::Add, var(count), int(1))));
        each.extend(body);
        kbody.push(Stmt {
            kind: StmtKind::While {
                cond: int(1),
                body: each,
            },
            span,
        });
    }
    kbody.push(acc(out_state, var(state), span));
    kbody.push(acc(out_count, var(count), span));
    for (v, o) in outputs.iter().zip(&out_vars) {
        kbody.push(acc(*o, var(slots[v]), span));
    }
    let n_locals = local_names.len() as u32;
    prog.functions.push(hir::Function {
        name: format!("serial_line{line}"),
        kind: FnKind::Kernel,
        params,
        outputs: outs,
        capture_slots: vec![],
        capture_names: vec![],
        n_locals,
        local_names,
        body: kbody,
        result: None,
        span,
        ty: Ty::Unknown,
    });
    SerialLoop {
        kernel: prog.functions.len() as FnId - 1,
        head,
        args,
        outputs,
        temps: tmp,
        serial: Box::new(original.clone()),
    }
}

/// `out += value` on kernel output slot `out` (one thread: the output is the value).
fn acc(out: u32, value: Expr, span: Span) -> Stmt {
    assign(place(Var::Local(out), span), Some(BinOp::Add), value, span)
}
