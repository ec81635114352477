//! Random well-typed kernels, with the same body as a host function.
//!
//! A program has one kernel `k` and one host function `h` with the same parameters
//! and body: input arrays of every kind (int32, scalar, complex, uint8, int64), each
//! read in a random boundary mode (unchecked reads only at `pos`), and one output
//! array per kind that thread `pos` alone writes at `pos`. The body mixes stores,
//! local accumulations in loops with thread-dependent bounds, `if` and bounded
//! `while`, over expressions typed by construction: int arithmetic that wraps, shifts
//! by any count, booleans in arithmetic, conversions, exact real functions (no
//! transcendental ones: those agree only to their library's error), complex
//! arithmetic and comparisons. The program launches `k`, prints the outputs, runs
//! `h` for every position and prints them again.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    Unchecked,
    Safe,
    Circular,
    Mirror,
    Clamped,
    Checked,
}

impl Mode {
    fn suffix(self) -> &'static str {
        match self {
            Mode::Unchecked => "",
            Mode::Safe => "'safe",
            Mode::Circular => "'circular",
            Mode::Mirror => "'mirror",
            Mode::Clamped => "'clamped",
            Mode::Checked => "'checked",
        }
    }
}

/// The value kinds of expressions.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum K {
    I,
    F,
    C,
    U,
    L,
    B,
}

pub(crate) const INPUTS: [(&str, &str, K); 5] = [
    ("ai", "vec[int]", K::I),
    ("af", "vec", K::F),
    ("ac", "cvec", K::C),
    ("au", "vec[uint8]", K::U),
    ("al", "vec[int64]", K::L),
];

const OUTPUTS: [(&str, &str, K); 5] = [
    ("yi", "vec[int]", K::I),
    ("yf", "vec", K::F),
    ("yc", "cvec", K::C),
    ("yu", "vec[uint8]", K::U),
    ("yl", "vec[int64]", K::L),
];

pub(crate) struct Gen {
    pub(crate) rng: SmallRng,
    pub(crate) modes: [Mode; 5],
    /// Loop variables in scope (int32).
    pub(crate) vars: Vec<String>,
    fresh: u32,
    /// Whether complex `*`, `/` or `abs` appear: kernels compute them in f32 with
    /// num-complex's formulas, the host in f64 rounded once, so they agree only to
    /// f32 rounding.
    pub(crate) inexact: bool,
}

/// A generated program.
pub struct Program {
    pub src: String,
    /// See `Gen::inexact`.
    pub inexact: bool,
}

/// Program number `seed`.
pub fn program(seed: u64) -> Program {
    let mut g = Gen {
        rng: SmallRng::seed_from_u64(seed),
        modes: [Mode::Unchecked; 5],
        vars: Vec::new(),
        fresh: 0,
        inexact: false,
    };
    for slot in 0..g.modes.len() {
        g.modes[slot] = *g.pick(&[
            Mode::Unchecked,
            Mode::Unchecked,
            Mode::Safe,
            Mode::Circular,
            Mode::Mirror,
            Mode::Clamped,
            Mode::Checked,
        ]);
    }
    let n = g.rng.random_range(1..=24usize);
    let mut body = String::new();
    let stmts = g.rng.random_range(1..=4);
    for _ in 0..stmts {
        g.stmt(&mut body, 1, 2);
    }
    let params: Vec<String> = INPUTS
        .iter()
        .zip(g.modes)
        .map(|((name, ty, _), m)| format!("{name} : {ty}{}", m.suffix()))
        .chain(OUTPUTS.iter().map(|(name, ty, _)| format!("{name} : {ty}")))
        .collect();
    let params = params.join(", ");
    let mut src = format!(
        "function [] = __kernel__ k({params}, pos : int)\n{body}end\n\
         function [] = h({params}, pos : int)\n{body}end\n"
    );
    src.push_str(&format!("n = {n}\n"));
    src.push_str(&g.inputs(n));
    let args = "ai, af, ac, au, al, yi, yf, yc, yu, yl";
    src.push_str(&zeros());
    src.push_str(&format!(
        "parallel_do(n, {args}, k)\nprint \"== kernel\"\n{}",
        prints()
    ));
    src.push_str(&zeros());
    src.push_str(&format!(
        "for p = 0..n - 1\n    h({args}, p)\nend\nprint \"== host\"\n{}",
        prints()
    ));
    Program {
        src,
        inexact: g.inexact,
    }
}

fn zeros() -> String {
    "yi = int(zeros(n))\nyf = zeros(n)\nyc = zeros(n) + 0i\nyu = uint8(zeros(n))\nyl = int64(zeros(n))\n"
        .into()
}

fn prints() -> String {
    "print yi\nprint yf\nprint yc\nprint yu\nprint yl\n".into()
}

impl Gen {
    pub(crate) fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.rng.random_range(0..xs.len())]
    }

    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    /// The inputs' values: small numbers, with extremes set element by element.
    fn inputs(&mut self, n: usize) -> String {
        let mut s = String::new();
        let ints: Vec<String> = (0..n)
            .map(|_| {
                self.pick(&[
                    "0", "1", "-1", "2", "3", "7", "-8", "31", "32", "33", "100", "-100", "65535",
                ])
                .to_string()
            })
            .collect();
        s.push_str(&format!("ai = int([{}])\n", ints.join(", ")));
        let reals: Vec<String> = (0..n)
            .map(|_| {
                self.pick(&[
                    "0", "1", "-1", "0.5", "-2.25", "3", "1e10", "-0.001", "100.75", "2.5", "-3.5",
                ])
                .to_string()
            })
            .collect();
        s.push_str(&format!("af = [{}]\n", reals.join(", ")));
        let cs: Vec<String> = (0..n)
            .map(|_| {
                self.pick(&[
                    "0",
                    "1i",
                    "1 + 1i",
                    "-2 - 0.5i",
                    "3",
                    "0.5 - 0.25i",
                    "-1i",
                    "2 + 3i",
                ])
                .to_string()
            })
            .collect();
        s.push_str(&format!("ac = [{}] + 0i\n", cs.join(", ")));
        let us: Vec<String> = (0..n)
            .map(|_| {
                self.pick(&["0", "1", "7", "128", "200", "255", "16"])
                    .to_string()
            })
            .collect();
        s.push_str(&format!("au = uint8([{}])\n", us.join(", ")));
        let ls: Vec<String> = (0..n)
            .map(|_| {
                self.pick(&["0", "1", "-1", "40", "63", "64", "-5", "1000"])
                    .to_string()
            })
            .collect();
        s.push_str(&format!("al = int64([{}])\n", ls.join(", ")));
        for _ in 0..self.rng.random_range(0..3) {
            let k = self.rng.random_range(0..n);
            let v = self.pick(&[
                "ai[K] = 2147483647",
                "ai[K] = -2147483647 - 1",
                "af[K] = 0 / 0",
                "af[K] = 1 / 0",
                "af[K] = -1 / 0",
                "al[K] = int64(2147483647) * int64(4294967298)",
                "ac[K] = (0 / 0) + 1i",
            ]);
            s.push_str(&v.replace('K', &k.to_string()));
            s.push('\n');
        }
        s
    }

    /// A statement (and its nested ones, up to `nest` levels) at indent `ind`.
    fn stmt(&mut self, out: &mut String, ind: usize, nest: u32) {
        let pad = "    ".repeat(ind);
        let choice = if nest == 0 {
            0
        } else {
            self.rng.random_range(0..7)
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
