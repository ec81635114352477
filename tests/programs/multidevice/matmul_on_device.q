% Matrix products between kernels: each operand 128x128 (16384 elements, large enough
% for a GPU's cuBLAS), the first made by kernels, the result read by a kernel and
% multiplied again. Over several GPUs the products run on the GPU holding the operands
% and their results stay there; simulated devices leave them to the host. Integer
% values: every product is exact in double precision, whatever the order of the sums.
% ==
% options { --double }
% stdout {
% 12581536 25179456 6445741862
% 764 788 392015
% }
n = 128
a = zeros(n, n)
parallel_do(size(a), a, __kernel__ (x : mat, pos : ivec2) -> _
    x[pos] = mod(pos[0] + 2 * pos[1], 5))
b = zeros(n, n)
parallel_do(size(b), b, __kernel__ (x : mat, pos : ivec2) -> _
    x[pos] = mod(3 * pos[0] + pos[1], 7))
c = a * b
d = c * 2 + 1
e = d * a
print sprintf("%.0f %.0f %.0f", sum(c), sum(d), sum(e))
print sprintf("%.0f %.0f %.0f", c[0, 0], c[n - 1, n - 1], e[5, 7])
