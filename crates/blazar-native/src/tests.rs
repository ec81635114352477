//! Unit tests of the native tier: small programs run on the interpreter (the oracle)
//! and natively must print the same text, on 1 and 2 threads; errors must read the
//! same; unsupported kernels fall back; the disk cache never trusts a bad entry.
//!
//! Without a working C++ compiler the comparisons print a SKIP line and pass (the tier
//! is then never used).

use crate::{CpuBackend, CpuTier};
use blazar_interp::{check, run_collect, BackendRef, Options};
use blazar_runtime::builtins::Ctx;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// A writer whose bytes can be read after the run.
#[derive(Clone, Default)]
struct Sink(Rc<RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Output (or error message) of `src` on `tier` with `threads`, and its kernels.
pub(crate) fn run_on(
    src: &str,
    tier: CpuTier,
    threads: usize,
    double: bool,
) -> (String, Vec<blazar_kir::Kernel>) {
    let loaded = check("t.q", src, None);
    assert!(!loaded.has_errors(), "{src}\n{:?}", loaded.diagnostics);
    let sink = Sink::default();
    let prec = if double {
        blazar_runtime::Prec::Double
    } else {
        blazar_runtime::Prec::Single
    };
    let ctx = Ctx::new(
        prec,
        Box::new(sink.clone()),
        std::env::temp_dir(),
        "t".into(),
    );
    let opts = Options {
        backend: Some(BackendRef::new(CpuBackend::new(tier, threads))),
        ..Options::default()
    };
    let (r, kernels) = run_collect(&loaded, ctx, opts);
    let mut out = String::from_utf8(sink.0.borrow().clone()).expect("utf-8 output");
    if let Err(d) = r {
        out.push_str(&format!("ERROR: {}", d.message));
    }
    (out, kernels)
}

/// How many of `kernels` the JIT takes; each one it takes must compile.
fn jitted(kernels: &[blazar_kir::Kernel]) -> usize {
    let mut n = 0;
    for k in kernels {
        if let (None, Ok(plan)) = (crate::jit_unsupported(k), blazar_codegen_c::cpp::plan(k)) {
            if let Err(e) = blazar_jit::compile(k, &plan.param_offsets) {
                panic!("kernel {} fails to compile on the JIT: {e}", k.name);
            }
            n += 1;
        }
    }
    n
}

#[test]
fn the_jit_takes_element_wise_kernels_and_reductions() {
    let src = "
function [s : scalar] = __kernel__ k(x : vec, y : vec'circular, n : int, pos : int)
    t = x[pos] * 2 + y[pos + 1] ^ 2
    if mod(pos, 3) == 0
        t = sqrt(abs(t)) - exp(-t)
    end
    for j = 0..n
        t += j
    end
    y[pos] = t
    s += max(t, 0.0)
end
x = (0..999) * 0.25
y = cos(x)
s = parallel_do(1000, x, y, 4, k)
print s
print sum(y)
";
    let (want, kernels) = run_on(src, CpuTier::Interp, 1, false);
    assert_eq!(jitted(&kernels), kernels.len());
    for threads in [1, 2] {
        assert_eq!(run_on(src, CpuTier::Jit, threads, false).0, want);
    }
}

fn have_compiler() -> bool {
    match crate::available() {
        Ok(()) => true,
        Err(e) => {
            println!("SKIP native tier tests: {e}");
            false
        }
    }
}

/// Runs `src` on the interpreter and natively (1 and 2 threads): same output; every
/// kernel is supported natively. Returns the output.
pub(crate) fn same(src: &str) -> String {
    same_in(src, false)
}

pub(crate) fn same_in(src: &str, double: bool) -> String {
    let (want, kernels) = run_on(src, CpuTier::Interp, 1, double);
    // The JIT tier needs no compiler: it runs what it takes, the interpreter the rest;
    // what it takes, Cranelift compiles.
    jitted(&kernels);
    for threads in [1, 2] {
        let (got, _) = run_on(src, CpuTier::Jit, threads, double);
        assert_eq!(got, want, "JIT on {threads} thread(s)\n{src}");
    }
    if !have_compiler() {
        return want;
    }
    for k in &kernels {
        assert_eq!(crate::unsupported(k), None, "kernel {} falls back", k.name);
    }
    for threads in [1, 2] {
        let (got, _) = run_on(src, CpuTier::Native, threads, double);
        assert_eq!(got, want, "native on {threads} thread(s)\n{src}");
    }
    want
}

#[test]
fn stencils_follow_every_boundary_mode() {
    let out = same(
        "
function [] = __kernel__ k0(a : mat, b : mat, pos : ivec2)
    b[pos] = a[pos + [-1, 2]] + 2 * a[pos[0] + 1, pos[1] - 3]
endfunction
function [] = __kernel__ k1(a : mat'circular, b : mat, pos : ivec2)
    b[pos] = a[pos + [-1, 7]] + 2 * a[pos[0] + 6, pos[1] - 13]
endfunction
function [] = __kernel__ k2(a : mat'mirror, b : mat, pos : ivec2)
    b[pos] = a[pos + [-1, 7]] + 2 * a[pos[0] + 6, pos[1] - 13]
endfunction
function [] = __kernel__ k3(a : mat'clamped, b : mat, pos : ivec2)
    b[pos] = a[pos + [-1, 7]] + 2 * a[pos[0] + 6, pos[1] - 13]
endfunction
x = zeros(5, 6)
for i = 0..29
    x[floor(i / 6), mod(i, 6)] = i
end
y = zeros(5, 6)
parallel_do(size(y), x, y, k0)
print y
parallel_do(size(y), x, y, k1)
print y
parallel_do(size(y), x, y, k2)
print y
parallel_do(size(y), x, y, k3)
print y
",
    );
    assert!(out.lines().count() > 4, "{out}");
}

#[test]
fn integers_wrap_and_casts_saturate() {
    same("
function [] = __kernel__ k(y : vec, pos : int)
    a = pos * 123456789 * 77
    c = mod(a, pos - 5) + mod(pos * 7, 3)
    d = int(1e20 * (pos - 20))
    y[pos] = float(mod(a, 1000)) + float(c) + float(mod(d, 13)) + float(shl(pos, 33)) + float(shr(-pos, 1))
endfunction
y = zeros(40)
parallel_do(40, y, k)
print y
");
}

#[test]
fn outputs_and_atomics_match_in_order() {
    same(
        "
function [s : scalar, m : int, p : scalar] = __kernel__ k(x : vec, h : vec, pos : int)
    s += x[pos] / 3
    m += int(mod(pos * 7919, 10007) > 5000)
    h[mod(pos, 7)] += 1
    p *= 1.0001
endfunction
x = (0..9999) * 0.37
h = zeros(7)
[s, m, p] = parallel_do(numel(x), x, h, k)
print s, m, p
print h
",
    );
}

#[test]
fn complex_vectors_and_math_match() {
    same_in(
        "
function [] = __kernel__ k(y : vec, pos : int)
    z = complex(pos / 8 - 4, mod(pos, 8) - 4)
    w = exp(z) * sqrt(z) / (z + 1i) + z^0.5 + z^(1 + 1i)
    v = [pos, 2 * pos, 3] .* [1.5, -2, 0.25]
    y[pos] = abs(w) + real(w) + sum(v) + max(v) + angle(z) + floor(sin(pos) * 100)
endfunction
y = zeros(64)
parallel_do(64, y, k)
print y
",
        true,
    );
}

#[test]
fn dynamic_memory_and_loops_match() {
    same(
        "
function [] = __kernel__ k(y : vec, pos : int)
    t = zeros(mod(pos, 9) + 1)
    for i = 0..numel(t) - 1
        t[i] = i * pos
    end
    acc = 0.0
    i = 0
    while true
        if i >= numel(t)
            break
        end
        acc += t[i]
        i += 1
    end
    if pos == 99
        return
    end
    y[pos] = acc
endfunction
y = zeros(100)
parallel_do(100, y, k)
print y
",
    );
}

#[test]
fn kernel_errors_read_as_on_the_interpreter() {
    let cases = [
        "function [] = __kernel__ k(x : vec'checked, pos : int)\n    x[pos] = x[pos + 3]\nendfunction\nparallel_do(10, zeros(10), k)\n",
        "function [] = __kernel__ k(x : vec, pos : int)\n    assert(pos < 7)\n    x[pos] = 1\nendfunction\nparallel_do(10, zeros(10), k)\n",
        "function [] = __kernel__ k(x : vec, pos : int)\n    t = zeros(100000)\n    x[pos] = t[0]\nendfunction\nparallel_do(10, zeros(10), k)\n",
    ];
    for src in cases {
        let out = same(src);
        assert!(out.contains("ERROR:"), "{out}");
    }
}

#[test]
fn barriers_and_shared_memory_run_by_loop_fission() {
    same(
        "
function [total : scalar] = __kernel__ k(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    step = shr(blkdim, 1)
    while step > 0
        if blkpos < step
            s[blkpos] = s[blkpos] + s[blkpos + step]
        end
        syncthreads
        step = shr(step, 1)
    end
    for r = 0..2
        y[pos] += s[0] * r
        syncthreads
    end
    if blkpos == 0
        total += s[0]
    end
end
x = mod((0..4095) * 37, 101) * 0.5
y = zeros(4096)
t = parallel_do([[4096], [256]], x, y, k)
print t
print sum(y)
",
    );
}

/// Barriers inside `if`s on the thread (a tree sum whose threads drop out, an `else`
/// that counts the rounds a thread sat out) run natively under per-thread masks; a
/// skipped thread reaching a barrier again reads the same error; a barrier in a loop
/// whose iterations depend on the thread falls back to the interpreter.
#[test]
fn barriers_under_thread_dependent_branches() {
    let tree = "
function [total : scalar] = __kernel__ k(x : vec, idle : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    bit = 1
    rest = 0
    while bit < blkdim
        at = 2 * bit * blkpos
        if at + bit < blkdim
            s[at] = s[at] + s[at + bit]
            syncthreads
        else
            rest += 1
        end
        bit *= 2
    end
    idle[pos] = rest
    if blkpos == 0
        total += s[0]
    end
end
x = mod((0..2399) * 37, 101) * 0.5
idle = zeros(2400)
print parallel_do([[2400], [48]], x, idle, k)
print sum(idle)
";
    let (_, kernels) = run_on(tree, CpuTier::Interp, 1, false);
    assert!(kernels.iter().all(|k| crate::unsupported(k).is_none()));
    same(tree);
    same(
        "
function [] = __kernel__ k(y : vec, blkpos : int)
    for r = 0..3
        if blkpos < 2 + r
            syncthreads
        end
    end
    y[blkpos] = 1
end
parallel_do([[8], [8]], zeros(8), k)
",
    );
    let looped = "
function [] = __kernel__ k(y : vec, blkpos : int)
    for r = 0..blkpos
        syncthreads
    end
    y[blkpos] = blkpos
end
y = zeros(8)
parallel_do([[8], [8]], y, k)
print y
";
    let (want, kernels) = run_on(looped, CpuTier::Interp, 1, false);
    assert!(kernels.iter().any(|k| crate::unsupported(k).is_some()));
    assert_eq!(want, "[0,1,2,3,4,5,6,7]\n");
}

#[test]
fn kernels_with_barriers_and_return_fall_back() {
    let src = "
y = zeros(8)
function [] = __kernel__ k(y : vec, pos : int, blkpos : int)
    s = shared(8)
    s[blkpos] = pos
    syncthreads
    if pos == 3
        return
    end
    y[pos] = s[7 - blkpos]
end
parallel_do([[8], [8]], y, k)
print y
";
    let (want, kernels) = run_on(src, CpuTier::Interp, 1, false);
    assert!(kernels.iter().any(|k| crate::unsupported(k).is_some()));
    if have_compiler() {
        assert_eq!(run_on(src, CpuTier::Native, 2, false).0, want);
    }
}

#[test]
fn the_disk_cache_rebuilds_bad_entries() {
    let Ok(tc) = crate::toolchain::toolchain() else {
        return;
    };
    let root = std::env::temp_dir().join(format!("blazar-native-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let store = blazar_cache::Store::open(&root, "native").expect("a private cache");
    let src = format!(
        "{}extern \"C\" __attribute__((visibility(\"default\"))) int bz_run(const bz_call*, i64, i64, u8*, bz_err*) {{ return 0; }}\nextern \"C\" __attribute__((visibility(\"default\"))) void bz_finish(const u8*, i64, u8*) {{}}\n",
        blazar_codegen_c::cpp::prelude()
    );
    let key = "testkey";
    assert!(crate::compile::from_disk(&store, key, &src).is_none());
    crate::compile::build(tc, Some(&store), key, &src).expect("the test source compiles");
    assert!(crate::compile::from_disk(&store, key, &src).is_some());
    // Another source under the same key is not trusted.
    assert!(crate::compile::from_disk(&store, key, "int x;").is_none());
    // A corrupt entry is not trusted (and removed); rebuilding repairs it.
    let entry = store.path(&format!("{key}.kernel"));
    std::fs::write(&entry, b"not an entry").expect("write");
    assert!(crate::compile::from_disk(&store, key, &src).is_none());
    assert!(!entry.exists());
    crate::compile::build(tc, Some(&store), key, &src).expect("rebuild");
    assert!(crate::compile::from_disk(&store, key, &src).is_some());
    // Only the entry (and, with GCC, the precompiled prelude) is left: the compiler's
    // private folder is gone.
    let mut names: Vec<_> = std::fs::read_dir(store.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let mut want = vec![format!("{key}.kernel")];
    if tc.gcc && std::env::var_os("BLAZAR_NO_PCH").is_none() {
        want.insert(0, crate::pch::name(tc));
    }
    assert_eq!(names, want);
    // Without a store, kernels compile in a private temporary folder.
    crate::compile::build(tc, None, "nostore", &src).expect("compiles without a cache");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_jit_reads_the_launch_records_where_they_are() {
    use crate::abi::{Call, Err as CErr, GArr};
    use blazar_jit::abi::*;
    use std::mem::{offset_of, size_of};
    assert_eq!(size_of::<GArr>() as i32, GARR_SIZE);
    assert_eq!(offset_of!(GArr, data) as i32, GARR_DATA);
    assert_eq!(offset_of!(GArr, dims) as i32, GARR_DIMS);
    assert_eq!(offset_of!(Call, arrs) as i32, CALL_ARRS);
    assert_eq!(offset_of!(Call, params) as i32, CALL_PARAMS);
    assert_eq!(offset_of!(Call, stop) as i32, CALL_STOP);
    assert_eq!(offset_of!(Call, kd) as i32, CALL_KD);
    assert_eq!(offset_of!(Call, kb) as i32, CALL_KB);
    assert_eq!(offset_of!(Call, total) as i32, CALL_TOTAL);
    assert_eq!(offset_of!(Call, chunk) as i32, CALL_CHUNK);
    assert_eq!(offset_of!(Call, sig) as i32, CALL_SIG);
    assert_eq!(INTERRUPTED, crate::abi::code::INTERRUPTED);
    assert_eq!(offset_of!(CErr, code) as i32, ERR_CODE);
    assert_eq!(offset_of!(CErr, line) as i32, ERR_LINE);
    assert_eq!(offset_of!(CErr, item) as i32, ERR_ITEM);
    assert_eq!(offset_of!(CErr, a) as i32, ERR_A);
    assert_eq!(offset_of!(CErr, b) as i32, ERR_B);
    assert_eq!(offset_of!(CErr, c) as i32, ERR_C);
    assert_eq!(PARTIAL_BYTES as usize, blazar_codegen_c::cpp::PARTIAL_BYTES);
    assert_eq!(ASSERT, crate::abi::code::ASSERT);
    assert_eq!(OUT_OF_BOUNDS, crate::abi::code::OUT_OF_BOUNDS);
}
