% bytes: 50331648
% bound: compute
% 2048x2048 matrix product, tiled: each block of 32x32 threads computes a 32x32 tile of
% C, staging a 32x32 tile of A and one of B in shared memory at each step of the inner
% dimension (the textbook shared-memory kernel). The inputs are small multiples of 1/8,
% so every product and partial sum is exact in single precision.

function [] = __kernel__ make_matrices(A : mat'unchecked, B : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    A[pos] = mod(i * 3 + j * 5, 17) * 0.125 - 1
    B[pos] = mod(i * 7 + j * 2, 13) * 0.125 - 0.75
endfunction

% Launched with blocks of [32, 32]; the matrices are square with a multiple of 32 rows.
function [] = __kernel__ matmul_tiled(A : mat'unchecked, B : mat'unchecked, C : mat'unchecked, _
                                      pos : ivec2, blkpos : ivec2)
    tA = shared(32, 32)
    tB = shared(32, 32)
    acc = 0.0
    for t = 0..32..size(A, 1) - 1
        tA[blkpos] = A[pos[0], t + blkpos[1]]
        tB[blkpos] = B[t + blkpos[0], pos[1]]
        syncthreads
        for k = 0..31
            acc += tA[blkpos[0], k] * tB[k, blkpos[1]]
        endfor
        syncthreads
    endfor
    C[pos] = acc
endfunction

reps = 30
n = 2048
A = zeros(n, n)
B = zeros(n, n)
parallel_do(size(A), A, B, make_matrices)
C = zeros(n, n)

parallel_do([[n, n], [32, 32]], A, B, C, matmul_tiled)
for r = 1..reps
    tic()
    parallel_do([[n, n], [32, 32]], A, B, C, matmul_tiled)
    toc("rep")
endfor
print "checksum: ", sum(C) + sum(abs(C))
