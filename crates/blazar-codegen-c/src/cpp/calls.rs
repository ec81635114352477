//! Functions called without inlining (`blazar_kir::calls`: recursion in host code
//! compiled whole) as C++ functions beside the entry point.
//!
//! Function `f<i>` of the kernel's table becomes
//! `static bool bz_fn<i>(bz_err& bz_e, i64 bz_room, i64 bz_depth, i64& bz_left,
//! const u64* bz_sig, params..., T* bz_o<j>...)`:
//! its variables are its own C++ locals, its body is printed by the same walk as the
//! kernel's (an error recorded in `bz_e` jumps to its `bz_abort`, which returns
//! `false`), and it stores its outputs through the pointers. A call checks the depth
//! first: at `bz_depth` calls deep (0 in the entry point) with `room` allowed, the call
//! records [`code::CALL_DEPTH`] at its line instead of going deeper; a callee's failure
//! aborts the caller with the callee's error. `bz_left` is the kernel's iteration
//! budget (`Calls::budget`, or an unbounded one): a call spends one unit after the
//! depth check, as the interpreter's call spends a step, and so does each iteration of
//! a loop in a function (not the one-trip loops that inlined calls and the function's
//! own body are); the unit that leaves it negative records [`code::BUDGET`]. Every
//! 65536 units, and every 65536 iterations of an outlined host function's own loops
//! (which spend its budget variable), the code polls the process's interrupt flag
//! (`bz_sig`, the launch's `sig`): a signal records [`code::INTERRUPTED`], so that
//! Ctrl-C stops a compiled host function as it stops an interpreted loop.

use super::code;
use super::Gen;
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{Expr, Scalar, Stmt, Ty, VarId};
use std::fmt::Write;

