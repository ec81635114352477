//! Lowering of calls that are not inlined: recursion in host functions compiled whole.
//!
//! Kernel code inlines every call, which a call cycle cannot be. A kernel made by the
//! function outliner (`serialize_fn`, whose kernel takes the parameter [`ROOM_PARAM`])
//! lowers a call of a *host* function that is already being lowered (on the inlining
//! path, or in the table) as a real call instead ([`blazar_kir::calls`]): the function
//! is lowered once per signature of argument types into the kernel's table, by a
//! lowering of its own that shares the table. Its outputs' types depend on its body,
//! which may read its own results: they start at `bool` (the lowest type) and widen to
//! what the body assigns, the function lowered again until they stop changing.
//! Device and kernel functions keep the old rule (they cannot be recursive).
//!
//! A function lowered here has scalar or vector parameters and outputs; anything else
//! is a lowering error, so the host function stays on the interpreter. Its loops may
//! hold anything kernel code can (they spend the kernel's iteration budget,
//! [`BUDGET_VAR`], as its calls do: `blazar_kir::calls`). Conditional operands (`c ? a : b`, `a && b`, `a || b`) whose
//! lowering holds a call run it only when the host would evaluate it.

use crate::lower::{err, Fail, Frame, Lower, Slot, SlotTy, LR};
use crate::lower_expr::Val;
use crate::lower_math::cast;
use blazar_diagnostics::Span;
use blazar_hir::{self as hir, FnId, FnKind};
use blazar_kir::calls::Func;
use blazar_kir::{self as kir, Expr, ExprKind as K, StmtKind, Ty, VarId};
use std::cell::RefCell;
use std::rc::Rc;

/// The name of the outlined kernel's parameter that holds how many calls may nest: a
/// kernel with it may make real calls.
pub const ROOM_PARAM: &str = "call@room";

/// The name of the outlined kernel's variable that holds the iteration budget left
/// (`blazar_kir::calls::Calls::budget`): the functions it calls spend it too.
pub const BUDGET_VAR: &str = "call@left";

/// The most functions (signatures) one kernel's table holds.
const MAX_FUNCS: usize = 64;

/// The functions lowered for real calls, shared by a kernel's lowering and its
/// functions' lowerings.
#[derive(Default)]
pub struct CallTable {
    entries: Vec<Entry>,
}

struct Entry {
    func: FnId,
    args: Vec<Ty>,
    /// The outputs' types as known so far.
    outs: Vec<Ty>,
    /// The lowered function, once its outputs' types are stable; the error when it
    /// cannot be lowered.
    done: Option<Result<Func, blazar_diagnostics::Diagnostic>>,
}

impl CallTable {
    /// The table as the kernel keeps it (an entry left unfinished, never called by the
    /// kernel's final lowering, becomes an empty function).
    pub fn into_funcs(self) -> Vec<Func> {
        self.entries
            .into_iter()
            .map(|e| match e.done {
                Some(Ok(f)) => f,
                _ => Func {
                    kernel: empty_kernel(String::new()),
                    params: vec![],
                    outputs: vec![],
                },
            })
            .collect()
    }
}

fn empty_kernel(name: String) -> kir::Kernel {
    kir::Kernel {
        name,
        rank: 1,
        params: vec![],
        outputs: vec![],
        vars: vec![],
        arrays: vec![],
        body: vec![],
        calls: Default::default(),
        facts: Default::default(),
    }
}

/// A shared handle on a table.
pub type Table = Rc<RefCell<CallTable>>;

impl<'a> Lower<'a> {
    /// Whether a call of `f` here is a real call: the kernel may make them, `f` is a
    /// host function, and it is being lowered already.
    pub fn real_call_of(&self, f: FnId) -> bool {
        let Some(t) = &self.calls else {
            return false;
        };
        let host = self
            .env
            .prog
            .functions
            .get(f as usize)
            .is_some_and(|g| g.kind == FnKind::Host);
        host && (self.frames.iter().any(|fr| fr.func == f)
            || t.borrow().entries.iter().any(|e| e.func == f))
    }

