% Launches whose work items cost very different amounts (a loop whose trip count
% depends on the position, heaviest in the middle rows, like Mandelbrot's), large
% enough to be spread over every thread and to be rebalanced between them: every
% position is written exactly once, and a kernel output (a float sum) is the same in
% two runs up to rounding (the order of its partials is the schedule's: the random
% schedule and a GPU's atomics may add them in another order each run).
% Sizes: 200 x 131 (no multiple of any chunk) and 2-d blocks of 4 x 64 with a barrier.
% ==
% stdout {
% 1
% 1
% 1
% 1
% 1
% }
function [] = __kernel__ heavy_rows(y : mat'unchecked, pos : ivec2)
    m = size(y, 0)
    d = abs(pos[0] - m / 2)
    n = 0
    k = 0
    while k < 100 - d
        n += mod(k * 7 + pos[1], 3)
        k += 1
    endwhile
    y[pos] = y[pos] + n + 1
endfunction

function [s : scalar] = __kernel__ heavy_sum(y : mat'unchecked, pos : ivec2)
    m = size(y, 0)
    k = 0
    a = 0.0
    while k < 80 - abs(pos[0] - m / 2)
        a += 0.1
        k += 1
    endwhile
    s += a * 1.0001 + y[pos] * 0.001
endfunction

function [] = __kernel__ block_rows(y : mat'unchecked, z : mat'unchecked, pos : ivec2, blkpos : ivec2)
    t = shared(4, 64)
    k = 0
    v = 0
    while k < 60 - abs(pos[0] - 100)
        v += 1
        k += 1
    endwhile
    t[blkpos] = v
    syncthreads
    z[pos] = t[3 - blkpos[0], blkpos[1]] + y[pos]
endfunction

m = 200
n = 131
y = zeros(m, n)
parallel_do(size(y), y, heavy_rows)
% What heavy_rows computes, on the host, row by row (counts of k*7+j mod 3 over k).
want = zeros(m, n)
for i = 0..m - 1
    trips = max(0, 100 - abs(i - m / 2))
    cols = 0..n - 1
    full = floor(trips / 3)
    % 3 consecutive k give residues 0, 1, 2 in some order: a sum of 3 per full cycle.
    part = zeros(1, n)
    for k = full * 3..trips - 1
        part = part + mod(k * 7 + cols, 3)
    endfor
    want[i, :] = full * 3 + part + 1
endfor
print max(abs(y - want)) == 0

s1 = parallel_do(size(y), y, heavy_sum)
s2 = parallel_do(size(y), y, heavy_sum)
print abs(s1 - s2) <= 1e-4 * abs(s1)
print s1 > 0

mb = 200
nb = 128
yb = zeros(mb, nb) + 1
z = zeros(mb, nb)
parallel_do([[mb, nb], [4, 64]], yb, z, block_rows)
ok = 1
for i = 0..mb - 1
    src = floor(i / 4) * 4 + 3 - mod(i, 4)
    if max(abs(z[i, :] - (max(0, 60 - abs(src - 100)) + 1))) != 0
        ok = 0
    endif
endfor
print ok
z2 = zeros(mb, nb)
parallel_do([[mb, nb], [4, 64]], yb, z2, block_rows)
print max(abs(z2 - z)) == 0
