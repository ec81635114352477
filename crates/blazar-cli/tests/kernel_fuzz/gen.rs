//! Random well-typed kernels, with the same body as a host function.
//!
//! A program has one kernel `k` and one host function `h` with the same parameters
//! and body: input arrays of every kind (int32, scalar, complex, uint8, int64), each
//! read in a random boundary mode (unchecked reads only at `pos`), and one output
//! array per kind that thread `pos` alone writes at `pos`. The body mixes stores,
//! local accumulations in loops with thread-dependent bounds, `if` and bounded
//! `while`, over expressions typed by construction: int arithmetic that wraps, shifts
//! by any count, booleans in arithmetic, conversions, real functions (transcendental
//! ones too: the test builds native kernels as `--deterministic` does), powers, complex
//! arithmetic and comparisons. The program launches `k`, prints the outputs, runs
//! `h` for every position and prints them again, then runs the body once more inlined
//! in a host `for` loop over the positions (a loop that may become a kernel) and
//! prints them a third time. After each run it prints reductions of the int outputs,
//! of the outputs themselves and of copies repeated past the CPU's fusion threshold or
//! not, so that fused reductions meet host ones (the test runs each program with
//! fusion at its default, off and for every size).
//!
//! Beyond that (issue 32): ints of every width and sign (int8 to uint64) with
//! arithmetic that mixes them, locals declared with a type (`t : int8 = e`, then
//! `t += e`), loop variables read after their loop (with `break`, and loops that run no
//! iteration), kernels with several typed outputs (`[o1 : int8, o2 : uint32]`, which
//! the host version sums over its calls), and NaN, ±Inf and -0.0 among the real inputs.

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
    /// int32
    I,
    F,
    C,
    /// uint8
    U,
    /// int64
    L,
    B,
    I8,
    I16,
    U16,
    U32,
    U64,
}

/// The int kinds, with the names of their types (and conversions).
pub(crate) const INTS: [(K, &str); 8] = [
    (K::I8, "int8"),
    (K::I16, "int16"),
    (K::I, "int"),
    (K::L, "int64"),
    (K::U, "uint8"),
    (K::U16, "uint16"),
    (K::U32, "uint32"),
    (K::U64, "uint64"),
];

/// The type name of int kind `k`.
pub(crate) fn int_name(k: K) -> &'static str {
    INTS.iter()
        .find(|(kk, _)| *kk == k)
        .map_or("int", |(_, n)| n)
}

pub(crate) const INPUTS: [(&str, &str, K); 5] = [
    ("ai", "vec[int]", K::I),
    ("af", "vec", K::F),
    ("ac", "cvec", K::C),
    ("au", "vec[uint8]", K::U),
    ("al", "vec[int64]", K::L),
];

pub(crate) const OUTPUTS: [(&str, &str, K); 10] = [
    ("yi", "vec[int]", K::I),
    ("yf", "vec", K::F),
    ("yc", "cvec", K::C),
    ("yu", "vec[uint8]", K::U),
    ("yl", "vec[int64]", K::L),
    ("yb", "vec[int8]", K::I8),
    ("yh", "vec[int16]", K::I16),
    ("yw", "vec[uint16]", K::U16),
    ("yv", "vec[uint32]", K::U32),
    ("yq", "vec[uint64]", K::U64),
];

pub(crate) struct Gen {
    pub(crate) rng: SmallRng,
    pub(crate) modes: [Mode; 5],
    /// Loop variables in scope (int32).
    pub(crate) vars: Vec<String>,
    /// Typed locals in scope, with their kinds.
    pub(crate) typed: Vec<(String, K)>,
    /// The kernel's outputs (name, int kind), if it has any.
    pub(crate) outputs: Vec<(String, K)>,
    /// Whether operators may combine ints of different kinds (`BLAZAR_FUZZ_MIXED=0`
    /// leaves them out, to look past the promotion differences of issue 32 item 3).
    pub(crate) mixed: bool,
    fresh: u32,
    /// Whether complex `*`, `/` or `abs` appear: kernels compute them in f32 with
    /// num-complex's formulas, the host in f64 rounded once, so they agree only to
    /// f32 rounding.
    pub(crate) inexact: bool,
    /// Whether a real accumulation runs in a loop: where that loop runs as a kernel
    /// (in the host function under `--fuse-min 0`) its sum is reassociated, so results
    /// of the settings agree only to f32 rounding.
    pub(crate) reassoc: bool,
}

/// A generated program.
pub struct Program {
    pub src: String,
    /// See `Gen::inexact`.
    pub inexact: bool,
    /// See `Gen::reassoc`.
    pub reassoc: bool,
}

