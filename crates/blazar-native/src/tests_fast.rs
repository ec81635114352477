//! Unit tests of the native tier's fast paths (rows proven in range, flattened rows,
//! strips of lanes, interleaved thread loops, inline float min/max, device functions
//! with barriers): each program prints the same on the interpreter and natively.

use super::tests::same;

/// Rows with a fast copy of the body (accesses proven in range), flattened rows over
/// small last extents, and the borders where the checked copy runs.
#[test]
fn proven_rows_match_at_borders_and_inside() {
    same(
        "
function [] = __kernel__ init(x : cube'unchecked, pos : ivec3)
    x[pos] = mod(pos[0] * 37 + pos[1] * 11 + pos[2] * 71 + pos[0] * pos[1], 256)
endfunction
function [] = __kernel__ box(x : cube, y : cube'unchecked, pos : ivec3)
    s = 0.0
    for di = -1..1
        for dj = -2..2
            s += x[pos + [di, dj, 0]]
        endfor
    endfor
    y[pos] = s
endfunction
function [] = __kernel__ modes(x : cube'circular, z : cube'mirror, y : cube, shift : int, pos : ivec3)
    i = pos[0] + shift
    y[pos] = x[i, 2 * pos[1] - 1, pos[2]] + z[pos[0] - 1, pos[1] + shift, 2 - pos[2]]
endfunction
function [] = __kernel__ init2(a : mat'unchecked, pos : ivec2)
    a[pos] = mod(pos[0] * 13 + pos[1] * 7, 101)
endfunction
function [] = __kernel__ flip(a : mat'checked, b : mat, n : int, pos : ivec2)
    if pos[1] == 3
        return
    endif
    b[pos[0], n - 1 - pos[1]] = a[pos] * 2 + a[pos[0], n - 1 - pos[1]] - a[3 - 2, pos[1]]
endfunction
function [] = __kernel__ past(a : mat'checked, b : mat, pos : ivec2)
    b[pos] = a[pos[0], pos[1] + 1]
endfunction
x = zeros(40, 230, 3)
parallel_do(size(x), x, init)
y = zeros(size(x))
parallel_do(size(y), x, y, box)
print sum(y .* x)
parallel_do(size(y), x, x, y, 2, modes)
print sum(y .* x)
parallel_do([40, 230, 2], x, y, box)
print sum(y .* x)
a = zeros(30, 700)
parallel_do(size(a), a, init2)
b = zeros(size(a))
parallel_do(size(a), a, b, 700, flip)
print sum(b .* a)
parallel_do(size(a), a, b, past)
print sum(b)
",
    );
}

/// Uniform loops run in strips of lanes: products, outputs and `return` after the
/// loop, flattened rows and row tails.
#[test]
fn strips_of_lanes_match_the_thread_order() {
    same(
        "
function [] = __kernel__ fill(a : mat'unchecked, pos : ivec2)
    a[pos] = mod(pos[0] * 5 + pos[1] * 3, 17) * 0.25 - 1
endfunction
function [s : scalar] = __kernel__ mm(a : mat'unchecked, b : mat, c : mat'unchecked, pos : ivec2)
    acc = 0.0
    j = pos[1]
    for k = 0..size(a, 1) - 1
        acc += a[pos[0], k] * b[k, j]
    endfor
    if mod(pos[1], 7) == 3
        return
    endif
    c[pos] = acc
    s += acc
endfunction
function [] = __kernel__ fill3(a : cube'unchecked, pos : ivec3)
    a[pos] = mod(pos[0] * 5 + pos[1] * 3 + pos[2], 17) * 0.25 - 1
endfunction
function [] = __kernel__ taps(x : cube, w : vec, y : cube'unchecked, pos : ivec3)
    s = 0.0
    for k = -2..2
        s += w[k + 2] * x[pos[0], pos[1] + k, pos[2]]
    endfor
    y[pos] = s
endfunction
a = zeros(37, 150)
b = zeros(150, 133)
parallel_do(size(a), a, fill)
parallel_do(size(b), b, fill)
c = zeros(37, 133)
s = parallel_do(size(c), a, b, c, mm)
print s
print sum(c .* c)
sq = zeros(128, 128)
parallel_do(size(sq), sq, fill)
s = parallel_do(size(sq), sq, sq, c, mm)
print s
x = zeros(20, 90, 3)
parallel_do(size(x), x, fill3)
w = [1, 2, 3, 2, 1]
y = zeros(size(x))
parallel_do(size(y), x, w, y, taps)
print sum(y .* x)
",
    );
}

/// Counted loops over read-only memory interleaved across a block's threads: uneven
/// trip counts, negative steps, `pre` and `post` statements, shared memory after.
#[test]
fn interleaved_thread_loops_match() {
    same(
        "
function [] = __kernel__ fill(x : vec'unchecked, pos : int)
    x[pos] = mod(pos * 7, 1000) / 1000
endfunction
function [y : scalar] = __kernel__ sums(x : vec, stride : int, pos : int, blkpos : int, blkdim : int)
    part = shared(blkdim)
    first = pos * 2
    acc = 0.0
    m = 0.0
    for k = first..stride..numel(x) - 1
        acc += x[k] * (k + 1)
        m = max(m, x[k])
    endfor
    down = 0.0
    for k = numel(x) - 1 - pos..-stride..0
        down += x[k]
    endfor
    part[blkpos] = acc + m - down
    syncthreads
    if blkpos == 0
        t = 0.0
        for i = 0..blkdim - 1
            t += part[i]
        endfor
        y += t
    endif
endfunction
x = zeros(10007)
parallel_do(size(x), x, fill)
print parallel_do([[1, 6 * 32], [1, 32]], x, 157, sums)
",
    );
}

/// Device functions with barriers, inlined as loops that run once, run by fission.
#[test]
fn device_functions_with_barriers_run_natively() {
    let out = same(
        "
function [] = __device__ scan(s : vec'unchecked, blkpos : int, blkdim : int)
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
function [] = __kernel__ k(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    scan(s, blkpos, blkdim)
    y[pos] = s[blkpos]
endfunction
x = 1..40
y = zeros(40)
parallel_do([[40], [20]], x, y, k)
print y
",
    );
    assert!(out.contains("210,21,43"), "{out}");
}

/// Inline `min`/`max` of floats: a NaN operand gives the other one.
#[test]
fn float_min_max_ignore_nan() {
    let out = same(
        "
function [] = __kernel__ k(x : vec, y : vec, z : vec, pos : int)
    a = x[pos]
    b = x[mod(pos + 3, 6)]
    y[pos] = max(a, b)
    z[pos] = min(a, b)
endfunction
x = [0/0, 1, -2, 4, 5, -1]
y = zeros(6)
z = zeros(6)
parallel_do(6, x, y, z, k)
print y
print z
",
    );
    assert!(out.contains("[4,5,-1,4,5,-1]"), "{out}");
}

/// Grid-stride loops whose threads start at consecutive values: uneven last
/// iteration, the loop variable in arithmetic and indices, one body that assigns it.
#[test]
fn grid_stride_loops_match() {
    same(
        "
function [] = __kernel__ fill(x : vec'unchecked, pos : int)
    x[pos] = mod(pos * 7, 1000) / 1000
endfunction
function [y : scalar] = __kernel__ sums(x : vec, pos : int, blkpos : int, blkdim : int, blkcnt : int)
    part = shared(blkdim)
    acc = 0.0
    for k = pos..blkdim * blkcnt..numel(x) - 1
        acc += x[k] * 2 + x[k + 1] + mod(k, 5)
    endfor
    skip = 0.0
    for k = pos..blkdim * blkcnt..numel(x) - 1
        skip += x[k]
        k = k + 3
    endfor
    part[blkpos] = acc - skip
    syncthreads
    if blkpos == 0
        t = 0.0
        for i = 0..blkdim - 1
            t += part[i]
        endfor
        y += t
    endif
endfunction
x = zeros(10007)
parallel_do(size(x), x, fill)
print parallel_do([[4 * 64], [64]], x, sums)
",
    );
}

/// Reads at stride 2 along the second-to-last dimension of a small-channel image
/// (`x[i, 2 * j + 1, c]`) in flattened rows: the fast copy indexes them with an i64
/// affine form (`codegen-c/cpp/flat_index.rs`, from `bz_fr`), and the results match the
/// interpreter's, a launch wider than half the image (reads past the edge) included.
#[test]
fn flat_strided_channel_reads_use_i64_forms() {
    let src = "
function [] = __kernel__ pairs(x : cube'safe, y : cube'unchecked, half : int, pos : ivec3)
    a = x[pos[0], 2 * pos[1], pos[2]]
    b = x[pos[0], 2 * pos[1] + 1, pos[2]]
    y[pos] = 0.5 * (a + b)
    y[pos[0], pos[1] + half, pos[2]] = a - b
endfunction
x = zeros(3, 21, 3)
for i = 0..2
    for j = 0..20
        for c = 0..2
            x[i, j, c] = i * 100 + j * 3 + c
        endfor
    endfor
endfor
y = zeros(3, 24, 3)
parallel_do([3, 12, 3], x, y, 12, pairs)
print y
";
    let out = same(src);
    assert!(out.contains('['), "{out}");
    let (_, kernels) = super::tests::run_on(src, crate::CpuTier::Interp, 1, false);
    let k = kernels.iter().find(|k| k.name == "pairs").expect("kernel");
    let plan = blazar_codegen_c::cpp::plan(k).expect("native plan");
    let flat = blazar_codegen_c::cpp::generate(k, &plan, Some(3));
    assert!(flat.contains("1ll)) + 2ll * bz_fr)"), "{flat}");
    let rows = blazar_codegen_c::cpp::generate(k, &plan, None);
    assert!(!rows.contains("* bz_fr"), "{rows}");
}
