//! Recursive host functions compiled whole (`hostfn.rs`, real calls of
//! `blazar_kir::calls` on the C++ tier): the same answers and errors as the interpreter,
//! integer wrapping and the call-depth limit included. Needs a C++ compiler (skipped
//! without one, as the native tier's own tests are).

use blazar_interp::{check, run_profiled, BackendRef, HostTier, Options};
use blazar_native::{CpuBackend, CpuTier};
mod common;

use common::{calls, Sink};

/// What `src` printed (then `ERROR: line L: message`), and the profile tables.
fn run_on(src: &str, tier: HostTier, cpu: CpuTier, max_depth: usize) -> (String, String) {
    run_with(src, tier, cpu, max_depth, 0)
}

/// [`run_on`] under a step budget (`max_steps`, 0: none).
fn run_with(
    src: &str,
    tier: HostTier,
    cpu: CpuTier,
    max_depth: usize,
    max_steps: u64,
) -> (String, String) {
    let loaded = check("t.q", src, None);
    assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let ctx = common::ctx(&sink, false);
    let opts = Options {
        max_depth,
        max_steps,
        backend: Some(BackendRef::new(CpuBackend::new(cpu, 1))),
        host_tier: tier,
        profile: true,
        ..Options::default()
    };
    let (r, tables) = run_profiled(&loaded, ctx, opts);
    let mut out = String::from_utf8(sink.0.borrow().clone()).expect("utf-8 output");
    if let Err(d) = r {
        let at = d.span.map_or(0, |s| {
            1 + src[..s.lo as usize].matches('\n').count() * 1000 + s.lo as usize
                - src[..s.lo as usize].rfind('\n').map_or(0, |i| i + 1)
        });
        out.push_str(&format!("ERROR at {at}: {}", d.message));
    }
    (out, tables.unwrap_or_default())
}

fn native() -> bool {
    if let Err(e) = blazar_native::available() {
        eprintln!("skipped: no C++ compiler for the native tier ({e})");
        return false;
    }
    true
}

const PROGRAM: &str = "\
function y = fib(n : int)
    if n < 2
        y = n
    else
        y = fib(n - 1) + fib(n - 2)
    end
end
function y = is_even(n)
    y = n == 0 ? 1 : is_odd(n - 1)
end
function y = is_odd(n)
    y = n == 0 ? 0 : is_even(n - 1)
end
function y = pow3(n : int)
    y = n == 0 ? 1 : 3 * pow3(n - 1)
end
function y = damp(x, n : int)
    if n <= 0
        y = x
        return
    end
    y = 0.5 * damp(x, n - 1) + 1
end
function y = any_zero(n : int)
    y = n == 0 || any_zero(n - 1)
end
print fib(20), \" \", is_even(10), \" \", is_even(7), \" \", pow3(25), \" \", pow3(40)
print damp(3, 10), \" \", any_zero(30)
";

#[test]
fn recursive_functions_compile_and_agree_with_the_interpreter() {
    if !native() {
        return;
    }
    let (a, _) = run_on(PROGRAM, HostTier::Interp, CpuTier::Native, 2000);
    let (b, tables) = run_on(PROGRAM, HostTier::Compiled, CpuTier::Native, 2000);
    assert_eq!(a, b, "{tables}");
    assert!(a.starts_with("6765 1 0 1180052131 689956897\n"), "{a}");
    // `damp` (a float output given at two places) and `any_zero` (a bool output) have
    // kernels the C++ tier does not take: they stay on the interpreter, same answers.
    for f in ["fib", "is_even", "pow3"] {
        let (interp, compiled) = calls(&tables, f);
        assert_eq!(interp, 0, "{f} ran on the interpreter:\n{tables}");
        assert!(compiled >= 1, "{f}:\n{tables}");
    }
}

#[test]
fn the_interpreter_runs_recursion_where_the_backend_cannot_call() {
    // The SIMT interpreter declines kernels with calls: the host interprets them.
    let (a, _) = run_on(PROGRAM, HostTier::Interp, CpuTier::Interp, 2000);
    let (b, tables) = run_on(PROGRAM, HostTier::Compiled, CpuTier::Interp, 2000);
    assert_eq!(a, b);
    let row = tables
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("fib"))
        .unwrap_or_default();
    assert!(row.contains("run only as compiled code"), "{tables}");
}

#[test]
fn runaway_recursion_stops_at_the_depth_limit_with_the_interpreters_error() {
    if !native() {
        return;
    }
    // The interpreter's deep recursion needs more than a test thread's stack (the CLI
    // runs programs on a thread with a large one too).
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(runaway)
        .expect("a thread")
        .join()
        .expect("no panic");
}

