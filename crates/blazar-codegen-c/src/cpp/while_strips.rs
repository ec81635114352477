//! Strips of lanes around a `while` loop: a kernel `pre; while cond (body); post`
//! (Mandelbrot's escape loop) runs its loop for the [`LANES`] consecutive threads of a strip at once,
//! each lane with a flag that says it is still looping, so that the C++ compiler
//! vectorises the iterations across threads with masks instead of running one thread's
//! loop after the other.
//!
//! The conditions are those of a strip around a counted loop (`strips.rs`): `pre` and
//! the loop body only assign variables, every load in them and in `cond` is proven in
//! range and reads an array that the kernel never writes, and `cond` records no
//! `'checked` error. Then each lane's iterations touch only its own variables and
//! memory that does not change during the launch. A lane runs its body exactly when its
//! flag is set and `cond` holds, as its own thread would (`cond` is evaluated only
//! while the flag is set, and the body only after `cond` held). `post` (stores, outputs, errors) then runs lane by lane
//! in thread order, so the result is the executor's.
//!
//! Rounds stop once at most [`TAIL`] lanes still loop; those finish their loops one after
//! the other (a strip with one long loop among short ones costs about what it costs
//! without strips: one thread of 64 looping 20,001 times, the others once, 2.1 ms for 64
//! strips as without strips, 12-28 ms with rounds to the end; Mandelbrot is the same
//! with 0, 4, 8 or 16: 28-34 ms on one thread of the VM).
//!
//! Lanes whose loops end early idle until the last of the rounds. The rounds run over
//! the whole strip rather than smaller groups of it: Mandelbrot on one thread of the
//! 2-core VM (AVX-512, GCC 12) ran in 64-73 ms with rounds over 64 lanes, 90-98 over 32,
//! 119-187 over 16 and 200-300 over 8, against 167-350 ms without strips (the Xeon, 16
//! threads: 4.1-4.4 ms over 64, 3.7 over 32, 4.5 over 16, 15.8-17.0 without; C 12.8-13.5):
//! a round is chains of dependent operations, and more lanes give the core more
//! independent ones at once.

use super::strips::{Strip, LANES};
use super::Gen;
use crate::printer::Dialect;
use crate::spell;
use blazar_kir::{Expr, Scalar, Stmt, StmtKind, Ty};

/// Lanes still looping at which a strip's rounds stop and those lanes finish one after
/// the other.
pub(crate) const TAIL: usize = 8;

