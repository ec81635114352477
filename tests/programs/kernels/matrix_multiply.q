% Three matrix-product kernels against the host product A * B: a shared-memory
% reduction over the inner dimension for a small result, the tiled kernel with two
% shared tiles, and the naive kernel. Inputs are small integers, so results are exact.
% ==
% stdout {
% 32
% 1
% [8,8]
% 1
% 1
% 1
% }

% 1. Small result (M x N tiny, inner dimension long): one block of [P, M, N] threads.
function [] = __kernel__ mul_reduce(a : mat'unchecked, b : mat'unchecked, c : mat'unchecked, blkdim : ivec3, blkpos : ivec3)
    n = size(a, 1)
    bins = shared(blkdim)
    nblocks = int(ceil(n / blkdim[0]))
    val = 0.0
    for m = 0..nblocks - 1
        if blkpos[0] + m * blkdim[0] < n
            d = blkpos[0] + m * blkdim[0]
            val += a[blkpos[1], d] * b[d, blkpos[2]]
        endif
    endfor
    bins[blkpos] = val
    syncthreads
    bit = 1
    while bit < blkdim[0]
        if mod(blkpos[0], bit * 2) == 0
            bins[blkpos] += bins[blkpos + [bit, 0, 0]]
        endif
        syncthreads
        bit *= 2
    endwhile
    if blkpos[0] == 0
        c[blkpos[1], blkpos[2]] = bins[0, blkpos[1], blkpos[2]]
    endif
endfunction

% 2. Tiled: each block copies a tile of A and a tile of B into shared memory.
function [] = __kernel__ mul_tiled(A : mat'unchecked, B : mat'unchecked, C : mat'unchecked, T : int, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    sA = shared(blkdim[0], T)
    sB = shared(T, blkdim[1])
    acc = 0.0
    for m = 0..T..size(A, 1) - 1
        for n = blkpos[1]..blkdim[1]..T - 1
            sA[blkpos[0], n] = pos[0] < size(A, 0) && m + n < size(A, 1) ? A[pos[0], m + n] : 0.0
        endfor
        for n = blkpos[0]..blkdim[0]..T - 1
            sB[n, blkpos[1]] = m + n < size(B, 0) && pos[1] < size(B, 1) ? B[m + n, pos[1]] : 0.0
        endfor
        syncthreads
        for n = 0..T - 1
            acc += sA[blkpos[0], n] * sB[n, blkpos[1]]
        endfor
        syncthreads
    endfor
    if pos[0] < size(C, 0) && pos[1] < size(C, 1)
        C[pos] = acc
    endif
endfunction

% 3. Naive.
function [] = __kernel__ mul_naive(A : mat'unchecked, B : mat'unchecked, C : mat'unchecked, pos : ivec2)
    acc = 0.0
    for m = 0..size(A, 1) - 1
        acc += A[pos[0], m] * B[m, pos[1]]
    endfor
    C[pos] = acc
endfunction

function A = test_matrix(m, n, seed)
    A = zeros(m, n)
    for i = 0..m - 1
        for j = 0..n - 1
            A[i, j] = mod(i * seed + j * 7 + i * j, 11) - 5
        end
    end
end

% Small result: (2 x 40) * (40 x 3).
A = test_matrix(2, 40, 3)
B = test_matrix(40, 3, 5)
[M, N] = [size(A, 0), size(B, 1)]
P = prevpow2(max_block_size(mul_reduce, [size(A, 1), M * N])[0])
print P
C1 = zeros(M, N)
parallel_do([[P, M, N], [P, M, N]], A, B, C1, mul_reduce)
print sum(abs(C1 - A * B)) == 0

% Square-ish: (20 x 24) * (24 x 18), tiles of 8 x 8, index space rounded up.
A = test_matrix(20, 24, 3)
B = test_matrix(24, 18, 5)
C2 = zeros(20, 18)
blk = max_block_size(mul_tiled, [8, 8])
print blk
sz = ceil(size(C2, 0..1) ./ blk) .* blk
parallel_do([sz, blk], A, B, C2, 8, mul_tiled)
print sum(abs(C2 - A * B)) == 0

% Naive: (30 x 3) * (3 x 25).
A = test_matrix(30, 3, 3)
B = test_matrix(3, 25, 5)
C3 = zeros(30, 25)
parallel_do(size(C3), A, B, C3, mul_naive)
print sum(abs(C3 - A * B)) == 0
print sum(abs(C3)) > 0
