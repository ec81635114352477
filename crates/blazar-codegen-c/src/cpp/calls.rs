//! Functions called without inlining (`blazar_kir::calls`: recursion in host code
//! compiled whole) as C++ functions beside the entry point.
//!
//! Function `f<i>` of the kernel's table becomes
//! `static bool bz_fn<i>(bz_err& bz_e, i64 bz_room, i64 bz_depth, params..., T* bz_o<j>...)`:
//! its variables are its own C++ locals, its body is printed by the same walk as the
//! kernel's (an error recorded in `bz_e` jumps to its `bz_abort`, which returns
//! `false`), and it stores its outputs through the pointers. A call checks the depth
//! first: at `bz_depth` calls deep (0 in the entry point) with `room` allowed, the call
//! records [`code::CALL_DEPTH`] at its line instead of going deeper; a callee's failure
//! aborts the caller with the callee's error.

use super::code;
use super::Gen;
use crate::spell;
use blazar_kir::{Expr, VarId};
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
            s.push_str("  (void)bz_room; (void)bz_depth;\n");
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
        use crate::printer::Dialect;
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
        let mut list = vec!["bz_e".to_string(), room.clone(), format!("{depth} + 1")];
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
}
