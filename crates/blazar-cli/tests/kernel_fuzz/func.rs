//! Random host functions of ints for the fuzzer (`gen.rs` puts them at the head of
//! each program): one with a loop, `break`, `continue`, an early `return`, a bounded
//! `while` and int32 arithmetic that wraps, which the compiled host tier runs whole
//! under `--host-tier compiled`; and a recursive one, `rf`: a plain recursion, or one
//! with such statements and loops around its call of itself, or a mutual recursion
//! through `rg`, whose loop makes the calls. The C++ tier compiles the recursive ones
//! (real calls, `blazar_kir::calls`; the `HostNative` tier), the others leave them to
//! the interpreter. All are called from interpreted code, and every tier must print
//! the same.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

struct F {
    rng: SmallRng,
    /// Int variables readable here.
    vars: Vec<&'static str>,
}

impl F {
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.rng.random_range(0..xs.len())]
    }

    /// An int expression (int32, wrapping) of the variables in scope.
    fn expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.random_bool(0.3) {
            return match self.rng.random_range(0..4) {
                0 => self
                    .pick(&["0", "1", "3", "-7", "100", "65536", "2147483000"])
                    .to_string(),
                _ => {
                    let vars = self.vars.clone();
                    self.pick(&vars).to_string()
                }
            };
        }
        let (a, b) = (self.expr(depth - 1), self.expr(depth - 1));
        match self.rng.random_range(0..5) {
            0 => format!("({a} + {b})"),
            1 => format!("({a} - {b})"),
            2 => format!("({a} * {b})"),
            3 => format!("mod({a}, {})", self.pick(&["2", "3", "7", "-5"])),
            _ => format!("({a} + {b} * 3)"),
        }
    }

    fn cond(&mut self) -> String {
        let (a, b) = (self.expr(1), self.expr(1));
        match self.rng.random_range(0..3) {
            0 => format!("{a} < {b}"),
            1 => format!("mod({a}, 3) == 0"),
            _ => format!("{a} != {b}"),
        }
    }

    /// Statements of `sf`'s body at indent `ind`; `looped`: inside its loop.
    fn stmts(&mut self, out: &mut String, ind: usize, looped: bool, nest: u32) {
        let pad = "    ".repeat(ind);
        for _ in 0..self.rng.random_range(1..=3) {
            match self.rng.random_range(0..6) {
                0 | 1 => {
                    let e = self.expr(2);
                    out.push_str(&format!("{pad}r = {e}\n"));
                }
                2 if nest > 0 => {
                    let c = self.cond();
                    out.push_str(&format!("{pad}if {c}\n"));
                    self.stmts(out, ind + 1, looped, nest - 1);
                    out.push_str(&format!("{pad}end\n"));
                }
                3 if looped => {
                    let c = self.cond();
                    let jump = self.pick(&["break", "continue"]);
                    out.push_str(&format!("{pad}if {c}\n{pad}    {jump}\n{pad}end\n"));
                }
                4 => {
                    let c = self.cond();
                    out.push_str(&format!("{pad}if {c}\n{pad}    return\n{pad}end\n"));
                }
                5 if nest > 0 && !self.vars.contains(&"w") => {
                    out.push_str(&format!("{pad}w = 0\n{pad}while w < mod(r, 4) + 1\n"));
                    out.push_str(&format!("{pad}    w += 1\n"));
                    self.vars.push("w");
                    self.stmts(out, ind + 1, true, nest - 1);
                    self.vars.pop();
                    out.push_str(&format!("{pad}end\n"));
                }
                _ => {
                    let e = self.expr(1);
                    out.push_str(&format!("{pad}r = r + {e}\n"));
                }
            }
        }
    }
}

/// The functions and the calls that print their results, for program `seed`.
pub fn functions(seed: u64) -> String {
    let mut f = F {
        rng: SmallRng::seed_from_u64(seed ^ 0x5eed_f00d_cafe),
        vars: vec!["x", "y", "r"],
    };
    let mut body = String::new();
    f.stmts(&mut body, 1, false, 2);
    let trips = f.rng.random_range(0..6);
    body.push_str(&format!("    for k = 0..{trips}\n"));
    f.vars.push("k");
    f.stmts(&mut body, 2, true, 2);
    f.vars.pop();
    body.push_str("    end\n");
    f.stmts(&mut body, 1, false, 1);
    f.vars = vec!["n", "x"];
    let (e1, e2) = (f.expr(2), f.expr(2));
    let mut src = format!("function r = sf(x : int, y : int)\n    r = x\n{body}end\n");
    match f.rng.random_range(0..3) {
        0 => src.push_str(&format!(
            "function r = rf(n : int, x : int)\n    if n <= 0\n        r = x\n    else\n        \
             r = rf(n - 1, {e1}) + {e2}\n    end\nend\n"
        )),
        1 => {
            // Statements (loops, early returns) around the call of itself.
            f.vars = vec!["n", "x", "r"];
            let (mut pre, mut post) = (String::new(), String::new());
            f.stmts(&mut pre, 1, false, 2);
            f.stmts(&mut post, 1, false, 2);
            let e1 = f.expr(2);
            src.push_str(&format!(
                "function r = rf(n : int, x : int)\n    r = x\n    if n <= 0\n        return\n    \
                 end\n{pre}    r = r + rf(n - 1, {e1})\n{post}end\n"
            ));
        }
        _ => {
            // Mutual recursion through a function whose loop makes the calls.
            f.vars = vec!["n", "x", "r"];
            let trips = f.rng.random_range(0..2);
            let mut body = String::new();
            f.vars.push("k");
            f.stmts(&mut body, 2, true, 1);
            let e3 = f.expr(2);
            f.vars.pop();
            src.push_str(&format!(
                "function r = rf(n : int, x : int)\n    if n <= 0\n        r = x\n    else\n        \
                 r = rg(n - 1, {e1}) + {e2}\n    end\nend\n\
                 function r = rg(n : int, x : int)\n    r = x\n    for k = 0..{trips}\n{body}        \
                 r = r + rf(n, {e3})\n    end\nend\n"
            ));
        }
    }
    let mut calls = Vec::new();
    for _ in 0..3 {
        let a = f.pick(&["0", "1", "-3", "17", "1000", "2147483000", "-2147483000"]);
        let b = f.pick(&["0", "2", "-1", "99", "123456"]);
        calls.push(format!("sf({a}, {b})"));
    }
    let depth = f.rng.random_range(0..7);
    calls.push(format!("rf({depth}, {})", f.rng.random_range(-5..50)));
    src.push_str(&format!(
        "print \"== functions\"\nprint {}\n",
        calls.join(", \" \", ")
    ));
    src
}
