//! Unit tests of uniform assignments run once per block under fission
//! (`codegen-c/cpp/once.rs`): block scans with odd block sizes and partial tiles print
//! the interpreter's bits, variables that only look uniform keep per-thread values, a
//! thread that fails between two uniform assignments is the one reported, and the
//! rewrite takes exactly the assignments its conditions allow.

use super::tests::{run_on, same};
use crate::CpuTier;

/// A tiled Hillis–Steele scan (an inlined device function whose step doubles between
/// barriers, a running total grown after each tile's stores) over data whose sums
/// round, on blocks of 1, 3, 7, 32 and 100 threads and lengths the tile does not divide.
const SCAN: &str = "
function [] = __device__ scan_in_place(s : vec'unchecked, blkpos : int, blkdim : int)
    d = 1
    while d < blkdim
        v = 0.0
        if blkpos >= d
            v = s[blkpos - d]
        endif
        syncthreads
        s[blkpos] = s[blkpos] + v
        syncthreads
        d = shl(d, 1)
    endwhile
endfunction
function [] = __kernel__ tile_scan(x : vec, y : vec, len : int, _
                                   blkidx : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    first = blkidx * len
    carry = 0.1
    for tile = first..blkdim..first + len - 1
        k = tile + blkpos
        s[blkpos] = k < first + len ? x[k] : 0.0
        syncthreads
        scan_in_place(s, blkpos, blkdim)
        if k < first + len
            y[k] = carry + s[blkpos]
        endif
        carry = carry + s[blkdim - 1]
        syncthreads
    endfor
endfunction
";

#[test]
fn block_scans_keep_the_interpreters_bits() {
    let src = format!(
        "{SCAN}
n = 1001
x = zeros(n)
for k = 0..n - 1
    x[k] = sin(k * 0.37) * 3.3 + 1 / (k + 1)
endfor
bs = [1, 3, 2, 4, 1]
ts = [1, 3, 7, 32, 100]
for i = 0..4
    blocks = bs[i]
    threads = ts[i]
    len = int(ceil(n / blocks))
    xs = zeros(blocks * len)
    xs[0..n - 1] = x
    y = zeros(blocks * len)
    parallel_do([[1, blocks * threads], [1, threads]], xs, y, len, tile_scan)
    print sum(y .* (1..numel(y))), \" \", y[n - 1]
endfor
"
    );
    let out = same(&src);
    assert_eq!(out.lines().count(), 5, "{out}");
}

/// Values that look alike in every thread but are not, and uniform values next to
/// checked loads and stores.
#[test]
fn per_thread_values_stay_per_thread() {
    same(
        "
function [] = __kernel__ almost(c : vec'checked, y : vec, z : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    m = blkdim
    if blkpos == 1
        m = blkpos
    endif
    q = 0
    for i = 0..blkpos
        q = blkdim * 2
    endfor
    s[blkpos] = m + q
    syncthreads
    w = s[0] + blkdim
    y[pos] = s[blkdim - 1 - blkpos] + m
    w = w * 2 + s[blkdim - 1]
    syncthreads
    a = c[blkdim - 2]
    u = a * 10 + w
    syncthreads
    z[pos] = u + q
endfunction
y = zeros(15)
z = zeros(15)
parallel_do([[15], [5]], [1, 2, 3, 4], y, z, almost)
print y
print z
",
    );
}

/// A thread that fails between two uniform assignments stops; the block reports it.
#[test]
fn a_failing_thread_between_uniform_assignments_is_reported() {
    let src = "
function [] = __kernel__ one_fails(y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    a = blkdim * 3
    s[blkpos] = a + blkpos
    assert(blkpos != 2 || pos > 4)
    a = a + 1
    syncthreads
    y[pos] = a + s[blkpos]
endfunction
y = zeros(8)
parallel_do([[8], [4]], y, one_fails)
print y
";
    let (want, _) = run_on(src, CpuTier::Interp, 1, false);
    assert!(want.contains("assertion failed"), "{want}");
    same(src);
}

/// Which assignments run once in the C++ the native tier compiles: the scan's `d = 1`,
/// `d = shl(d, 1)`, `first` and `carry` do (and `d`, set only there, is held once per
/// block); the per-thread `v` does not, nor a value read from an array the same
/// statements store into (elsewhere).
#[test]
fn only_uniform_assignments_run_once() {
    let src = format!(
        "{SCAN}
function [] = __kernel__ stored(y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim + 1)
    s[blkpos] = blkpos
    if blkpos == 0
        s[blkdim] = 5
    endif
    syncthreads
    s[blkpos] = s[blkpos] * 2
    t = s[blkdim]
    syncthreads
    y[pos] = t
endfunction
y = zeros(30)
parallel_do([[1, 6], [1, 3]], 1..30, y, 10, tile_scan)
parallel_do([[6], [3]], y, stored)
print y
"
    );
    same(&src);
    let (_, kernels) = run_on(&src, CpuTier::Interp, 1, false);
    let text = |name: &str| {
        let k = kernels.iter().find(|k| k.name == name).expect("kernel");
        let plan = blazar_codegen_c::cpp::plan(k).expect("native plan");
        let s = blazar_codegen_c::cpp::generate(k, &plan, None);
        s[s.find("// ---- kernel").unwrap_or(0)..].to_string()
    };
    // Stored once into every thread's element, or into the block's value of a variable
    // held once per block.
    let once = |t: &str, var: &str| {
        t.contains(&format!(
            "if (bz_u < bz_nt) for (i64 bz_tid = 0; bz_tid < bz_nt; bz_tid++) {var}_a[bz_tid] = "
        )) || t.contains(&format!("if (bz_u < bz_nt) {var}_u = "))
    };
    let scan = text("tile_scan");
    // The C name of the scan's variable `name` (`v<i>_<name>`).
    let var = |t: &str, name: &str| -> String {
        t.split(|c: char| !c.is_alphanumeric() && c != '_')
            .find(|w| {
                w.strip_prefix('v')
                    .and_then(|r| r.strip_suffix(name))
                    .and_then(|r| r.strip_suffix('_'))
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .unwrap_or_else(|| panic!("no variable {name}\n{t}"))
            .to_string()
    };
    for name in ["d", "first", "carry"] {
        let v = var(&scan, name);
        assert!(once(&scan, &v), "{v} is not run once\n{scan}");
    }
    // No thread loop doubles `d`, which every thread reads from the block's value.
    let d = var(&scan, "d");
    assert!(!scan.contains(&format!("{d} = bz_shl(")), "{scan}");
    assert!(scan.contains(&format!("const i32 {d} = {d}_u;")), "{scan}");
    assert!(!scan.contains(&format!("{d}_a[bz_tid] = ")), "{scan}");
    assert!(!once(&scan, &var(&scan, "v")), "{scan}");
    let stored = text("stored");
    assert!(!once(&stored, &var(&stored, "t")), "{stored}");
}
