//! The KIR verifier: checks the typing rules of a kernel and collects every violation.
//!
//! Checked: ids in range, parameter bindings, the declared type of every expression
//! against its operands (`verify/expr.rs`), statement typing (assignments, stores,
//! atomic updates, accumulations, conditions, loop variables, allocations) and
//! `break`/`continue` depths. Each error starts with `L<line>:` (statement errors) or
//! `kernel <name>:` (header errors). The verifier never panics on malformed kernels.

mod expr;

use crate::ir::*;
use crate::printer::{print_expr, update_op};
use crate::types::{ArrayTy, Scalar, Space, Ty};

/// Checks `k`; on failure returns every violation found, in body order.
pub fn verify(k: &Kernel) -> Result<(), Vec<String>> {
    let mut v = Verifier {
        k,
        funcs: &k.calls.funcs,
        errors: Vec::new(),
        loops: 0,
        line: None,
    };
    v.header();
    v.block(&k.body);
    let mut errors = v.errors;
    // Each called function's body, against its own variables and the kernel's table.
    for (i, f) in k.calls.funcs.iter().enumerate() {
        let mut v = Verifier {
            k: &f.kernel,
            funcs: &k.calls.funcs,
            errors: Vec::new(),
            loops: 0,
            line: None,
        };
        for &p in f.params.iter().chain(&f.outputs) {
            v.check(v.var_ty(p).map(|_| ()));
        }
        v.block(&f.kernel.body);
        errors.extend(v.errors.into_iter().map(|e| format!("f{i}: {e}")));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

struct Verifier<'a> {
    k: &'a Kernel,
    /// The functions that calls name (the calling kernel's table).
    funcs: &'a [crate::calls::Func],
    errors: Vec<String>,
    /// Number of loops enclosing the current statement.
    loops: u32,
    /// Source line of the current statement (`None` while checking the header).
    line: Option<u32>,
}

/// An expression shortened for messages.
fn show(e: &Expr) -> String {
    let s = print_expr(e);
    if s.chars().count() > 60 {
        let t: String = s.chars().take(57).collect();
        format!("{t}...")
    } else {
        s
    }
}

/// Whether `op` may combine values of element type `s` (atomically or into an output).
fn atomic_ok(op: AtomicOp, s: Scalar) -> Result<(), String> {
    let ok = match op {
        AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => s.is_int(),
        AtomicOp::Min | AtomicOp::Max => s != Scalar::Bool && !s.is_complex(),
        _ => s != Scalar::Bool,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{}` is not defined on {}",
            update_op(op),
            s.name()
        ))
    }
}

fn is_int_scalar(t: Ty) -> bool {
    matches!(t, Ty::Scalar(s) if s.is_int())
}

impl<'a> Verifier<'a> {
    fn err(&mut self, msg: String) {
        let full = match self.line {
            Some(l) => format!("L{l}: {msg}"),
            None => format!("kernel {}: {msg}", self.k.name),
        };
        self.errors.push(full);
    }

    fn check(&mut self, r: Result<(), String>) {
        if let Err(m) = r {
            self.err(m);
        }
    }

    /// The declared type of variable `v`.
    fn var_ty(&self, v: VarId) -> Result<Ty, String> {
        match self.k.vars.get(v as usize) {
            Some(d) => Ok(d.ty),
            None => Err(format!(
                "unknown variable %{v} (kernel has {})",
                self.k.vars.len()
            )),
        }
    }

    /// The declared type of array `a`.
    fn arr_ty(&self, a: ArrId) -> Result<ArrayTy, String> {
        match self.k.arrays.get(a as usize) {
            Some(ArrayDecl {
                ty: Ty::Array(t), ..
            }) => Ok(*t),
            Some(d) => Err(format!(
                "@{a} ({}) is declared with non-array type {}",
                d.name, d.ty
            )),
            None => Err(format!(
                "unknown array @{a} (kernel has {})",
                self.k.arrays.len()
            )),
        }
    }

    /// One index per dimension (or fewer, down to one linear index), each an int scalar.
    fn index(&self, a: ArrId, t: &ArrayTy, index: &[Expr]) -> Result<(), String> {
        if index.is_empty() {
            return Err(format!("@{a} is indexed with no index"));
        }
        if index.len() > t.rank as usize {
            return Err(format!(
                "@{a} of rank {} is indexed with {} indices",
                t.rank,
                index.len()
            ));
        }
        for (i, e) in index.iter().enumerate() {
            if !is_int_scalar(e.ty) {
                return Err(format!(
                    "index {i} of @{a} `{}` has type {}, not an integer scalar",
                    show(e),
                    e.ty
                ));
            }
        }
        Ok(())
    }

    fn header(&mut self) {
        let k = self.k;
        if !(1..=4).contains(&k.rank) {
            self.err(format!("rank {} is outside 1..=4", k.rank));
        }
        for (i, d) in k.vars.iter().enumerate() {
            match d.ty {
                Ty::Scalar(_) => {}
                Ty::Vector(_, n) if n >= 1 => {}
                t => self.err(format!(
                    "variable %{i} ({}) has type {t}; variables hold scalars or vectors",
                    d.name
                )),
            }
        }
        for (i, d) in k.arrays.iter().enumerate() {
            match d.ty {
                Ty::Array(t) if t.rank >= 1 => {}
                t => self.err(format!(
                    "array @{i} ({}) has type {t}; expected an array of rank >= 1",
                    d.name
                )),
            }
        }
        let mut seen = Vec::new();
        for p in &k.params {
            let r = match p.bind {
                Bind::Var(v) => self.var_ty(v).map(|_| ()),
                Bind::Array(a) => self.arr_ty(a).and_then(|t| match t.space {
                    Space::Global => Ok(()),
                    s => Err(format!("binds @{a} in {s:?} space; parameters are global")),
                }),
            };
            if let Err(m) = r {
                self.err(format!("param {}: {m}", p.name));
            }
            if seen.contains(&p.bind) {
                let what = match p.bind {
                    Bind::Var(v) => format!("%{v}"),
                    Bind::Array(a) => format!("@{a}"),
                };
                self.err(format!(
                    "param {}: {what} is already bound by an earlier parameter",
                    p.name
                ));
            }
            seen.push(p.bind);
        }
        for o in &k.outputs {
            if let Err(m) = atomic_ok(o.op, o.ty) {
                self.err(format!("output {}: {m}", o.name));
            }
        }
    }

    fn block(&mut self, b: &[Stmt]) {
        for s in b {
            self.stmt(s);
        }
    }

    fn loop_body(&mut self, b: &[Stmt]) {
        self.loops += 1;
        self.block(b);
        self.loops -= 1;
    }

    fn cond(&mut self, what: &str, c: &Expr) {
        self.expr(c);
        if c.ty != Ty::BOOL {
            self.err(format!(
                "{what} condition `{}` has type {}, not bool",
                show(c),
                c.ty
            ));
        }
    }

    fn exprs(&mut self, es: &[Expr]) {
        for e in es {
            self.expr(e);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        self.line = Some(s.line);
        match &s.kind {
            StmtKind::Assign { var, value } => {
                self.expr(value);
                let r = self.var_ty(*var).and_then(|t| {
                    if value.ty == t {
                        Ok(())
                    } else {
                        Err(format!(
                            "assigning `{}` of type {} to %{var} of type {t}",
                            show(value),
                            value.ty
                        ))
                    }
                });
                self.check(r);
            }
            StmtKind::SetLane { var, lane, value } => {
                self.expr(lane);
                self.expr(value);
                let r = self.var_ty(*var).and_then(|t| match t {
                    Ty::Vector(el, _) => {
                        if !is_int_scalar(lane.ty) {
                            Err(format!(
                                "lane `{}` of %{var} has type {}, not an integer scalar",
                                show(lane),
                                lane.ty
                            ))
                        } else if value.ty != Ty::Scalar(el) {
                            Err(format!(
                                "setting a lane of %{var} ({t}) to `{}` of type {}",
                                show(value),
                                value.ty
                            ))
                        } else {
                            Ok(())
                        }
                    }
                    t => Err(format!("lane assignment to %{var} of non-vector type {t}")),
                });
                self.check(r);
            }
            StmtKind::Store {
                arr, index, value, ..
            } => {
                self.exprs(index);
                self.expr(value);
                let r = self.write(*arr, index, value, None);
                self.check(r);
            }
            StmtKind::Update {
                arr,
                index,
                op,
                value,
                ..
            } => {
                self.exprs(index);
                self.expr(value);
                let r = self.write(*arr, index, value, Some(*op));
                self.check(r);
            }
            StmtKind::Accumulate { output, value } => {
                self.expr(value);
                let r = match self.k.outputs.get(*output as usize) {
                    None => Err(format!(
                        "unknown output {output} (kernel has {})",
                        self.k.outputs.len()
                    )),
                    Some(o) if value.ty != Ty::Scalar(o.ty) => Err(format!(
                        "accumulating `{}` of type {} into output {} of type {}",
                        show(value),
                        value.ty,
                        o.name,
                        o.ty.name()
                    )),
                    Some(_) => Ok(()),
                };
                self.check(r);
            }
            StmtKind::If { cond, then, els } => {
                self.cond("if", cond);
                self.block(then);
                self.block(els);
            }
            StmtKind::While { cond, body } => {
                self.cond("while", cond);
                self.loop_body(body);
            }
            StmtKind::For {
                var,
                start,
                step,
                end,
                body,
            } => {
                self.expr(start);
                self.expr(step);
                self.expr(end);
                let r = self.var_ty(*var).and_then(|t| {
                    if !matches!(t, Ty::Scalar(s) if s.is_int() || s.is_float()) {
                        return Err(format!(
                            "for variable %{var} has type {t}, not an int or float scalar"
                        ));
                    }
                    for (what, e) in [("start", start), ("step", step), ("end", end)] {
                        if e.ty != t {
                            return Err(format!(
                                "for {what} `{}` has type {} but %{var} is {t}",
                                show(e),
                                e.ty
                            ));
                        }
                    }
                    Ok(())
                });
                self.check(r);
                self.loop_body(body);
            }
            StmtKind::Break(n) | StmtKind::Continue(n) => {
                if *n >= self.loops {
                    let what = if matches!(s.kind, StmtKind::Break(_)) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.err(format!(
                        "{what} {n} with only {} enclosing loop(s)",
                        self.loops
                    ));
                }
            }
            StmtKind::Barrier | StmtKind::Return => {}
            StmtKind::Assert { cond } => self.cond("assert", cond),
            StmtKind::AllocShared { arr, dims, .. } => {
                self.exprs(dims);
                let r = self.alloc(*arr, dims, Space::Shared);
                self.check(r);
            }
            StmtKind::AllocLocal { arr, dims, .. } => {
                self.exprs(dims);
                let r = self.alloc(*arr, dims, Space::Local);
                self.check(r);
            }
            StmtKind::Call { func, args, outs } => {
                self.exprs(args);
                let r = self.call(*func, args, outs);
                self.check(r);
            }
        }
    }

    /// A store (`op == None`) or atomic update of `arr[index]`.
    fn write(
        &self,
        arr: ArrId,
        index: &[Expr],
        value: &Expr,
        op: Option<AtomicOp>,
    ) -> Result<(), String> {
        let t = self.arr_ty(arr)?;
        if t.is_const {
            return Err(format!("writing to const array @{arr}"));
        }
        self.index(arr, &t, index)?;
        if value.ty != Ty::Scalar(t.elem) {
            return Err(format!(
                "writing `{}` of type {} into @{arr} with elements of type {}",
                show(value),
                value.ty,
                t.elem.name()
            ));
        }
        match op {
            Some(op) => atomic_ok(op, t.elem).map_err(|m| format!("atomic update of @{arr}: {m}")),
            None => Ok(()),
        }
    }

    /// A call of function `f` of the table: arguments and outputs of its types.
    fn call(&self, f: u32, args: &[Expr], outs: &[VarId]) -> Result<(), String> {
        let Some(func) = self.funcs.get(f as usize) else {
            return Err(format!(
                "call of unknown function f{f} (the table has {})",
                self.funcs.len()
            ));
        };
        let fty = |v: VarId| func.kernel.vars.get(v as usize).map(|d| d.ty);
        if args.len() != func.params.len() || outs.len() != func.outputs.len() {
            return Err(format!(
                "call of f{f} with {} arguments and {} outputs, but it has {} and {}",
                args.len(),
                outs.len(),
                func.params.len(),
                func.outputs.len()
            ));
        }
        for (a, &p) in args.iter().zip(&func.params) {
            if Some(a.ty) != fty(p) {
                return Err(format!(
                    "argument `{}` of type {} to f{f}, whose parameter is not of that type",
                    show(a),
                    a.ty
                ));
            }
        }
        for (&o, &fo) in outs.iter().zip(&func.outputs) {
            let t = self.var_ty(o)?;
            if Some(t) != fty(fo) {
                return Err(format!(
                    "output %{o} of type {t} of f{f}, whose output is not of that type"
                ));
            }
        }
        Ok(())
    }

    fn alloc(&self, arr: ArrId, dims: &[Expr], space: Space) -> Result<(), String> {
        let t = self.arr_ty(arr)?;
        if t.space != space {
            return Err(format!(
                "allocating @{arr} as {space:?} but it is declared in {:?} space",
                t.space
            ));
        }
        if dims.is_empty() || dims.len() > t.rank as usize {
            return Err(format!(
                "allocating @{arr} of rank {} with {} dimensions",
                t.rank,
                dims.len()
            ));
        }
        for (i, d) in dims.iter().enumerate() {
            if !is_int_scalar(d.ty) {
                return Err(format!(
                    "dimension {i} of @{arr} `{}` has type {}, not an integer scalar",
                    show(d),
                    d.ty
                ));
            }
        }
        Ok(())
    }
}
