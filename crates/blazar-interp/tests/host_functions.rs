//! Whole host functions on the compiled host tier (`hostfn.rs`): the same answers and
//! errors as the interpreter, the step budget kept, `--profile` naming the tier of each
//! function and why one stayed on the interpreter.

use blazar_interp::{check, run_profiled, BackendRef, HostTier, Options};
use blazar_native::{CpuBackend, CpuTier};
mod common;

use common::Sink;

/// What `src` printed (then `ERROR: message`), and the profile tables.
fn run_on(src: &str, tier: HostTier, max_steps: u64) -> (String, String) {
    let loaded = check("t.q", src, None);
    assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let ctx = common::ctx(&sink, false);
    let opts = Options {
        max_depth: 100,
        max_steps,
        backend: Some(BackendRef::new(CpuBackend::new(CpuTier::Interp, 1))),
        host_tier: tier,
        profile: true,
        ..Options::default()
    };
    let (r, tables) = run_profiled(&loaded, ctx, opts);
    let mut out = String::from_utf8(sink.0.borrow().clone()).expect("utf-8 output");
    if let Err(d) = r {
        out.push_str(&format!("ERROR: {}", d.message));
    }
    (out, tables.unwrap_or_default())
}

const PROGRAM: &str = "\
function i = find_first(a : vec, t)
    i = -1
    for k = 0..numel(a) - 1
        if a[k] == t
            i = k
            return
        end
    end
end
function y = fib(n : int)
    if n < 2
        y = n
    else
        y = fib(n - 1) + fib(n - 2)
    end
end
function y = maybe(x)
    if x > 0
        y = x
    end
end
v = [5, 3, 8, 3]
print find_first(v, 3), \" \", find_first(v, 4), \" \", fib(12), \" \", maybe(2)
";

#[test]
fn the_tiers_agree_and_the_profile_names_each_functions_tier() {
    let (a, _) = run_on(PROGRAM, HostTier::Interp, 0);
    let (b, tables) = run_on(PROGRAM, HostTier::Compiled, 0);
    assert_eq!(a, "1 -1 144 2\n");
    assert_eq!(a, b);
    assert!(tables.contains("profile: host functions"), "{tables}");
    let row = |name: &str| {
        tables
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("no row for {name}:\n{tables}"))
            .to_string()
    };
    // find_first: two calls, both compiled.
    let cols: Vec<String> = row("find_first")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert_eq!((cols[2].as_str(), cols[4].as_str()), ("0", "2"), "{tables}");
    assert!(row("fib").contains("run only as compiled code"), "{tables}");
    assert!(
        row("maybe").contains("output `y` may be left unassigned"),
        "{tables}"
    );
}

#[test]
fn a_compiled_function_spends_the_step_budget_as_the_interpreter_does() {
    let endless = "\
function n = spin(x)
    n = 0
    while x > 0
        n += 1
    end
end
print 1
print spin(1)
";
    for tier in [HostTier::Interp, HostTier::Compiled] {
        let (out, _) = run_on(endless, tier, 10_000);
        assert_eq!(
            out, "1\nERROR: the step budget of this run is exhausted",
            "{tier:?}"
        );
    }
    // A finite loop within the budget finishes on both tiers.
    let finite = "\
function n = count(m : int)
    n = 0
    for k = 1..m
        n += k
    end
end
print count(1000)
";
    for tier in [HostTier::Interp, HostTier::Compiled] {
        let (out, _) = run_on(finite, tier, 10_000);
        assert_eq!(out, "500500\n", "{tier:?}");
        let (out, _) = run_on(finite.replace("1000", "20000").as_str(), tier, 10_000);
        assert!(
            out.ends_with("the step budget of this run is exhausted"),
            "{tier:?}: {out}"
        );
    }
}
