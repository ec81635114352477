//! The random-kernel differential fuzzer (issue 16): random well-typed kernels
//! (`kernel_fuzz/gen.rs`) run on the SIMT interpreter (1 thread), the native C++ tier
//! (2 threads) and, where libnvrtc is found, with every kernel also compiled by NVRTC;
//! each program also runs its kernel's body as a host function and inlined in a host
//! loop (which may become a kernel). The interpreter also runs each program with fusion
//! off and with every array expression fused (`--fuse-min off` and `0`), and with the
//! compiled host tier forced on (serial host loops and whole host functions as kernels,
//! against the host interpreter, which every other run uses: `--host-tier interp`;
//! on the SIMT interpreter and on the C++ tier, which also compiles recursion; each
//! program starts with random int functions, `kernel_fuzz/func.rs`). Every tier and
//! setting must print the same (errors included), and the host and the loop the same as
//! the kernel.
//!
//! Bounded by time: `BLAZAR_FUZZ_SECS` (default 20), `BLAZAR_FUZZ_CASES` (no default
//! limit). Reproducible: program `i` comes from seed `BLAZAR_FUZZ_SEED + i` (default
//! seed 0; `BLAZAR_FUZZ_SEED=time` picks one from the clock). A disagreement prints
//! the seed and the program; the test fails on any disagreement, panic, or generated
//! program that does not check. `BLAZAR_FUZZ_PRINT=1` prints each program first;
//! `BLAZAR_FUZZ_MIXED=0` leaves out operators that combine ints of different kinds.

#[path = "kernel_fuzz/expr.rs"]
mod expr;
#[path = "kernel_fuzz/func.rs"]
mod func;
#[path = "kernel_fuzz/gen.rs"]
mod gen;
#[path = "kernel_fuzz/stmt.rs"]
mod stmt;

use blazar_interp::{check, run, BackendRef, Options};
use blazar_launch::Chain;
use blazar_native::{CpuBackend, CpuTier};
use blazar_runtime::builtins::Ctx;
use std::cell::RefCell;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::rc::Rc;
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Tier {
    Interp,
    Native,
    /// The JIT tier (`blazar-jit`) on 2 threads, the interpreter for what it declines.
    Jit,
    Nvrtc,
    /// The interpreter with fusion off (`--fuse-min off`): loops stay serial.
    Unfused,
    /// The interpreter with every array expression fused (`--fuse-min 0`).
    FuseAll,
    /// The compiled host tier forced on (`--host-tier compiled`): every host loop it
    /// accepts runs as a serial kernel (on the SIMT interpreter).
    HostCompiled,
    /// The compiled host tier forced on over the native C++ tier (2 threads), which
    /// also compiles the recursive functions (real calls).
    HostNative,
}

/// What a run printed, then its error (if any); `Err` for a panic.
fn output(src: &str, tier: Tier) -> Result<String, String> {
    let loaded = check("fuzz.q", src, None);
    if loaded.has_errors() {
        return Ok(format!("CHECK: {:?}", loaded.diagnostics[0].message));
    }
    let sink = Sink::default();
    let ctx = Ctx::new(
        blazar_runtime::Prec::Single,
        Box::new(sink.clone()),
        std::env::temp_dir(),
        "fuzz".into(),
    );
    let backend = match tier {
        Tier::Interp | Tier::Unfused | Tier::FuseAll | Tier::HostCompiled => {
            BackendRef::new(CpuBackend::new(CpuTier::Interp, 1))
        }
        Tier::Native | Tier::HostNative => BackendRef::new(CpuBackend::new(CpuTier::Native, 2)),
        Tier::Jit => BackendRef::new(CpuBackend::new(CpuTier::Jit, 2)),
        Tier::Nvrtc => BackendRef::new(Chain {
            first: blazar_cuda::NvrtcCheck::new("fuzz.q").map_err(|e| e.to_string())?,
            then: CpuBackend::new(CpuTier::Interp, 2),
        }),
    };
    let opts = Options {
        backend: Some(backend),
        max_steps: 1_000_000,
        max_depth: 100,
        fuse_min: match tier {
            Tier::Unfused => Some(usize::MAX),
            Tier::FuseAll => Some(0),
            _ => None,
        },
        host_tier: if matches!(tier, Tier::HostCompiled | Tier::HostNative) {
            blazar_interp::HostTier::Compiled
        } else {
            blazar_interp::HostTier::Interp
        },
        ..Options::default()
    };
    let r = std::panic::catch_unwind(AssertUnwindSafe(|| run(&loaded, ctx, opts)));
    let mut out = String::from_utf8_lossy(&sink.0.borrow()).into_owned();
    match r {
        Ok(Ok(())) => {}
        Ok(Err(d)) => out.push_str(&format!("ERROR: {}", d.message)),
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            return Err(format!("{tier:?} panicked: {msg}"));
        }
    }
    Ok(out)
}

/// The kernel's, the host's and the loop's printed outputs of a run that finished.
fn parts(out: &str) -> Option<(&str, &str, &str)> {
    let k = out.find("== kernel\n")?;
    let h = out.find("== host\n")?;
    let l = out.find("== loop\n")?;
    (!out.contains("ERROR:")).then(|| (&out[k + 10..h], &out[h + 8..l], &out[l + 8..]))
}

