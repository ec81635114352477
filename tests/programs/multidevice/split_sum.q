% Reductions of arrays made across devices: a sum, a max and a product of sums over
% a large vector whose halves come from kernels that may run on different devices.
% ==
% stdout {
% 2001000
% 2000
% 6003000
% }
n = 2000
a = zeros(n)
parallel_do(n, a, __kernel__ (v : vec, pos : int) -> _
    v[pos] = pos + 1)
b = a * 2
print sprintf("%d", sum(a))
print sprintf("%d", max(a))
c = a + b
print sprintf("%d", sum(c))
