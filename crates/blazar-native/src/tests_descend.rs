//! Unit tests of the fused read and update steps under fission
//! (`codegen-c/cpp/descend.rs`): scan steps on odd block sizes, with steps that read the
//! own element, read upwards, reach past the block or read a shared array shorter than
//! the block, print the interpreter's bits; and the rewrite fuses only pairs whose
//! reads it can order.

use super::tests::{run_on, same};
use crate::CpuTier;

/// Scan steps `d` from `ds` over one block of `x` per launch block.
const STEPS: &str = "
function [] = __kernel__ steps(x : vec, y : vec, ds : vec, short : int, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim - short)
    s[blkpos] = x[pos]
    syncthreads
    for j = 0..numel(ds) - 1
        d = int(ds[j])
        v = 0.0
        if blkpos >= d
            v = s[blkpos - d] * 1.5
        endif
        syncthreads
        s[blkpos] = s[blkpos] + v
        syncthreads
    endfor
    y[pos] = s[blkpos]
endfunction
";

/// (The data calls no math function: a host loop of `sin` may run on glibc's vector
/// library, a few ulps from the interpreter's.)
#[test]
fn fused_steps_keep_the_interpreters_bits() {
    let src = format!(
        "{STEPS}
n = 6720
x = zeros(n)
for k = 0..n - 1
    x[k] = mod(k * 37, 101) / 7.3 - 5 + 1 / (k + 1)
endfor
ts = [1, 3, 7, 32, 96, 60]
for i = 0..5
    t = ts[i]
    y = zeros(n)
    parallel_do([[n], [t]], x, y, [1, 2, 4, 8, 16, 32, 64], 0, steps)
    print sum(y .* (1..n)), \" \", y[n - 1]
    parallel_do([[n], [t]], x, y, [0, -1, 3, 500, 1, 0], 0, steps)
    print sum(y .* (1..n)), \" \", y[n - 1]
    parallel_do([[n], [t]], x, y, [1, 2, 5], min(t - 1, 2), steps)
    print sum(y .* (1..n)), \" \", y[n - 1]
endfor
"
    );
    let out = same(&src);
    assert_eq!(out.lines().count(), 18, "{out}");
}

/// Which pairs run fused in the C++ the native tier compiles: the scan steps do; a pair
/// whose read offset differs between threads, whose update reads a neighbour, whose
/// read step stores, or which may fail does not.
#[test]
fn only_ordered_pairs_fuse() {
    let pairs = [
        (
            "steps",
            "v = s[blkpos - d] * 1.5",
            "s[blkpos] = s[blkpos] + v",
            true,
        ),
        (
            "own",
            "v = s[blkpos - m]",
            "s[blkpos] = s[blkpos] + v",
            false,
        ),
        (
            "neighbour",
            "v = s[blkpos - d]",
            "s[blkpos] = s[blkpos] + s[blkpos - 1] + v",
            false,
        ),
        (
            "stores",
            "v = s[blkpos - d]\n    y[pos] = v",
            "s[blkpos] = s[blkpos] + v",
            false,
        ),
        (
            "checked",
            "v = c[blkpos - d]",
            "s[blkpos] = s[blkpos] + v",
            false,
        ),
    ];
    for (name, read, update, fuses) in pairs {
        let src = format!(
            "
function [] = __kernel__ {name}(x : vec, y : vec, c : vec'checked, d : int, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    m = mod(blkpos, 3)
    syncthreads
    v = 0.0
    if blkpos >= d
    {read}
    endif
    syncthreads
    {update}
    syncthreads
    y[pos] = y[pos] + s[blkpos]
endfunction
y = zeros(12)
parallel_do([[12], [4]], 1..12, y, 1..12, 1, {name})
print y
"
        );
        // (The neighbour's read races with its write: tiers may differ there.)
        if name != "neighbour" {
            same(&src);
        }
        let (_, kernels) = run_on(&src, CpuTier::Interp, 1, false);
        let k = kernels.iter().find(|k| k.name == name).expect("kernel");
        let plan = blazar_codegen_c::cpp::plan(k).expect("native plan");
        let text = blazar_codegen_c::cpp::generate(k, &plan, None);
        assert_eq!(text.contains("bz_b0--"), fuses, "{name}\n{text}");
    }
}