/// Program number `seed`.
pub fn program(seed: u64) -> Program {
    let mut g = Gen {
        rng: SmallRng::seed_from_u64(seed),
        modes: [Mode::Unchecked; 5],
        vars: Vec::new(),
        typed: Vec::new(),
        outputs: Vec::new(),
        mixed: std::env::var("BLAZAR_FUZZ_MIXED").map_or(true, |v| v != "0"),
        fresh: 0,
        inexact: false,
        reassoc: false,
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
    if g.chance(0.3) {
        for i in 1..=g.rng.random_range(1..=3) {
            let k = g.pick(&INTS).0;
            g.outputs.push((format!("o{i}"), k));
        }
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
    let outs: Vec<String> = g
        .outputs
        .iter()
        .map(|(o, k)| format!("{o} : {}", int_name(*k)))
        .collect();
    let onames: Vec<&str> = g.outputs.iter().map(|(o, _)| o.as_str()).collect();
    let onames = onames.join(", ");
    let zero_outs: String = g
        .outputs
        .iter()
        .map(|(o, _)| format!("    {o} = 0\n"))
        .collect();
    let mut src = format!(
        "function [{}] = __kernel__ k({params}, pos : int)\n{body}end\n\
         function [{}] = h({params}, pos : int)\n{zero_outs}{body}end\n",
        outs.join(", "),
        outs.join(", ")
    );
    src.push_str(&format!("n = {n}\n"));
    src.push_str(&g.inputs(n));
    // Copies of the outputs repeated past the CPU's fusion threshold (131072) or not.
    let reps = *g.pick(&[1usize, 3, 131072 / n + 1]);
    src.push_str(&format!("reps = {reps}\n"));
    let pr = g.prints();
    let args = "ai, af, ac, au, al, yi, yf, yc, yu, yl, yb, yh, yw, yv, yq";
    src.push_str(&zeros());
    let launch = format!("parallel_do(n, {args}, k)");
    if g.outputs.is_empty() {
        src.push_str(&format!("{launch}\n"));
    } else {
        src.push_str(&format!("[{onames}] = {launch}\n"));
    }
    src.push_str(&format!("print \"== kernel\"\n{}{}", pr, g.print_outputs()));
    src.push_str(&zeros());
    if g.outputs.is_empty() {
        src.push_str(&format!("for p = 0..n - 1\n    h({args}, p)\nend\n"));
    } else {
        // The host sums each call's outputs as the launch sums its threads'.
        let hs: Vec<String> = g.outputs.iter().map(|(o, _)| format!("h{o}")).collect();
        for (o, k) in &g.outputs {
            src.push_str(&format!("{o} : {} = 0\n", int_name(*k)));
        }
        src.push_str(&format!(
            "for p = 0..n - 1\n    [{}] = h({args}, p)\n",
            hs.join(", ")
        ));
        for (o, _) in &g.outputs {
            src.push_str(&format!("    {o} += h{o}\n"));
        }
        src.push_str("end\n");
    }
    src.push_str(&format!("print \"== host\"\n{}{}", pr, g.print_outputs()));
    // The body inlined in a host loop over the positions, in a function with the
    // kernel's parameters (their access modes): a loop that may run as a kernel, whose
    // outputs become the loop's accumulators.
    src.push_str(&format!(
        "function [{}] = lp({params})\n{zero_outs}for pos = 0..numel(yi) - 1\n{body}end\nend\n",
        outs.join(", ")
    ));
    src.push_str(&zeros());
    if g.outputs.is_empty() {
        src.push_str(&format!("lp({args})\n"));
    } else {
        src.push_str(&format!("[{onames}] = lp({args})\n"));
    }
    src.push_str(&format!("print \"== loop\"\n{}{}", pr, g.print_outputs()));
    // Host functions called from interpreted code, printed before the kernel's part.
    src.insert_str(0, &crate::func::functions(seed));
    Program {
        src,
        inexact: g.inexact,
        reassoc: g.reassoc,
    }
}

fn zeros() -> String {
    "yi = int(zeros(n))\nyf = zeros(n)\nyc = zeros(n) + 0i\nyu = uint8(zeros(n))\nyl = int64(zeros(n))\n\
     yb = int8(zeros(n))\nyh = int16(zeros(n))\nyw = uint16(zeros(n))\nyv = uint32(zeros(n))\n\
     yq = uint64(zeros(n))\n"
        .into()
}

impl Gen {
    /// The outputs, then reductions of some int ones, of the arrays as they are and of
    /// copies repeated `reps` times (fused past the threshold).
    fn prints(&mut self) -> String {
        let mut s: String = OUTPUTS
            .iter()
            .map(|(name, _, _)| format!("print {name}\n"))
            .collect();
        for (name, _, k) in OUTPUTS {
            if matches!(k, K::F | K::C) || !self.chance(0.3) {
                continue;
            }
            s.push_str(&format!(
                "r = repmat({name}, 1, reps)\nprint sum({name}), \" \", type(sum({name})), \" \", mean({name}), \" \", max({name}), \" \", min({name}), \" \", prod({name}), \" \", sum(r), \" \", mean(r), \" \", min(r), \" \", max(r), \" \", cumsum(r)[numel(r) - 1]\n"
            ));
        }
        s
    }

    fn print_outputs(&self) -> String {
        self.outputs
            .iter()
            .map(|(o, _)| format!("print {o}, \" \", type({o})\n"))
            .collect()
    }

    pub(crate) fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.rng.random_range(0..xs.len())]
    }

    pub(crate) fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    pub(crate) fn fresh(&mut self, prefix: &str) -> String {
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
                    "-0.0", "300", "-129.5", "70000",
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
                "af[K] = -0.0",
                "af[K] = 0 / 0",
                "al[K] = -int64(9223372036854775807) - 1",
                "al[K] = int64(2147483647) * int64(4294967298)",
                "ac[K] = (0 / 0) + 1i",
            ]);
            s.push_str(&v.replace('K', &k.to_string()));
            s.push('\n');
        }
        s
    }
}
