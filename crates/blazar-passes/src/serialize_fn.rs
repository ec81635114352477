//! The function outliner: a HIR → HIR pass, run after the loop parallelizer and before
//! the serial-loop outliner, that gives each host function whose whole body kernel code
//! can express a one-thread kernel ([`hir::SerialFn`]), and records why the others have
//! none. The interpreter specialises the kernel for the types of a call's arguments and
//! runs it in place of the body when that pays (see `blazar_interp::hostfn`).
//!
//! The body's rules are the serial-loop outliner's with `return` allowed (the
//! [`serialize::eligible`] walker in function mode). On top of them a function is left
//! on the interpreter when it reads a global variable, declares an access mode on a
//! parameter, or may return without assigning one of its outputs or read a variable
//! before assigning it (the interpreter's errors for those are kept exact by never
//! compiling such a function); the host functions it calls, at any depth, must meet
//! the same rules. A call cycle (recursion) is lowered as real calls (`lower_rec`):
//! the kernel takes how many calls may still nest ([`crate::lower_rec::ROOM_PARAM`]).
//!
//! In the kernel every `return` and the end of the body give the outputs, and every loop
//! iteration spends one unit of an iteration budget: when it runs out the kernel stops
//! and the host reports the run's step budget exhausted, as the interpreter would.

use crate::outline::{assign, e, place, Names};
use crate::serialize::{eligible, unparallel};
use blazar_diagnostics::Span;
use blazar_hir::{
    self as hir, BinOp, Callee, Expr, ExprKind, FnId, FnKind, Param, Program, SerialFn, Stmt,
    StmtKind, Ty, Var,
};

/// Outlines every host function of `prog` whose body kernel code can express, and
/// records in `prog.serial_fns` what it decided for each.
pub fn serialize_functions(prog: &mut Program, names: &Names) {
    let mut decided = Vec::new();
    for fid in 0..prog.functions.len() as FnId {
        let f = &prog.functions[fid as usize];
        if f.kind != FnKind::Host
            || fid == prog.script
            || f.result.is_some()
            || !f.capture_slots.is_empty()
        {
            continue;
        }
        decided.push((fid, check(prog, fid, names)));
    }
    for (fid, r) in decided {
        let r = r.map(|()| SerialFn {
            kernel: outline(prog, fid, names),
        });
        prog.serial_fns.insert(fid, r);
    }
}

/// Why function `fid` cannot be compiled whole, or `Ok`.
fn check(prog: &Program, fid: FnId, names: &Names) -> Result<(), String> {
    let f = &prog.functions[fid as usize];
    if f.params
        .iter()
        .any(|p| p.ty.as_ref().is_some_and(|a| a.mode.is_some()))
    {
        return Err("a parameter declares an access mode".into());
    }
    for g in reachable(prog, fid) {
        let h = &prog.functions[g as usize];
        if g == fid || h.kind != FnKind::Host {
            continue;
        }
        if let Err(why) = callee_ok(h) {
            return Err(format!("`{}`, which it calls, {why}", h.name));
        }
    }
    let mut global = false;
    hir::visit::rename_stmts(&mut f.body.clone(), &mut |v| {
        global |= matches!(v, Var::Global(_));
        v
    });
    if global {
        return Err("it uses a global variable".into());
    }
    if let Err((at, why)) = eligible(&f.body, 0, prog, names, true) {
        return Err(format!("line {}: {why}", (names.line_of)(at)));
    }
    let mut set: Vec<Var> = f.params.iter().map(|p| Var::Local(p.slot)).collect();
    let outs: Vec<Var> = f.outputs.iter().map(|o| Var::Local(o.slot)).collect();
    match definite(&f.body, &mut set, &outs) {
        Ok(()) => {}
        Err(Unset::Output(o)) => {
            let name = f
                .outputs
                .iter()
                .find(|p| Var::Local(p.slot) == o)
                .map_or(String::new(), |p| p.name.clone());
            return Err(format!("output `{name}` may be left unassigned"));
        }
        Err(Unset::Read(v)) => {
            // Kernel variables start at 0; the interpreter reports the read.
            let (Var::Local(slot) | Var::Global(slot)) = v;
            let name = f
                .local_names
                .get(slot as usize)
                .cloned()
                .unwrap_or_default();
            return Err(format!("`{name}` may be read before it is assigned"));
        }
    }
    if let Some(o) = outs.iter().find(|o| !set.contains(o)) {
        let name = f
            .outputs
            .iter()
            .find(|p| Var::Local(p.slot) == *o)
            .map_or(String::new(), |p| p.name.clone());
        return Err(format!("output `{name}` may be left unassigned"));
    }
    Ok(())
}

