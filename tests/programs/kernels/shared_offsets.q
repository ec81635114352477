% Shared-memory reads and writes at `blkpos + k`, `blkpos - k` and `k - blkpos` for
% offsets k up to the ends of the int range, where the index arithmetic overflows:
% an element outside the array reads zero and is not written, whatever the offset
% (the native tier computes these indices in 64 bits inside its thread loops,
% `codegen-c/cpp/widen.rs`, where a wrapped index and an exact one are both outside).
% Blocks of 64 threads in rows of 2, a barrier between the writes and the reads.
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