fn runaway() {
    let src = "\
function y = down(n : int)
    if n < 0
        y = 0
    else
        y = 1 + down(n + 1)
    end
end
function y = start(n)
    y = down(n)
end
print 1
print start(0)
";
    for depth in [50, 2000] {
        let (a, _) = run_on(src, HostTier::Interp, CpuTier::Native, depth);
        let (b, tables) = run_on(src, HostTier::Compiled, CpuTier::Native, depth);
        assert!(
            a.contains(&format!("too many nested calls (more than {depth})")),
            "{a}"
        );
        assert_eq!(a, b, "{tables}");
    }
    // Around the limit: the answer below it, the error past it, on both tiers alike.
    let (mut ok, mut failed) = (0, 0);
    for n in 45..=52 {
        let near = format!(
            "function y = sum_to(n : int)\n    y = n == 0 ? 0 : n + sum_to(n - 1)\nend\nprint sum_to({n})\n"
        );
        let (a, _) = run_on(&near, HostTier::Interp, CpuTier::Native, 50);
        let (b, tables) = run_on(&near, HostTier::Compiled, CpuTier::Native, 50);
        assert_eq!(a, b, "sum_to({n}):\n{tables}");
        if a.contains("ERROR") {
            failed += 1;
        } else {
            assert_eq!(a, format!("{}\n", n * (n + 1) / 2));
            // (A run that ends in an error prints no table of host functions.)
            assert_eq!(calls(&tables, "sum_to"), (0, 1), "{tables}");
            ok += 1;
        }
    }
    assert!(ok > 0 && failed > 0, "{ok} {failed}");
}

const LOOPS: &str = "\
function y = tri_sum(n : int)
    y = 0
    if n <= 0
        return
    end
    for k = 1..n
        y += k
        if y > 100000
            break
        end
    end
    y += tri_sum(n - 1)
end
function y = first_square_over(lo : int, hi : int, t : int)
    y = -1
    k = lo
    while k <= hi
        if k * k > t
            y = k
            return
        end
        k += 1
    end
    if hi < 1000
        y = first_square_over(hi + 1, 2 * hi + 1, t)
    end
end
function y = ping(n : int)
    y = n <= 0 ? 0 : 1 + pong(n - 1)
end
function y = pong(n : int)
    y = 0
    for k = 0..n - 1
        if mod(k, 3) == 2
            continue
        end
        y += k
        if y > 50
            break
        end
    end
    y += ping(n - 1)
end
function h = wrap_hash(n : int)
    h = int(n)
    for k = 1..3
        h = h * 31 + 2147483000
    end
    if n > 0
        h += wrap_hash(n - 1)
    end
end
print tri_sum(30), \" \", first_square_over(1, 3, 5000), \" \", ping(12), \" \", wrap_hash(9)
";

#[test]
fn recursive_functions_with_loops_compile_and_agree_with_the_interpreter() {
    if !native() {
        return;
    }
    let (a, _) = run_on(LOOPS, HostTier::Interp, CpuTier::Native, 2000);
    let (b, tables) = run_on(LOOPS, HostTier::Compiled, CpuTier::Native, 2000);
    assert_eq!(a, b, "{tables}");
    assert!(a.starts_with("4960 71 "), "{a}");
    for f in ["tri_sum", "first_square_over", "ping", "wrap_hash"] {
        let (interp, compiled) = calls(&tables, f);
        assert_eq!(interp, 0, "{f} ran on the interpreter:\n{tables}");
        assert!(compiled >= 1, "{f}:\n{tables}");
    }
}

#[test]
fn recursion_spends_the_step_budget_as_the_interpreter_does() {
    if !native() {
        return;
    }
    // Without loops, the calls alone spend the budget: fib(25) makes 242785 calls.
    let calls_only = "\
function y = fib(n : int)
    y = n < 2 ? n : fib(n - 1) + fib(n - 2)
end
print 1
print fib(10)
print fib(25)
";
    // With loops inside the recursion.
    let looped = "\
function y = spin(n : int)
    y = 0
    for k = 1..1000
        y += k
    end
    if n > 0
        y += spin(n - 1)
    end
end
print 2
print spin(3)
print spin(500)
";
    for (src, head) in [(calls_only, "1\n55\n"), (looped, "2\n2002000\n")] {
        for tier in [HostTier::Interp, HostTier::Compiled] {
            let (out, tables) = run_with(src, tier, CpuTier::Native, 2000, 100_000);
            // (Where: the interpreter names the statement that ran out; the compiled
            // tier the call of the function, as for its loops.)
            assert!(
                out.starts_with(head) && out.ends_with("the step budget of this run is exhausted"),
                "{tier:?}: {out}\n{tables}"
            );
        }
        // Within the budget, the recursion runs compiled.
        let small = src
            .lines()
            .filter(|l| !l.contains("(25)") && !l.contains("(500)"));
        let small: String = small.map(|l| format!("{l}\n")).collect();
        let (a, _) = run_with(&small, HostTier::Interp, CpuTier::Native, 2000, 100_000);
        let (b, tables) = run_with(&small, HostTier::Compiled, CpuTier::Native, 2000, 100_000);
        assert_eq!(a, head);
        assert_eq!(a, b, "{tables}");
        let f = if src.contains("fib") { "fib" } else { "spin" };
        assert_eq!(calls(&tables, f).0, 0, "{tables}");
    }
}