/// The functions a body calls by name or as nested functions.
fn callees(prog: &Program, body: &[Stmt]) -> Vec<FnId> {
    let mut out = Vec::new();
    hir::visit::each_expr_in(body, &mut |x| {
        if let ExprKind::Call { callee, .. } = &x.kind {
            match callee {
                Callee::Group(g) => out.extend(prog.groups[*g as usize].members.iter().copied()),
                Callee::SelfCall(id) | Callee::Nested { func: id, .. } => out.push(*id),
                _ => {}
            }
        }
    });
    out
}

/// Every function reachable by calls from `fid` (itself included), each once.
pub fn reachable(prog: &Program, fid: FnId) -> Vec<FnId> {
    let mut seen = vec![fid];
    let mut work = vec![fid];
    while let Some(f) = work.pop() {
        for g in callees(prog, &prog.functions[f as usize].body) {
            if (g as usize) < prog.functions.len() && !seen.contains(&g) {
                seen.push(g);
                work.push(g);
            }
        }
    }
    seen
}

/// The rules on a host function that a compiled function calls (inlined, or as a
/// real call when it recurses): no parameter access modes, no global variables, and
/// every output assigned and every variable assigned before it is read on every path.
fn callee_ok(f: &hir::Function) -> Result<(), String> {
    if f.params
        .iter()
        .any(|p| p.ty.as_ref().is_some_and(|a| a.mode.is_some()))
    {
        return Err("declares an access mode on a parameter".into());
    }
    let mut global = false;
    hir::visit::rename_stmts(&mut f.body.clone(), &mut |v| {
        global |= matches!(v, Var::Global(_));
        v
    });
    if global {
        return Err("uses a global variable".into());
    }
    let mut set: Vec<Var> = f.params.iter().map(|p| Var::Local(p.slot)).collect();
    let outs: Vec<Var> = f.outputs.iter().map(|o| Var::Local(o.slot)).collect();
    let unset = match definite(&f.body, &mut set, &outs) {
        Ok(()) => outs.iter().any(|o| !set.contains(o)),
        Err(_) => true,
    };
    if unset {
        return Err("may leave an output or a variable unassigned".into());
    }
    Ok(())
}

