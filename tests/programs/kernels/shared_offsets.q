% Shared-memory reads and writes at `blkpos + k`, `blkpos - k` and `k - blkpos` for
% offsets k up to the ends of the int range, where the index arithmetic overflows:
% an element outside the array reads zero and is not written, whatever the offset
% (the native tier computes these indices in 64 bits inside its thread loops,
% `codegen-c/cpp/widen.rs`, where a wrapped index and an exact one are both outside).
% Blocks of 64 threads in rows of 2, a barrier between the writes and the reads; then
% the same on a global array.
% ==
% stdout {
% 1 [87360,87360,4,4096]
% -3 [83204,83204,0,14]
% 7 [74936,74936,120,26075]
% 63 [64,64,45760,89439]
% 64 [0,0,47775,89440]
% 2147483645 [0,0,0,89440]
% 2147483647 [0,0,0,89440]
% -2147483648 [0,0,0,89440]
% -2147483647 [0,0,0,89440]
% 5 2868628
% -7 2097258
% 100 8685767
% 2147483645 0
% -2147483648 0
% -2147483600 0
% }

function [] = __kernel__ offsets(y : mat, k : int, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    n = blkdim[1]
    t = blkpos[1]
    s = shared(n)
    s[t] = t + 1
    syncthreads
    a = s[t + k]
    b = s[t - k]
    c = s[k - t]
    syncthreads
    s[t - k] = 0
    syncthreads
    y[pos[0], 4 * t] = a
    y[pos[0], 4 * t + 1] = b
    y[pos[0], 4 * t + 2] = c
    y[pos[0], 4 * t + 3] = s[t]
endfunction

function [] = run(k)
    y = zeros(2, 256)
    parallel_do([[2, 64], [1, 64]], y, k, offsets)
    w = zeros(4)
    for t = 0..63
        for q = 0..3
            w[q] = w[q] + y[1, 4 * t + q] * (t + 1)
        endfor
    endfor
    print k, " ", w
endfunction

run(1)
run(-3)
run(7)
run(63)
run(64)
run(2147483645)
run(2147483647)
run(-2147483648)
run(-2147483647)

% The same offsets on a global array, read and written from a kernel with a barrier.
function [] = __kernel__ global_offsets(y : mat, g : vec, k : int, pos : ivec2, blkpos : ivec2)
    t = blkpos[1]
    a = g[t + k]
    b = g[t - k]
    c = g[k - t]
    syncthreads
    y[pos[0], 3 * t] = a
    y[pos[0], 3 * t + 1] = b
    y[pos[0], 3 * t + 2] = c
    syncthreads
    y[pos[0], t + k] = y[pos[0], t + k] + 1000
endfunction

function [] = run_global(k)
    g = zeros(64)
    for i = 0..63
        g[i] = i + 1
    endfor
    y = zeros(2, 192)
    parallel_do([[2, 64], [1, 64]], y, g, k, global_offsets)
    print k, " ", sum(y[1, :] .* (1..192))
endfunction

run_global(5)
run_global(-7)
run_global(100)
run_global(2147483645)
run_global(-2147483648)
run_global(-2147483600)