impl Gen<'_> {
    /// The C++ functions of the kernel's table (declarations first, so that they may
    /// call each other in any order), or nothing.
    pub(crate) fn functions_text(&self) -> String {
        let funcs = self.funcs;
        if funcs.is_empty() {
            return String::new();
        }
        let mut s = String::from("\n// ---- functions called without inlining ----\n");
        let heads: Vec<String> = (0..funcs.len()).map(|i| self.fn_head(i)).collect();
        for h in &heads {
            let _ = writeln!(s, "{h};");
        }
        for (i, f) in funcs.iter().enumerate() {
            let Ok(plan) = super::support::plan(&f.kernel) else {
                continue;
            };
            let mut g = Gen::new(&f.kernel, &plan, None);
            g.funcs = funcs;
            g.in_fn = true;
            g.next = "bz_fret".into();
            g.o.depth = 1;
            g.block(&f.kernel.body);
            let _ = writeln!(s, "{} {{", heads[i]);
            for (v, d) in f.kernel.vars.iter().enumerate() {
                if !f.params.contains(&(v as VarId)) {
                    let _ = writeln!(
                        s,
                        "  {} {} = {{}};",
                        spell::ty(d.ty),
                        g.var_base(v as VarId)
                    );
                }
            }
            s.push_str("  (void)bz_room; (void)bz_depth; (void)bz_left; (void)bz_sig;\n");
            s.push_str(&g.o.text);
            s.push_str("  goto bz_fret;\nbz_fret:\n");
            for (j, &o) in f.outputs.iter().enumerate() {
                let _ = writeln!(s, "  *bz_o{j} = {};", g.var_base(o));
            }
            s.push_str("  return true;\nbz_abort:\n  return false;\n}\n");
        }
        s
    }

    /// `static bool bz_fn<i>(...)`, the head of function `i` of the table.
    fn fn_head(&self, i: usize) -> String {
        let f = &self.funcs[i];
        let name = |v: VarId| {
            let n = f
                .kernel
                .vars
                .get(v as usize)
                .map_or("", |d| d.name.as_str());
            format!("v{v}_{}", spell::ident(n))
        };
        let mut ps = vec![
            "bz_err& bz_e".to_string(),
            "const i64 bz_room".into(),
            "const i64 bz_depth".into(),
            "i64& bz_left".into(),
            "const u64* bz_sig".into(),
        ];
        for &p in &f.params {
            let t = f.kernel.vars.get(p as usize).map(|d| d.ty);
            ps.push(format!("{} {}", t.map_or("i32".into(), spell::ty), name(p)));
        }
        for (j, &o) in f.outputs.iter().enumerate() {
            let t = f.kernel.vars.get(o as usize).map(|d| d.ty);
            ps.push(format!("{}* bz_o{j}", t.map_or("i32".into(), spell::ty)));
        }
        format!("static bool bz_fn{i}({})", ps.join(", "))
    }

    /// A call of function `func` with `args`, its outputs assigned to `outs`.
    pub(crate) fn call(&mut self, func: u32, args: &[Expr], outs: &[VarId]) {
        let line = self.line;
        let Some(f) = self.funcs.get(func as usize) else {
            self.line_out("#error a call of a function the kernel does not have");
            return;
        };
        let out_tys: Vec<String> = f
            .outputs
            .iter()
            .map(|&o| {
                f.kernel
                    .vars
                    .get(o as usize)
                    .map_or("i32".into(), |d| spell::ty(d.ty))
            })
            .collect();
        let (room, depth) = if self.in_fn {
            ("bz_room".to_string(), "bz_depth".to_string())
        } else {
            let room = match self.k.calls.room {
                Some(v) => format!("(i64)({})", self.var_read(v)),
                None => format!("{}ll", blazar_kir::calls::DEFAULT_ROOM),
            };
            (room, "0".to_string())
        };
        self.line_out("{");
        self.o.depth += 1;
        let left = self.budget_ref();
        let mut list = vec![
            "bz_e".to_string(),
            room.clone(),
            format!("{depth} + 1"),
            left.clone(),
            if self.in_fn { "bz_sig" } else { "bz_c->sig" }.to_string(),
        ];
        for a in args {
            let x = self.operand(a);
            let t = self.tmp();
            self.line_out(&format!("const {} {t} = {x};", spell::ty(a.ty)));
            list.push(t);
        }
        let mut results = Vec::new();
        for t in &out_tys {
            let r = self.tmp();
            self.line_out(&format!("{t} {r} = {{}};"));
            list.push(format!("&{r}"));
            results.push(r);
        }
        self.line_out(&format!(
            "if ({depth} >= {room}) {{ bz_e.code = {}; bz_e.line = {line}; goto bz_abort; }}",
            code::CALL_DEPTH
        ));
        self.spend_unit(&left, line);
        self.line_out(&format!(
            "if (!bz_fn{func}({})) goto bz_abort;",
            list.join(", ")
        ));
        for (o, r) in outs.iter().zip(&results) {
            let name = self.var_target(*o);
            self.line_out(&format!("{name} = {r};"));
        }
        self.o.depth -= 1;
        self.line_out("}");
    }

    /// The budget a call passes on: the function's own, the kernel's variable
    /// (`Calls::budget`), or an unbounded one declared here.
    fn budget_ref(&mut self) -> String {
        if self.in_fn {
            return "bz_left".into();
        }
        match self.budget_var() {
            Some(v) => self.var_target(v),
            None => {
                let t = self.tmp();
                self.line_out(&format!("i64 {t} = 0x7fffffffffffffffll;"));
                t
            }
        }
    }

    /// `left -= 1`, failing with [`code::BUDGET`] at `line` when it goes negative, and
    /// every 65536 units a poll of the interrupt flag.
    fn spend_unit(&mut self, left: &str, line: u32) {
        self.line_out(&format!(
            "if (--{left} < 0) {{ bz_e.code = {}; bz_e.line = {line}; goto bz_abort; }}",
            code::BUDGET
        ));
        let sig = if self.in_fn { "bz_sig" } else { "bz_c->sig" };
        self.poll(left, sig, line);
    }

    /// When `left` is a multiple of 65536, a poll of the interrupt flag `sig`: a
    /// signal fails the kernel with [`code::INTERRUPTED`] at `line`.
    fn poll(&mut self, left: &str, sig: &str, line: u32) {
        self.line_out(&format!(
            "if (({left} & 0xffff) == 0 && bz_signal({sig})) {{ bz_e.code = {}; \
             bz_e.a = bz_signal({sig}); bz_e.line = {line}; goto bz_abort; }}",
            code::INTERRUPTED
        ));
    }

    /// The start of an iteration of loop `s` (not a one-trip loop, which inlined calls
    /// and function bodies are): inside a function of the table one unit of the budget
    /// and the poll; in an outlined host function's entry (whose loops spend its budget
    /// variable themselves) the poll.
    pub(crate) fn spend_iteration(&mut self, s: &Stmt) {
        if super::support::once_body(s).is_some() {
            return;
        }
        if self.in_fn {
            self.spend_unit("bz_left", s.line);
        } else if let Some(v) = self.budget_var() {
            let left = self.var_read(v);
            self.poll(&left, "bz_c->sig", s.line);
        }
    }

    /// The kernel's budget variable (`Calls::budget`) when it is an `i64`.
    fn budget_var(&self) -> Option<VarId> {
        let k = self.k;
        let v = k.calls.budget?;
        (k.vars.get(v as usize).map(|d| d.ty) == Some(Ty::Scalar(Scalar::I64))).then_some(v)
    }
}