/// Walks `body` with `set` the variables certainly assigned; `Err` when a `return`
/// comes where an output may not be, or a statement may read a variable before it is
/// assigned (kernel variables start at 0, where the interpreter reports the read). After it, `set` holds what is assigned on every
/// path that reaches the end.
fn definite(body: &[Stmt], set: &mut Vec<Var>, outs: &[Var]) -> Result<(), Unset> {
    let add = |set: &mut Vec<Var>, v: Var| {
        if !set.contains(&v) {
            set.push(v)
        }
    };
    for s in body {
        // What the statement reads itself must be assigned (a `repeat`'s condition is
        // read after its body: checked there).
        if !matches!(s.kind, StmtKind::Repeat { .. }) {
            reads_assigned(s, set)?;
        }
        match &s.kind {
            StmtKind::Assign { target, .. } if target.path.is_empty() => add(set, target.var),
            StmtKind::MultiAssign { targets, .. } => {
                for t in targets {
                    if t.path.is_empty() {
                        add(set, t.var)
                    }
                }
            }
            StmtKind::Return => {
                if let Some(o) = outs.iter().find(|o| !set.contains(o)) {
                    return Err(Unset::Output(*o));
                }
            }
            StmtKind::Repeat { body, cond } => {
                // The body runs at least once, but what it assigns counts inside it
                // only (a `break` may leave it early); its condition after it.
                let mut inner = set.clone();
                definite(body, &mut inner, outs)?;
                assigned_reads(cond, &inner)?;
            }
            StmtKind::If { arms, otherwise } => {
                let mut after: Option<Vec<Var>> = None;
                let mut branches: Vec<&[Stmt]> = arms.iter().map(|(_, b)| b.as_slice()).collect();
                branches.push(otherwise);
                for b in branches {
                    let mut inner = set.clone();
                    definite(b, &mut inner, outs)?;
                    after = Some(match after {
                        None => inner,
                        Some(a) => a.into_iter().filter(|v| inner.contains(v)).collect(),
                    });
                }
                *set = after.unwrap_or_default();
            }
            _ => {
                // A loop may run no iteration: what it assigns counts inside it only.
                for b in hir::visit::blocks(s) {
                    let mut inner = set.clone();
                    if let StmtKind::ForRange { var, .. } = &s.kind {
                        add(&mut inner, *var);
                    }
                    definite(b, &mut inner, outs)?;
                }
            }
        }
    }
    Ok(())
}

/// Why [`definite`] refuses a body.
#[derive(Debug, PartialEq)]
enum Unset {
    /// A `return` (or the end) may come where this output is unassigned.
    Output(Var),
    /// This variable may be read before anything is assigned to it.
    Read(Var),
}

/// `Err` when `e` reads a local variable that `set` does not hold.
fn assigned_reads(e: &Expr, set: &[Var]) -> Result<(), Unset> {
    let mut bad = None;
    hir::visit::each_expr(e, &mut |x| {
        if let ExprKind::Var(v @ Var::Local(_)) = x.kind {
            if bad.is_none() && !set.contains(&v) {
                bad = Some(v);
            }
        }
    });
    bad.map_or(Ok(()), |v| Err(Unset::Read(v)))
}

/// `Err` when statement `s` itself (not its nested blocks) reads a local variable that
/// `set` does not hold: its expressions, and the variable it updates (`x += 1`,
/// `a[i] = v`).
fn reads_assigned(s: &Stmt, set: &[Var]) -> Result<(), Unset> {
    for e in hir::visit::own_exprs(s) {
        assigned_reads(e, set)?;
    }
    let updated = |t: &hir::Place, op: bool| (op || !t.path.is_empty()).then_some(t.var);
    let vars: Vec<Var> = match &s.kind {
        StmtKind::Assign { target, op, .. } => updated(target, op.is_some()).into_iter().collect(),
        StmtKind::MultiAssign { targets, .. } => {
            targets.iter().filter_map(|t| updated(t, false)).collect()
        }
        _ => vec![],
    };
    match vars
        .into_iter()
        .find(|v| matches!(v, Var::Local(_)) && !set.contains(v))
    {
        Some(v) => Err(Unset::Read(v)),
        None => Ok(()),
    }
}