impl<'k> Gen<'k> {
    /// The strip plan of `pre; while cond (body); post` with the loop at `body[i]`.
    pub(crate) fn while_plan(&self, i: usize) -> Option<Strip<'k>> {
        let body: &'k [Stmt] = &self.k.body;
        let lp = &body[i];
        let StmtKind::While { cond, body: lb } = &lp.kind else {
            return None;
        };
        self.loop_strip(i, lb, |writes, reads| {
            !self.has_checked(cond) && self.pure_loads(cond, writes, reads)
        })
    }

    /// The code of one strip around the `while` loop `cond`, `body` (into `self.o`).
    pub(crate) fn while_code(&mut self, st: &Strip<'k>, cond: &Expr, body: &[Stmt]) {
        self.strip_bounds();
        for (i, v) in self.k.vars.iter().enumerate() {
            let name = self.var_base(i as u32);
            self.line_out(&format!("{} {name}_l[{LANES}];", spell::ty(v.ty)));
        }
        self.lane_phase(st.pre, true, None, true);
        let loop_body: Vec<&Stmt> = body.iter().collect();
        let assigned = super::fission::assigned_in(&loop_body, self.k.vars.len());
        // Complex variables are split into real and imaginary lanes for the rounds (GCC
        // vectorises lanes of pairs with shuffles, or not at all).
        let split: Vec<Option<&str>> = self
            .k
            .vars
            .iter()
            .map(|v| match v.ty {
                Ty::Scalar(Scalar::C32) => Some("f32"),
                Ty::Scalar(Scalar::C64) => Some("f64"),
                _ => None,
            })
            .collect();
        for (i, part) in split.iter().enumerate() {
            if let Some(t) = part {
                let name = self.var_base(i as u32);
                self.line_out(&format!(
                    "{t} {name}_re[{LANES}], {name}_im[{LANES}]; for (int bz_l = 0; bz_l < {LANES}; bz_l++) {{ {name}_re[bz_l] = {name}_l[bz_l].re; {name}_im[bz_l] = {name}_l[bz_l].im; }}"
                ));
            }
        }
        let (act, any) = (self.tmp(), self.tmp());
        self.line_out(&format!(
            "u32 {act}[{LANES}]; for (int bz_l = 0; bz_l < {LANES}; bz_l++) {act}[bz_l] = 1;"
        ));
        self.line_out(&format!("for (;;) {{"));
        self.o.depth += 1;
        self.line_out(&format!("u32 {any} = 0;"));
        self.line_out(&format!("for (int bz_l = 0; bz_l < {LANES}; bz_l++) {{"));
        self.o.depth += 1;
        self.lane_round(&split, &assigned, &act, Some(&any), cond, body);
        self.o.depth -= 1;
        self.line_out("}");
        self.line_out(&format!("if ({any} <= {TAIL}) break;"));
        self.o.depth -= 1;
        self.line_out("}");
        // The few lanes still looping finish one after the other.
        self.line_out(&format!(
            "for (int bz_l = 0; bz_l < {LANES}; bz_l++) if ({act}[bz_l]) {{"
        ));
        self.o.depth += 1;
        self.lane_round(&split, &assigned, &act, None, cond, body);
        self.o.depth -= 1;
        self.line_out("}");
        for (i, part) in split.iter().enumerate() {
            if part.is_some() && assigned[i] {
                let (name, t) = (self.var_base(i as u32), spell::ty(self.k.vars[i].ty));
                self.line_out(&format!(
                    "for (int bz_l = 0; bz_l < {LANES}; bz_l++) {name}_l[bz_l] = {t}{{{name}_re[bz_l], {name}_im[bz_l]}};"
                ));
            }
        }
        self.lane_phase(st.post, false, None, false);
    }

    /// Lane `bz_l` of a round: its variables from the lanes, then (`any`: a round) the
    /// condition and the body once when its flag is set, or (`None`: the finish) the
    /// whole loop; the assigned variables back into the lanes.
    fn lane_round(
        &mut self,
        split: &[Option<&str>],
        assigned: &[bool],
        act: &str,
        any: Option<&str>,
        cond: &Expr,
        body: &[Stmt],
    ) {
        self.lane_pos();
        for (i, v) in self.k.vars.iter().enumerate() {
            let (name, t) = (self.var_base(i as u32), spell::ty(v.ty));
            self.line_out(&match split[i] {
                Some(_) => format!("{t} {name} = {t}{{{name}_re[bz_l], {name}_im[bz_l]}};"),
                None => format!("{t} {name} = {name}_l[bz_l];"),
            });
        }
        let c = self.expr(cond);
        if any.is_some() {
            self.line_out(&format!("const bool bz_go = {act}[bz_l] && ({c});"));
            self.line_out("if (bz_go) {");
        } else {
            self.line_out(&format!("while ({c}) {{"));
        }
        self.o.depth += 1;
        self.next_tmp += 1;
        self.next = format!("bz_nextw{}", self.next_tmp);
        self.block(body);
        let label = self.next.clone();
        self.line_out(&format!("{label}:;"));
        self.o.depth -= 1;
        self.line_out("}");
        for (i, &a) in assigned.iter().enumerate() {
            if a {
                let name = self.var_base(i as u32);
                self.line_out(&match split[i] {
                    Some(_) => format!("{name}_re[bz_l] = {name}.re; {name}_im[bz_l] = {name}.im;"),
                    None => format!("{name}_l[bz_l] = {name};"),
                });
            }
        }
        if let Some(any) = any {
            self.line_out(&format!("{act}[bz_l] = bz_go; {any} += (u32)bz_go;"));
        }
    }
}