    /// A real call of host function `f` with `args`: its first output's value.
    pub fn real_call(&mut self, f: FnId, args: &'a [hir::Expr], span: Span) -> LR<Val> {
        let func = &self.env.prog.functions[f as usize];
        if args.len() != func.params.len() {
            return err(
                span,
                format!(
                    "`{}` takes {} arguments, got {} (a recursive call in kernel code passes all)",
                    func.name,
                    func.params.len(),
                    args.len()
                ),
            );
        }
        let mut xs = Vec::new();
        for (p, a) in func.params.iter().zip(args) {
            let Val::E(x) = self.val(a)? else {
                return err(
                    a.span,
                    "a recursive function takes scalars and vectors only in kernel code",
                );
            };
            let ty = match &p.ty {
                Some(ann) => self.hir_ty(&ann.ty, p.span)?.unwrap_or(x.ty),
                None => x.ty,
            };
            let ty = match (ty, x.ty) {
                (Ty::Scalar(s), Ty::Vector(_, n)) => Ty::Vector(s, n),
                _ => ty,
            };
            xs.push(cast(x, ty));
        }
        let tys: Vec<Ty> = xs.iter().map(|x| x.ty).collect();
        let id = self.lower_func(f, tys, span)?;
        let outs_tys = self.table().borrow().entries[id].outs.clone();
        let outs: Vec<VarId> = func
            .outputs
            .iter()
            .zip(&outs_tys)
            .map(|(o, t)| self.new_var(&format!("{}@{}", func.name, o.name), *t))
            .collect();
        self.emit(StmtKind::Call {
            func: id as u32,
            args: xs,
            outs: outs.clone(),
        });
        Ok(Val::E(match outs.first() {
            Some(&v) => Expr::new(K::Var(v), outs_tys[0]),
            None => Expr::boolean(true),
        }))
    }

    fn table(&self) -> Table {
        self.calls.clone().expect("real calls only with a table")
    }

    /// The index in the table of `f` lowered for arguments of types `args` (found, or
    /// lowered now until its outputs' types are stable).
    fn lower_func(&mut self, f: FnId, args: Vec<Ty>, span: Span) -> LR<usize> {
        let table = self.table();
        let found = table
            .borrow()
            .entries
            .iter()
            .position(|e| e.func == f && e.args == args);
        if let Some(i) = found {
            return match &table.borrow().entries[i].done {
                Some(Err(d)) => Err(Fail::Error(d.clone())),
                _ => Ok(i),
            };
        }
        let func = &self.env.prog.functions[f as usize];
        if table.borrow().entries.len() >= MAX_FUNCS {
            return err(
                span,
                format!(
                    "`{}` needs too many specialisations in kernel code",
                    func.name
                ),
            );
        }
        let i = {
            let mut t = table.borrow_mut();
            t.entries.push(Entry {
                func: f,
                args,
                outs: vec![Ty::BOOL; func.outputs.len()],
                done: None,
            });
            t.entries.len() - 1
        };
        let fail = |d: blazar_diagnostics::Diagnostic| {
            table.borrow_mut().entries[i].done = Some(Err(d.clone()));
            Err(Fail::Error(d))
        };
        for _ in 0..16 {
            // Functions lowered for an earlier guess are lowered again.
            table.borrow_mut().entries.truncate(i + 1);
            let (r, now) = self.lower_func_body(f, i);
            if let Err(Fail::Error(d)) = r {
                return fail(d);
            }
            let guess = table.borrow().entries[i].outs.clone();
            let mut widened = Vec::new();
            for (g, n) in guess.iter().zip(&now) {
                match n.map_or(Some(*g), |n| crate::infer::join(*g, n)) {
                    Some(t) => widened.push(t),
                    None => {
                        return fail(blazar_diagnostics::Diagnostic::error(
                            span,
                            format!("the outputs of `{}` change type in kernel code", func.name),
                        ))
                    }
                }
            }
            match r {
                Ok(fun) if widened == guess => {
                    table.borrow_mut().entries[i].done = Some(Ok(fun));
                    return Ok(i);
                }
                _ if widened == guess => {
                    return fail(blazar_diagnostics::Diagnostic::error(
                        span,
                        format!("cannot infer the types of `{}` in kernel code", func.name),
                    ))
                }
                _ => table.borrow_mut().entries[i].outs = widened,
            }
        }
        fail(blazar_diagnostics::Diagnostic::error(
            span,
            format!("cannot infer the types of `{}` in kernel code", func.name),
        ))
    }