/// Makes the kernel of host function `fid` and returns its id.
fn outline(prog: &mut Program, fid: FnId, names: &Names) -> FnId {
    let f = prog.functions[fid as usize].clone();
    let span = f.span;
    let line = (names.line_of)(span);
    let mut local_names = f.local_names.clone();
    let mut slot = |n: String| {
        local_names.push(n);
        local_names.len() as u32 - 1
    };
    let param = |slot: u32, name: String| Param {
        name,
        slot,
        ty: None,
        default: None,
        span,
    };
    let budget = slot("budget".into());
    let room = slot(crate::lower_rec::ROOM_PARAM.into());
    let mut params = vec![
        param(budget, "budget".into()),
        param(room, crate::lower_rec::ROOM_PARAM.into()),
    ];
    let ins: Vec<u32> = f
        .params
        .iter()
        .map(|p| {
            let s = slot(format!("{}@in", p.name));
            params.push(param(s, format!("{}_in", p.name)));
            s
        })
        .collect();
    let left = slot(crate::lower_rec::BUDGET_VAR.into());
    let state_out = slot("state@out".into());
    let left_out = slot("left@out".into());
    let mut outputs = vec![
        param(state_out, "state@out".into()),
        param(left_out, "left@out".into()),
    ];
    let outs: Vec<(u32, u32)> = f
        .outputs
        .iter()
        .map(|o| {
            let s = slot(format!("{}@out", o.name));
            outputs.push(param(s, format!("{}@out", o.name)));
            (o.slot, s)
        })
        .collect();
    let var = |s: u32| e(ExprKind::Var(Var::Local(s)), span);
    let int = |x: i64| e(ExprKind::Int(x), span);
    let set = |s: u32, x: Expr| assign(place(Var::Local(s), span), None, x, span);
    let acc = |s: u32, x: Expr| assign(place(Var::Local(s), span), Some(BinOp::Add), x, span);
    let ret = Stmt {
        kind: StmtKind::Return,
        span,
    };
    let mut done = vec![
        acc(state_out, int(hir::serial::STATE_DONE)),
        acc(left_out, var(left)),
    ];
    for (o, s) in &outs {
        done.push(acc(*s, var(*o)));
    }
    let spent = when(
        e(
            ExprKind::Binary(BinOp::Lt, Box::new(var(left)), Box::new(int(0))),
            span,
        ),
        vec![acc(state_out, int(hir::serial::STATE_BUDGET)), ret.clone()],
        span,
    );
    let tick = vec![
        set(
            left,
            e(
                ExprKind::Binary(BinOp::Sub, Box::new(var(left)), Box::new(int(1))),
                span,
            ),
        ),
        spent,
    ];
    let mut body = f.body.clone();
    body.retain(|s| !matches!(s.kind, StmtKind::Attribute { .. }));
    unparallel(&mut body);
    let mut exit = done.clone();
    exit.push(ret);
    rewrite(&mut body, &exit, &tick);
    let mut kbody = Vec::new();
    for (p, s) in f.params.iter().zip(&ins) {
        kbody.push(set(p.slot, var(*s)));
    }
    kbody.push(set(left, var(budget)));
    kbody.extend(body);
    kbody.extend(done);
    let n_locals = local_names.len() as u32;
    prog.functions.push(hir::Function {
        name: format!("fn_line{line}"),
        kind: FnKind::Kernel,
        params,
        outputs,
        capture_slots: vec![],
        capture_names: vec![],
        n_locals,
        local_names,
        body: kbody,
        result: None,
        span,
        ty: Ty::Unknown,
    });
    prog.functions.len() as FnId - 1
}

fn when(c: Expr, then: Vec<Stmt>, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::If {
            arms: vec![(c, then)],
            otherwise: vec![],
        },
        span,
    }
}

/// Puts `exit` (the outputs, then `return`) in place of every `return` of `body`, and
/// `tick` (one unit of the budget spent, and the stop when it is out) at the start of
/// every loop's body.
fn rewrite(body: &mut [Stmt], exit: &[Stmt], tick: &[Stmt]) {
    for s in body.iter_mut() {
        if matches!(s.kind, StmtKind::Return) {
            let one = e(ExprKind::Int(1), s.span);
            *s = when(one, exit.to_vec(), s.span);
            continue;
        }
        for b in hir::visit::blocks_mut(s) {
            rewrite(b, exit, tick);
        }
        match &mut s.kind {
            StmtKind::ForRange { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::Repeat { body, .. } => {
                body.splice(0..0, tick.iter().cloned());
            }
            _ => {}
        }
    }
}
