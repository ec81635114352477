//! Property tests: `check` (parse + resolve) and `run` never panic on random text or on
//! mutations of valid programs, and always return located diagnostics.

use blazar_interp::{check, run, Options};
use blazar_runtime::builtins::Ctx;
use proptest::prelude::*;

const CORPUS: &[&str] = &[
    "x = 1\ny = x + 2\nprint y\n",
    "function [a, b] = f(x : int, y = 2)\n  a = x + y\n  b = x * y\nend\n[p, q] = f(3)\nprint p, q\n",
    "A = [[1, 2], [3, 4]]\nB = A * A\nprint B[0, 1], size(B)\n",
    "for i = 0..2..10\n  if mod(i, 4) == 0\n    continue\n  end\n  print i\nend\n",
    "outer:\nfor i = 0..3\n  for j = 0..3\n    if i * j == 4\n      break outer\n    end\n  end\nend\nprint i, j\n",
    "s = 0\nk = 0\nwhile k < 5\n  s += k\n  k += 1\nend\nrepeat\n  k -= 1\nuntil k <= 0\nprint s\n",
    "f = (x, y) -> x * y + 1\ng = x -> f(x, x)\nprint g(3)\n",
    "c = `1, [1, 2], \"s\"'\nprint type(c), c[1][0]\n",
    "match \"b\" with\n| \"a\" -> print 1\n| \"b\" -> print 2\n| _ -> print 3\nend\n",
    "v : vec'circular = [1, 2, 3]\nprint v[-1], v[3]\n",
    "o = object()\no.a = 3\no.b = [1, 2]\nprint o.a + o.b[1]\n",
    "type p : class\n  x : int\n  y : scalar\nend\nq = p(1, 2.5)\nprint q.x + q.y\n",
    "x = linspace(0, 1, 5)\ny = x[x > 0.5]\nx[x < 0.3] = 0\nprint y, x\n",
    "z = 3 + 4j\nprint abs(z), real(z * conj(z))\n",
    "function y = fact(n)\n  y = n <= 1 ? 1 : n * fact(n - 1)\nend\nprint fact(6)\n",
];

fn run_quietly(src: &str) {
    let loaded = check("prop.q", src, None);
    for d in &loaded.diagnostics {
        assert!(
            d.span.is_some(),
            "diagnostic without a location: {}",
            d.message
        );
    }
    if loaded.has_errors() {
        return;
    }
    let ctx = Ctx::new(
        blazar_runtime::Prec::Single,
        Box::new(std::io::sink()),
        std::env::temp_dir().join("blazar-prop-nonexistent"),
        "prop".into(),
    );
    let _ = run(
        &loaded,
        ctx,
        Options {
            max_depth: 100,
            max_steps: 20_000,
            backend: Some(cpu()),
            ..Options::default()
        },
    );
}

#[test]
fn corpus_runs_cleanly() {
    for src in CORPUS {
        let loaded = check("corpus.q", src, None);
        assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
        let ctx = Ctx::new(
            blazar_runtime::Prec::Single,
            Box::new(std::io::sink()),
            ".".into(),
            "c".into(),
        );
        let opts = Options {
            backend: Some(cpu()),
            ..Options::default()
        };
        if let Err(d) = run(&loaded, ctx, opts) {
            panic!("{src}\n{}", d.message);
        }
    }
}

fn mutation() -> impl Strategy<Value = (usize, usize, usize, u8, u8)> {
    (
        0..CORPUS.len(),
        any::<usize>(),
        any::<usize>(),
        0u8..4,
        any::<u8>(),
    )
}

const PIECES: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "`",
    "'",
    "\"",
    "..",
    "->",
    "=",
    "+=",
    ":",
    ",",
    ";",
    "\n",
    "end",
    "for",
    "if",
    "function",
    "_",
    "%",
    "!",
    "#pragma ",
    "x",
    "0",
    "1e999",
    "-",
    "^",
    "?",
    "__kernel__",
    "break",
    "i",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(s in "\\PC{0,200}") {
        run_quietly(&s);
    }

    #[test]
    fn mutated_programs_never_panic((prog, a, b, kind, piece) in mutation()) {
        let src = CORPUS[prog];
        let chars: Vec<char> = src.chars().collect();
        let i = a % (chars.len() + 1);
        let j = (i + b % 12).min(chars.len());
        let mut out: String;
        match kind {
            0 => { out = chars[..i].iter().chain(&chars[j..]).collect(); }
            1 => { out = chars[..i].iter().collect(); out.push_str(PIECES[piece as usize % PIECES.len()]); out.extend(&chars[i..]); }
            2 => { out = chars[..j].iter().collect(); out.extend(&chars[i..]); }
            _ => { out = chars[..i].iter().collect(); out.extend(&chars[j..]); out.extend(&chars[i..j]); }
        }
        run_quietly(&out);
    }
}

/// Loops with empty bodies still spend the step budget, so they end with an error
/// instead of spinning (a mutation found this: `repeat` / `until k <= 0` with k = 5).
#[test]
fn empty_loop_bodies_spend_the_step_budget() {
    for src in [
        "k = 5\nrepeat\nuntil k <= 0\n",
        "while true\nend\n",
        "for i = 0..100000000\nend\n",
    ] {
        let loaded = check("empty.q", src, None);
        assert!(!loaded.has_errors(), "{src}");
        let ctx = Ctx::new(
            blazar_runtime::Prec::Single,
            Box::new(std::io::sink()),
            ".".into(),
            "e".into(),
        );
        let opts = Options {
            max_steps: 1000,
            backend: Some(cpu()),
            ..Options::default()
        };
        let err = run(&loaded, ctx, opts).expect_err(src);
        assert!(err.span.is_some(), "{src}: {}", err.message);
    }
}

/// A kernel launch spends one step per position, so the budget bounds kernel work too.
#[test]
fn launches_spend_the_step_budget() {
    let src = "y = zeros(100, 100)\nparallel_do(size(y), y, __kernel__ (y : mat, pos : ivec2) -> y[pos] = 1)\nprint sum(y)\n";
    let run_with = |steps: u64| {
        let loaded = check("launch.q", src, None);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let ctx = Ctx::new(
            blazar_runtime::Prec::Single,
            Box::new(std::io::sink()),
            ".".into(),
            "l".into(),
        );
        run(
            &loaded,
            ctx,
            Options {
                max_steps: steps,
                backend: Some(cpu()),
                ..Options::default()
            },
        )
    };
    assert!(run_with(20_000).is_ok());
    let err = run_with(5_000).expect_err("10000 positions exceed a budget of 5000");
    assert!(err.message.contains("step budget"), "{}", err.message);
}

/// The CPU backend on the SIMT interpreter, for the programs' kernels.
fn cpu() -> blazar_interp::BackendRef {
    blazar_interp::BackendRef::new(blazar_native::CpuBackend::default())
}
