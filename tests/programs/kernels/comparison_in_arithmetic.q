% A comparison in host code is a real 0 or 1; in a kernel it is a boolean that
% computes as the int 0 or 1. They agree wherever real and int arithmetic do, and
% differ where those differ: `mod` by a false comparison is NaN on the host (real
% mod by zero) and 0 in a kernel (int mod by zero), on every backend.
% ==
% stdout {
% [1,-1,2,0]
% [1,-1,2,0]
% NaN 0
% }
function [] = __kernel__ k(y : vec, z : vec, pos : int)
    y[pos] = [max(pos < 2, pos > 5), -(pos < 3), (pos < 3) + (pos < 4), mod(pos < 9, pos < 5)][pos]
    z[pos] = mod(pos < 9, pos > 5)
end
y = zeros(4)
z = zeros(4)
parallel_do(4, y, z, k)
print y
h = zeros(4)
for p = 0..3
    h[p] = [max(p < 2, p > 5), -(p < 3), (p < 3) + (p < 4), mod(p < 9, p < 5)][p]
end
print h
print mod(1 < 9, 1 > 5), " ", z[1]