#[derive(Default, Debug)]
struct Tally {
    programs: u64,
    errors: u64,
    disagreements: u64,
    panics: u64,
    rejected: u64,
    nvrtc: u64,
    /// Results agreeing to f32 rounding where complex arithmetic is inexact or a real
    /// sum may be reassociated.
    rounded: u64,
}

#[test]
fn random_kernels_agree_across_tiers_and_with_the_host() {
    // Transcendental functions give the same bits on both CPU tiers only without the
    // vector math library (`blazar run --deterministic`).
    blazar_native::set_deterministic();
    let env = |k: &str| std::env::var(k).ok();
    let secs: u64 = env("BLAZAR_FUZZ_SECS")
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let cases: u64 = env("BLAZAR_FUZZ_CASES")
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX);
    let seed: u64 = match env("BLAZAR_FUZZ_SEED").as_deref() {
        Some("time") => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs()),
        Some(s) => s.parse().expect("BLAZAR_FUZZ_SEED is a number or `time`"),
        None => 0,
    };
    // `BLAZAR_FUZZ_PRINT=1` prints every program before it runs (to find a hang).
    let print = env("BLAZAR_FUZZ_PRINT").is_some();
    // Compiled kernels go to a private cache of this run, removed at the end.
    let cache = std::env::temp_dir().join(format!("blazar-fuzz-cache-{}", std::process::id()));
    std::env::set_var("BLAZAR_CACHE_DIR", &cache);
    let native = blazar_native::available().is_ok();
    let nvrtc = blazar_cuda::NvrtcCheck::new("fuzz.q").is_ok();
    eprintln!(
        "kernel fuzz: seed {seed}, {secs} s; tiers: interp{}{}",
        if native {
            ", native"
        } else {
            " (no C++ compiler: native skipped)"
        },
        if nvrtc {
            ", nvrtc"
        } else {
            " (no libnvrtc: nvrtc skipped)"
        }
    );
    let start = Instant::now();
    let mut t = Tally::default();
    let mut failures = Vec::new();
    let mut i = 0;
    while i < cases && start.elapsed() < Duration::from_secs(secs) {
        let s = seed.wrapping_add(i);
        i += 1;
        let gen::Program {
            src,
            inexact,
            reassoc,
        } = gen::program(s);
        t.programs += 1;
        if print {
            eprintln!("--- kernel fuzz: seed {s}\n{src}---");
        }
        let mut report = |what: String, t: &mut Tally| {
            eprintln!("--- kernel fuzz: seed {s}: {what}\n{src}---");
            failures.push(s);
            t.disagreements += 1;
        };
        let base = match output(&src, Tier::Interp) {
            Ok(o) => o,
            Err(p) => {
                t.panics += 1;
                report(p, &mut t);
                continue;
            }
        };
        if base.starts_with("CHECK:") {
            t.rejected += 1;
            report(
                format!("the generated program does not check: {base}"),
                &mut t,
            );
            continue;
        }
        if base.contains("ERROR:") {
            t.errors += 1;
        }
        if let Some((k, h, l)) = parts(&base) {
            for (what, x) in [("host", h), ("loop", l)] {
                if x == k {
                    continue;
                }
                let rounded = inexact
                    && blazar_testkit::compare::first_difference(k, x, Some(1e-5)).is_none();
                if rounded {
                    t.rounded += 1;
                } else {
                    report(format!("{what} and kernel differ:\n{base}"), &mut t);
                }
            }
        }
        let mut others = vec![Tier::Unfused, Tier::FuseAll, Tier::Jit, Tier::HostCompiled];
        if native {
            others.extend([Tier::Native, Tier::HostNative]);
        }
        if nvrtc {
            others.push(Tier::Nvrtc);
            t.nvrtc += 1;
        }
        for tier in others {
            match output(&src, tier) {
                Ok(o) if o == base => {}
                // Complex arithmetic (f32 in kernels, f64 on the host) and real sums that a
                // loop run as a kernel reassociates: equal to f32 rounding.
                Ok(o)
                    if (inexact || reassoc)
                        && blazar_testkit::compare::first_difference(&o, &base, Some(1e-5))
                            .is_none() =>
                {
                    t.rounded += 1
                }
                Ok(o) => report(
                    format!("{tier:?} differs from the interpreter:\n{o}\ninterpreter:\n{base}"),
                    &mut t,
                ),
                Err(p) => {
                    t.panics += 1;
                    report(p, &mut t);
                }
            }
        }
    }
    blazar_native::wait_for_compiles();
    let _ = std::fs::remove_dir_all(&cache);
    eprintln!(
        "kernel fuzz: {} programs in {:.0} s ({} ended in a kernel or host error, the same on every tier; {} equal to f32 rounding: complex results or reassociated real sums), {} disagreements, {} panics, {} rejected, {} compiled by NVRTC",
        t.programs,
        start.elapsed().as_secs_f64(),
        t.errors,
        t.rounded,
        t.disagreements - t.panics - t.rejected,
        t.panics,
        t.rejected,
        t.nvrtc
    );
    assert!(failures.is_empty(), "failing seeds: {failures:?}");
}
