//! Unit tests of the native tier's scattered updates and block loops against the
//! interpreter (the oracle), on 1 and 2 threads: indices converted from reals
//! (`codegen-c/cpp/index_cast.rs`) at every special value, in single and double
//! precision, through shared and global arrays and a `'checked` one's error; the
//! tests of a block's threads in groups (`alike.rs`) where a group past the first
//! differs; grid-stride loops with prefetches past the end of their arrays
//! (`stride_prefetch.rs`); private copies of a launch merged once by its last range
//! (`private.rs`).

use super::tests::{same, same_in};

/// Every special value of a real converted to index an update: NaN (bin 0), the
/// infinities, values past both ends of `int` and `int64`, the lowest `int` itself,
/// -0.5 and 0.99 (bin 0), 7.9 (bin 7), -1 and 8 (outside): in global arrays (private
/// copies per launch), shared arrays, with `+=`, `-=` and `max=`-like updates.
const SPECIALS: &str = "
function [] = __kernel__ count(x : vec, h : vec, g : vec, pos : int)
    h[int(x[pos])] += 1
    g[int64(x[pos] * 0.5)] -= 1
endfunction
function [] = __kernel__ count_shared(x : vec, h : vec, pos : int, blkpos : int, blkdim : int)
    bins = shared(8)
    if blkpos < 8
        bins[blkpos] = 0.0
    endif
    syncthreads
    bins[int(x[pos])] += pos + 1
    syncthreads
    if blkpos < 8
        h[blkpos] += bins[blkpos]
    endif
endfunction
x = [0/0, 1/0, -1/0, 1e10, -1e10, -2147483648, 2147483648, -2147483649, _
     9.3e18, -9.3e18, -9223372036854775808, -0.5, -1, 0, 0.99, 3.7, 7, 7.9, 8, 255.9, -0]
x = [x, x * 3, x - 2, x / 7]
h = zeros(8)
g = zeros(8)
parallel_do(numel(x), x, h, g, count)
print h
print g
h = zeros(8)
parallel_do([[numel(x)], [numel(x)]], x, h, count_shared)
print h
";

#[test]
fn reals_converted_to_index_updates_match() {
    let out = same(SPECIALS);
    assert_eq!(out.lines().count(), 3, "{out}");
    // Bin 0 counts NaN, -0.5, 0, 0.99 and -0 at least.
    assert!(!out.starts_with("[0,"), "{out}");
}

#[test]
fn reals_converted_to_index_updates_match_in_double_precision() {
    same_in(SPECIALS, true);
}

