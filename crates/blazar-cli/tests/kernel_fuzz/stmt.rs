//! Statements of the random kernels (`gen.rs`): stores, accumulations in loops,
//! `if`, bounded `while`, typed locals, accumulations into kernel outputs and loops
//! whose variable is read after them.

use crate::gen::{int_name, Gen, Mode, INTS, K, OUTPUTS};
use rand::Rng;

impl Gen {
    /// A statement (and its nested ones, up to `nest` levels) at indent `ind`.
    pub(crate) fn stmt(&mut self, out: &mut String, ind: usize, nest: u32) {
        let pad = "    ".repeat(ind);
        let choice = if nest == 0 {
            *self.pick(&[0, 7, 8])
        } else {
            self.rng.random_range(0..10)
        };
        match choice {
            0..=2 => {
                let (name, _, k) = *self.pick(&OUTPUTS);
                let e = self.expr(k, 3);
                out.push_str(&format!("{pad}{name}[pos] = {e}\n"));
            }
            3 => {
                // An accumulation over a loop with thread-dependent bounds.
                let (s, i) = (self.fresh("s"), self.fresh("i"));
                let float = self.chance(0.4);
                self.reassoc |= float;
                out.push_str(&format!("{pad}{s} = {}\n", if float { "0.5" } else { "0" }));
                let bounds = self
                    .pick(&[
                        "0..mod(pos, 4)",
                        "pos..-1..0",
                        "pos..pos + 2",
                        "1..pos",
                        "0..pos - 3",
                        "mod(pos, 3)..2..7",
                        "0..mod(ai[0], 5)",
                    ])
                    .to_string();
                let bounds = if self.modes[0] == Mode::Unchecked && bounds.contains("ai[0]") {
                    "0..mod(pos, 4)".to_string()
                } else if bounds.contains("ai[0]") {
                    "0..mod(ai[pos], 5)".to_string()
                } else {
                    bounds
                };
                out.push_str(&format!("{pad}for {i} = {bounds}\n"));
                self.vars.push(i.clone());
                let e = self.expr(if float { K::F } else { K::I }, 2);
                out.push_str(&format!("{pad}    {s} = {s} + {e}\n"));
                if self.chance(0.3) {
                    self.stmt(out, ind + 1, nest - 1);
                }
                self.vars.pop();
                out.push_str(&format!("{pad}end\n"));
                let target = if float { "yf" } else { "yi" };
                out.push_str(&format!("{pad}{target}[pos] = {target}[pos] + {s}\n"));
            }
            4 | 5 => {
                let c = self.expr(K::B, 2);
                out.push_str(&format!("{pad}if {c}\n"));
                self.stmt(out, ind + 1, nest - 1);
                if self.chance(0.5) {
                    out.push_str(&format!("{pad}else\n"));
                    self.stmt(out, ind + 1, nest - 1);
                }
                out.push_str(&format!("{pad}end\n"));
            }
            7 => {
                // A typed local, updated, then stored (or left for later expressions).
                let t = self.fresh("t");
                let k = self.pick(&INTS).0;
                let from = self.pick(&INTS).0;
                let e = self.expr(from, 2);
                out.push_str(&format!("{pad}{t} : {} = {e}\n", int_name(k)));
                if self.chance(0.5) {
                    let from = self.pick(&INTS).0;
                    let e = self.expr(from, 1);
                    let op = *self.pick(&["+=", "-=", "*="]);
                    out.push_str(&format!("{pad}{t} {op} {e}\n"));
                }
                let target = OUTPUTS.iter().find(|(_, _, kk)| *kk == k);
                if let (Some((name, _, _)), true) = (target, self.chance(0.7)) {
                    out.push_str(&format!("{pad}{name}[pos] = {t}\n"));
                }
                if ind == 1 {
                    // Only top-level ones stay in scope for later statements.
                    self.typed.push((t, k));
                }
            }
            8 => {
                if self.outputs.is_empty() {
                    let e = self.expr(K::I, 2);
                    out.push_str(&format!("{pad}yi[pos] = {e}\n"));
                } else {
                    // An accumulation into a kernel output (of an int value: the
                    // host converts once at the end, the kernel at each update, which
                    // agree only modulo the type for ints).
                    let i = self.rng.random_range(0..self.outputs.len());
                    let o = self.outputs[i].0.clone();
                    let from = self.pick(&INTS).0;
                    let e = self.expr(from, 2);
                    let op = *self.pick(&["+=", "-="]);
                    out.push_str(&format!("{pad}{o} {op} {e}\n"));
                }
            }
            9 if nest > 0 => {
                // A loop whose variable is read after it: the last value it took
                // (or the one before, when it runs no iteration or breaks).
                let j = self.fresh("j");
                let bounds = self
                    .pick(&[
                        "0..mod(pos, 4)",
                        "pos..-1..0",
                        "3..2",
                        "1..2..pos",
                        "0..pos - 3",
                    ])
                    .to_string();
                out.push_str(&format!("{pad}{j} = 7\n{pad}for {j} = {bounds}\n"));
                self.vars.push(j.clone());
                if self.chance(0.4) {
                    let c = self.expr(K::B, 1);
                    out.push_str(&format!(
                        "{pad}    if {c}\n{pad}        break\n{pad}    end\n"
                    ));
                }
                if self.chance(0.5) {
                    self.stmt(out, ind + 1, nest - 1);
                }
                self.vars.pop();
                out.push_str(&format!("{pad}end\n{pad}yi[pos] = yi[pos] + {j}\n"));
            }
            _ => {
                // A bounded `while`.
                let w = self.fresh("w");
                out.push_str(&format!("{pad}{w} = 0\n{pad}while {w} < mod(pos, 3) + 1\n"));
                out.push_str(&format!("{pad}    {w} = {w} + 1\n"));
                self.vars.push(w.clone());
                self.stmt(out, ind + 1, nest - 1);
                self.vars.pop();
                out.push_str(&format!("{pad}end\n"));
            }
        }
    }
}
