% bytes: 3145728
% Naive 512x512 matrix product: one thread per output element, a dot product of a row
% of A and a column of B. The inputs are small multiples of 1/8, so every product and
% partial sum is exact in single precision.

function [] = __kernel__ make_matrices(A : mat'unchecked, B : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    A[pos] = mod(i * 3 + j * 5, 17) * 0.125 - 1
    B[pos] = mod(i * 7 + j * 2, 13) * 0.125 - 0.75
endfunction

function [] = __kernel__ matmul(A : mat'unchecked, B : mat'unchecked, C : mat'unchecked, pos : ivec2)
    acc = 0.0
    for k = 0..size(A, 1) - 1
        acc += A[pos[0], k] * B[k, pos[1]]
    endfor
    C[pos] = acc
endfunction

reps = 7
n = 512
A = zeros(n, n)
B = zeros(n, n)
parallel_do(size(A), A, B, make_matrices)
C = zeros(n, n)

parallel_do(size(C), A, B, C, matmul)
for r = 1..reps
    tic()
    parallel_do(size(C), A, B, C, matmul)
    toc("rep")
endfor
print "checksum: ", sum(C) + sum(abs(C))