/// A `'checked` array updated at a converted index reports the exact converted value
/// (the saturated 2147483647 for 1e10, not the instruction's lowest value).
#[test]
fn checked_update_at_a_converted_index_names_it_exactly() {
    let out = same(
        "
function [] = __kernel__ count(x : vec, h : vec'checked, pos : int)
    h[int(x[pos])] += 1
endfunction
x = [0, 1, 1e10, -3]
parallel_do(numel(x), x, zeros(4), count)
",
    );
    assert!(out.contains("index 2147483647 is out of bounds"), "{out}");
}

/// Blocks of 200 threads (not a multiple of the groups of 64) whose strided loops have
/// alike bounds except in one thread of the third or the last group, so that the tests
/// fail late; and blocks where every group passes.
#[test]
fn block_tests_fail_in_late_groups() {
    same(
        "
function [] = __kernel__ k(x : vec, y : vec, odd : int, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    acc = 0.0
    hi = numel(x) - 1 - 300 * int(blkpos == odd)
    for c = blkpos..blkdim..hi
        acc += x[c] * (1 + mod(c, 5))
    endfor
    lo = int(blkpos == odd)
    for i = lo..3
        acc += (i + 1) * blkpos
    endfor
    s[blkpos] = acc
    syncthreads
    y[pos] = s[blkdim - 1 - blkpos]
endfunction
x = mod((0..1999) * 37, 101) * 0.5
for odd = [-1, 0, 63, 64, 130, 199]
    y = zeros(400)
    parallel_do([[400], [200]], x, y, odd, k)
    print odd, \" \", sum(y .* (1..400))
endfor
",
    );
}

/// Grid-stride sums whose step exceeds the block: a vector and the rows of a matrix
/// (the row fixed by an enclosing loop alike in every thread), the prefetched
/// iterations running past the arrays' ends, with steps of 2 and 40 blocks.
#[test]
fn grid_stride_loops_with_prefetches_match() {
    same(
        "
function [y : scalar] = __kernel__ k(x : vec, a : mat, stride : int, _
                                     pos : int, blkpos : int, blkdim : int)
    part = shared(blkdim)
    acc = 0.0
    for k = pos..stride..numel(x) - 1
        acc += x[k]
    endfor
    for r = 0..size(a, 0) - 1
        for k = pos..stride..size(a, 1) - 1
            acc += a[r, k] * (r + 1)
        endfor
    endfor
    part[blkpos] = acc
    syncthreads
    if blkpos == 0
        s = 0.0
        for t = 0..blkdim - 1
            s += part[t]
        endfor
        y += s
    endif
endfunction
x = mod((0..20010) * 7, 1000) / 1000
a = mod(reshape(0..(5 * 3001 - 1), [5, 3001]) * 3, 17)
for stride = [128, 64 * 40]
    print parallel_do([[stride], [64]], x, a, stride, k)
endfor
",
    );
}

/// Many ranges of work items sharing the launch's private copies of a global array of
/// 1000 bins (not a multiple of a cache line's 16), merged once by the last range.
#[test]
fn private_copies_merge_from_their_own_lines() {
    same(
        "
function [] = __kernel__ k(h : vec, n : int, pos : int)
    h[mod(pos * 7919, n)] += 1
endfunction
h = zeros(1000)
parallel_do(200000, h, 1000, k)
print sum(h), \" \", h[0], \" \", h[999], \" \", max(h), \" \", min(h)
",
    );
}

/// `bz_icast<D>(x, n)` is `bz_cast<D>(x)` for `D` in {i32, i64} and extents `n` from 0
/// to the largest i64 on f32 operands (every 61st bit pattern, and every pattern within
/// 4096 of the limits and of +-0, +-1, +-2^31 and +-2^63) and on f64 operands (a spread
/// of bit patterns and the same neighbourhoods): the fast path's instruction and range
/// test and the exact conversion agree.
#[test]
fn index_casts_equal_the_exact_casts() {
    let tc = match crate::toolchain::toolchain() {
        Ok(tc) => tc,
        Err(e) => {
            println!("SKIP: {e}");
            return;
        }
    };
    let src = format!(
        "{}\n// ---- kernel icast (rank 1) ----\n\
         extern \"C\" __attribute__((visibility(\"default\"))) int bz_run(const bz_call*, i64, i64, u8*, bz_err*) {{ return 0; }}\n\
         template<typename S> static u64 bz_t_diff(S x) {{\n\
           static const i64 ns[] = {{0, 1, 256, 2147483647ll, 2147483648ll, 9223372036854775807ll}};\n\
           u64 d = 0;\n\
           for (i64 n : ns) d += (u64)(bz_icast<i32>(x, n) != bz_cast<i32>(x)) + (u64)(bz_icast<i64>(x, n) != bz_cast<i64>(x));\n\
           return d;\n\
         }}\n\
         extern \"C\" __attribute__((visibility(\"default\"))) void bz_finish(const u8*, i64, u8* r) {{\n\
           u64 bad = 0, seen = 0;\n\
           for (u64 b = 0; b < (1ull << 32); b += 61) {{ u32 w = (u32)b; f32 x; memcpy(&x, &w, 4); bad += bz_t_diff(x); seen++; }}\n\
           const f32 c32[] = {{0.0f, 1.0f, 2147483648.0f, 9223372036854775808.0f, HUGE_VALF}};\n\
           for (f32 c : c32) {{ const f32 pm[2] = {{c, -c}}; for (f32 s : pm) {{ u32 w; memcpy(&w, &s, 4);\n\
             for (i64 d = -4096; d <= 4096; d++) {{ u32 v = (u32)((i64)w + d); f32 x; memcpy(&x, &v, 4); bad += bz_t_diff(x); seen++; }} }} }}\n\
           for (u64 b = 0; b < (1ull << 24); b++) {{ u64 w = b * 1099511627689ull; f64 x; memcpy(&x, &w, 8); bad += bz_t_diff(x); seen++; }}\n\
           const f64 c64[] = {{0.0, 1.0, 2147483647.0, 2147483648.0, 9223372036854775808.0, HUGE_VAL}};\n\
           for (f64 c : c64) {{ const f64 pm[2] = {{c, -c}}; for (f64 s : pm) {{ u64 w; memcpy(&w, &s, 8);\n\
             for (i64 d = -4096; d <= 4096; d++) {{ u64 v = (u64)((i64)w + d); f64 x; memcpy(&x, &v, 8); bad += bz_t_diff(x); seen++; }} }} }}\n\
           memcpy(r, &bad, 8); memcpy(r + 8, &seen, 8);\n\
         }}\n",
        blazar_codegen_c::cpp::prelude()
    );
    let key = crate::compile::key(tc, &src);
    let lib = crate::compile::build(tc, None, &key, &src).expect("the test source compiles");
    let mut out = [0u8; 16];
    // SAFETY: this `bz_finish` writes 16 bytes to its third argument and reads nothing.
    unsafe { (lib.finish)(std::ptr::null(), 0, out.as_mut_ptr()) };
    let bad = u64::from_le_bytes(out[..8].try_into().unwrap());
    let seen = u64::from_le_bytes(out[8..].try_into().unwrap());
    assert!(seen > 70_000_000, "{seen} operands");
    assert_eq!(bad, 0, "conversions that differ");
}