    /// Lowers `f`'s body for entry `i` of the table (its arguments' types, its outputs'
    /// guessed types for the calls it makes of itself) by a lowering of its own: the
    /// function, and the types its body gives its outputs.
    fn lower_func_body(&self, f: FnId, i: usize) -> (LR<Func>, Vec<Option<Ty>>) {
        let env = self.env;
        let func = &env.prog.functions[f as usize];
        let table = self.table();
        let args = table.borrow().entries[i].args.clone();
        let mut sub = Lower {
            env,
            k: empty_kernel(func.name.clone()),
            frames: vec![],
            out: vec![],
            loops: 0,
            line: self.line,
            span: func.span,
            dry: false,
            float: self.float,
            complex: self.complex,
            open_outputs: false,
            extents: Default::default(),
            calls: Some(table),
        };
        let none = vec![None; func.outputs.len()];
        if !func.capture_slots.is_empty() || func.result.is_some() {
            return (
                err(
                    func.span,
                    "a recursive lambda or closure cannot be kernel code",
                ),
                none,
            );
        }
        let mut slots = vec![Slot::Unset; func.n_locals as usize];
        let mut params = Vec::new();
        for (p, t) in func.params.iter().zip(&args) {
            let v = sub.new_var(&p.name, *t);
            slots[p.slot as usize] = Slot::Var(v);
            params.push(v);
        }
        let tys = vec![None; slots.len()];
        sub.frames.push(Frame {
            func: f,
            slots,
            tys,
            ret_depth: Some(1),
        });
        sub.loops = 1;
        let body = sub.lower_body(&func.body);
        let frame = sub.frames.pop().expect("pushed above");
        let now: Vec<Option<Ty>> = func
            .outputs
            .iter()
            .map(|o| match frame.tys.get(o.slot as usize) {
                Some(Some(SlotTy::Val(t))) => Some(*t),
                _ => None,
            })
            .collect();
        let mut body = match body {
            Ok(b) => b,
            Err(e) => return (Err(e), now),
        };
        let mut outputs = Vec::new();
        for o in &func.outputs {
            match frame.slots.get(o.slot as usize) {
                Some(Slot::Var(v)) => outputs.push(*v),
                _ => {
                    return (
                        err(
                            o.span,
                            format!(
                                "output `{}` of `{}` must be a value in kernel code",
                                o.name, func.name
                            ),
                        ),
                        now,
                    )
                }
            }
        }
        // The body runs inside a one-trip loop so that `return` can leave it.
        let line = (env.line_of)(func.span);
        body.push(kir::Stmt {
            kind: StmtKind::Break(0),
            line,
        });
        sub.k.body = vec![kir::Stmt {
            kind: StmtKind::While {
                cond: Expr::boolean(true),
                body,
            },
            line,
        }];
        (
            Ok(Func {
                kernel: sub.k,
                params,
                outputs,
            }),
            now,
        )
    }

    /// `c ? x : y` where a branch's statements (`pa`, `pb`) hold a call: an `if` that
    /// runs the chosen branch's statements and sets a temporary of type `t`.
    pub fn choose(
        &mut self,
        c: Expr,
        (mut pa, x): (kir::Block, Expr),
        (mut pb, y): (kir::Block, Expr),
        t: Ty,
    ) -> LR<Val> {
        let v = self.new_var("sel", t);
        let line = self.line;
        pa.push(kir::Stmt {
            kind: StmtKind::Assign { var: v, value: x },
            line,
        });
        pb.push(kir::Stmt {
            kind: StmtKind::Assign { var: v, value: y },
            line,
        });
        self.emit(StmtKind::If {
            cond: c,
            then: pa,
            els: pb,
        });
        Ok(Val::E(Expr::new(K::Var(v), t)))
    }

    /// `x && y` (`and`) or `x || y` where `y`'s statements `pre` hold a call: they run
    /// only when `x` does not decide the value, as the host evaluates.
    pub fn short_circuit(
        &mut self,
        and: bool,
        x: Expr,
        mut pre: kir::Block,
        y: Expr,
        span: Span,
    ) -> LR<Val> {
        if !matches!(x.ty, Ty::Scalar(_)) || !matches!(y.ty, Ty::Scalar(_)) {
            return err(span, "`&&` and `||` take scalars here in kernel code");
        }
        let v = self.new_var("cond", Ty::BOOL);
        self.emit(StmtKind::Assign {
            var: v,
            value: crate::lower_math::to_bool(x),
        });
        let line = self.line;
        pre.push(kir::Stmt {
            kind: StmtKind::Assign {
                var: v,
                value: crate::lower_math::to_bool(y),
            },
            line,
        });
        let read = Expr::new(K::Var(v), Ty::BOOL);
        let cond = if and {
            read
        } else {
            Expr::new(K::Unary(kir::UnOp::Not, Box::new(read)), Ty::BOOL)
        };
        self.emit(StmtKind::If {
            cond,
            then: pre,
            els: vec![],
        });
        Ok(Val::E(Expr::new(K::Var(v), Ty::BOOL)))
    }

    /// Whether statements emitted for an operand hold a real call (which must then
    /// run only when the host would evaluate the operand).
    pub fn holds_call(b: &[kir::Stmt]) -> bool {
        let mut found = false;
        blazar_kir::visit::walk_stmts(b, &mut |s| found |= matches!(s.kind, StmtKind::Call { .. }));
        found
    }
}
