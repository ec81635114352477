% bytes: 50331648
% bound: compute
% 2048x2048 host matrix product C = A * B of two device-resident matrices: both
% operands are produced by a kernel, so Blazar runs the product through cuBLAS (SGEMM)
% without copying them back. Measures the host-level matrix product, not a Quasar
% kernel. Same inputs as benches/cuda/matmul (small multiples of 1/8, so every product
% and partial sum is exact in single precision) and the same checksum.

function [] = __kernel__ make_matrices(A : mat'unchecked, B : mat'unchecked, pos : ivec2)
    i = pos[0]
    j = pos[1]
    A[pos] = mod(i * 3 + j * 5, 17) * 0.125 - 1
    B[pos] = mod(i * 7 + j * 2, 13) * 0.125 - 0.75
endfunction

reps = 30
n = 2048
A = zeros(n, n)
B = zeros(n, n)
parallel_do(size(A), A, B, make_matrices)

C = A * B
for r = 1..reps
    tic()
    C = A * B
    toc("rep")
endfor
print "checksum: ", sum(C) + sum(abs(C))
