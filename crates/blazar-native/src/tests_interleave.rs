//! Unit tests of interleaved thread loops under fission (`codegen-c/cpp/interleave.rs`):
//! loops whose iterations run round by round across a block's threads print the same as
//! on the interpreter, for every form the generated code picks when the block runs
//! (threads with equal bounds, consecutive starts in a row of threads, anything else),
//! with ranges that the block size does not divide, the loop variable read after the
//! loop, stores and atomic updates in the body, and real contention on a few bins.

use super::tests::same;

/// Strided loops with consecutive starts: sums, stores at the loop variable, the
/// variable's value after the loop (steps above and below the block size), and threads
/// that run no iteration.
#[test]
fn strided_loops_keep_every_thread_value() {
    same(
        "
function [] = __kernel__ fill(x : vec'unchecked, pos : int)
    x[pos] = mod(pos * 7, 1000) / 1000
endfunction
function [y : scalar] = __kernel__ strided(x : vec, out : vec, z : vec, stride : int, _
                                          pos : int, blkpos : int, blkdim : int)
    part = shared(blkdim)
    acc = 0.0
    k = -5
    for k = pos..stride..numel(x) - 1
        acc += x[k]
        z[k] = x[k] * 2 + k
    endfor
    part[blkpos] = acc + k
    syncthreads
    out[pos] = part[blkdim - 1 - blkpos]
    if blkpos == 0
        y += part[0]
    endif
endfunction
x = zeros(10007)
parallel_do(size(x), x, fill)
for stride = [320, 16, 20000]
    out = zeros(320)
    z = zeros(10007)
    y = parallel_do([[1, 320], [1, 64]], x, out, z, stride, strided)
    print y, sum(out .* (1..320)), sum(z .* mod(0..10006, 17))
endfor
",
    );
}

/// A histogram in shared memory: an outer loop whose bounds are the same in every
/// thread of a row block, an inner strided loop of atomic updates to a few bins (real
/// contention), blocks of one row and of two rows, a width the block does not divide.
#[test]
fn shared_histograms_match() {
    same(
        "
function [] = __kernel__ img(x : mat'unchecked, pos : ivec2)
    x[pos] = mod(pos[0] * 13 + pos[1] * pos[1] * 7, 5)
endfunction
function [] = __kernel__ hist(im : mat, h : vec, rows : int, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    bins = shared(8)
    t = blkpos[1]
    nt = blkdim[1]
    for b = t..nt..7
        bins[b] = 0.0
    endfor
    syncthreads
    for r = pos[0] * rows..pos[0] * rows + rows - 1
        for c = t..nt..size(im, 1) - 1
            bins[int(im[r, c])] += 1 + r
        endfor
    endfor
    syncthreads
    for b = t..nt..7
        h[b] += bins[b]
    endfor
endfunction
im = zeros(38, 203)
parallel_do(size(im), im, img)
h = zeros(8)
parallel_do([[19, 32], [1, 32]], im, h, 2, hist)
print h
h = zeros(8)
parallel_do([[38, 32], [2, 32]], im, h, 1, hist)
print h
h = zeros(8)
parallel_do([[38, 7], [1, 7]], im, h, 1, hist)
print h
",
    );
}

/// Loops whose bounds do not depend on the thread (interleaved as one loop around
/// the body's thread loops) and loops with thread-dependent trip counts (round by
/// round), in integer arithmetic, with a nested loop and an `if` in the body.
#[test]
fn uniform_and_uneven_loops_match() {
    same(
        "
function [] = __kernel__ fill(a : mat'unchecked, pos : ivec2)
    a[pos] = mod(pos[0] * 37 + pos[1] * 11, 11)
endfunction
function [] = __kernel__ k(a : mat, y : vec, n : int, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    acc = 0
    for i = 0..n - 1
        for j = 0..2..i
            if mod(i + j + blkpos, 3) == 0
                acc += int(a[i, pos])
            endif
        endfor
    endfor
    cnt = 0
    for i = 0..1 + mod(blkpos, 5)..n
        cnt += 1 + i
    endfor
    s[blkpos] = acc * 1000 + cnt
    syncthreads
    y[pos] = s[mod(blkpos + 1, blkdim)]
endfunction
a = zeros(9, 100)
parallel_do(size(a), a, fill)
y = zeros(96)
parallel_do([[96], [32]], a, y, 9, k)
print sum(y .* (1..96)), y[0], y[95]
",
    );
}
