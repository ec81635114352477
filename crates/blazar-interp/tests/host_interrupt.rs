//! Ctrl-C inside compiled host functions (`hostfn.rs`): their loops and real calls poll
//! the process's interrupt flag (`blazar_runtime::interrupt`), so a signal stops an
//! endless compiled call within a second, with the interpreter's error and the output
//! printed before it kept, where no watchdog ends the process (Python, the REPL).
//!
//! The flag is the process's: this file is its own test binary, and its one test sets
//! the flag from a thread, run after run.

use blazar_interp::{check, run, run_profiled, BackendRef, HostTier, Options};
use blazar_native::{CpuBackend, CpuTier};
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::{Duration, Instant};
mod common;

use common::{calls, Sink};

/// The functions, a call that ends and one that does not: an endless loop in a
/// function with loops (JIT and C++ tiers), inside a recursion (a function of the C++
/// tier's call table), and a recursion without loops that takes minutes (its calls
/// poll).
const PROGRAMS: [(&str, &str, &str, &str); 3] = [
    (
        "loop",
        "function n = spin(x : int)\n    n = 0\n    while x > 0\n        n += 1\n    end\nend\n",
        "spin(0)",
        "spin(1)",
    ),
    (
        "loop in recursion",
        "function y = churn(n : int, m : int)\n    y = 0\n    if n > 0\n        \
         y = churn(n - 1, m)\n    else\n        k = 0\n        while k >= 0 && y < m\n            \
         k = mod(k + 1, 1000)\n            y += 1\n        end\n    end\nend\n",
        "churn(3, 10)",
        "churn(3, 2147483647)",
    ),
    (
        "calls",
        "function y = fib(n : int)\n    y = n < 2 ? n : fib(n - 1) + fib(n - 2)\nend\n",
        "fib(10)",
        "fib(70)",
    ),
];

/// The options of a run on `cpu` with the host tier forced on.
fn options(cpu: CpuTier) -> Options {
    Options {
        max_depth: 2000,
        backend: Some(BackendRef::new(CpuBackend::new(cpu, 1))),
        host_tier: HostTier::Compiled,
        interrupt: Some(blazar_runtime::interrupt::flag()),
        ..Options::default()
    }
}

/// Whether `call` of `funcs` ran compiled on `cpu` (and its code is built).
fn compiles(funcs: &str, call: &str, cpu: CpuTier) -> bool {
    let src = format!("{funcs}print {call}\n");
    let loaded = check("t.q", &src, None);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let opts = Options {
        profile: true,
        ..options(cpu)
    };
    let (r, tables) = run_profiled(&loaded, common::ctx(&sink, false), opts);
    assert!(r.is_ok(), "{src}: {:?}", r.err().map(|d| d.message));
    let tables = tables.unwrap_or_default();
    let name = funcs[funcs.find('=').unwrap_or(0) + 2..]
        .split('(')
        .next()
        .unwrap_or("");
    calls(&tables, name).0 == 0
}

/// Runs `src` on a thread, the host tier forced on over `cpu`, sets the interrupt flag
/// after `after`: what it printed (then `ERROR: message`) and how long it took to stop
/// after the signal (`None`: not within ten seconds).
fn interrupted(src: String, cpu: CpuTier, after: Duration) -> (String, Option<Duration>) {
    let flag = blazar_runtime::interrupt::flag();
    flag.store(0, Ordering::SeqCst);
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let loaded = check("t.q", &src, None);
        assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
        let sink = Sink::default();
        let r = run(&loaded, common::ctx(&sink, false), options(cpu));
        let mut out = String::from_utf8(sink.0.borrow().clone()).expect("utf-8 output");
        if let Err(d) = r {
            out.push_str(&format!("ERROR: {}", d.message));
        }
        let _ = tx.send((out, Instant::now()));
    });
    std::thread::sleep(after);
    let sent = Instant::now();
    flag.store(2, Ordering::SeqCst);
    let got = rx.recv_timeout(Duration::from_secs(10));
    flag.store(0, Ordering::SeqCst);
    match got {
        Ok((out, at)) => (out, Some(at.saturating_duration_since(sent))),
        Err(_) => (String::new(), None),
    }
}

#[test]
fn an_interrupt_stops_a_compiled_function_within_a_second() {
    let mut tiers = vec![CpuTier::Jit, CpuTier::Interp];
    if blazar_native::available().is_ok() {
        tiers.push(CpuTier::Native);
    } else {
        eprintln!("the C++ tier is skipped: no C++ compiler");
    }
    for cpu in tiers {
        for (what, funcs, ends, endless) in PROGRAMS {
            // Recursion compiles on the C++ tier only; the others interpret it (and
            // poll as the interpreter does).
            let compiled = compiles(funcs, ends, cpu);
            assert_eq!(
                compiled,
                cpu == CpuTier::Native || what == "loop",
                "{cpu:?}, {what}"
            );
            let src = format!("{funcs}print 1\nprint {endless}\n");
            let (out, took) = interrupted(src, cpu, Duration::from_millis(500));
            let took = took.unwrap_or_else(|| panic!("{cpu:?}, {what}: did not stop"));
            assert_eq!(
                out, "1\nERROR: stopped here by SIGINT (Ctrl-C)",
                "{cpu:?}, {what}"
            );
            assert!(took < Duration::from_secs(1), "{cpu:?}, {what}: {took:?}");
        }
    }
}
