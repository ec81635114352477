% Complex `^` follows one rule on every path (blazar_ops::scalar): an integer exponent
% up to 65536 in magnitude multiplies exactly (so `1i ^ 2` is exactly -1), `0 ^ w` is 0
% when re(w) > 0 and infinite otherwise, and `0 ^ 0` is 1; an int raised to an int is
% real. The same table is computed by host scalars, host arrays, a fused whole-array
% expression (`--fuse-min 0`), a parallel loop run as a kernel and a `__kernel__`.
% ==
% options { --fuse-min 0 }
% stdout {
% [-1+0i,1+0i,-2+2i,0-0.5i,1024+0i,0+0i,Inf+0i,1+0i,-1+0i]
% [-1+0i,1+0i,-2+2i,0-0.5i,1024+0i,0+0i,Inf+0i,1+0i,-1+0i]
% [-1+0i,1+0i,-2+2i,0-0.5i,1024+0i,0+0i,Inf+0i,1+0i,-1+0i]
% [-1+0i,1+0i,-2+2i,0-0.5i,1024+0i,0+0i,Inf+0i,1+0i,-1+0i]
% [-1+0i,1+0i,-2+2i,0-0.5i,1024+0i,0+0i,Inf+0i,1+0i,-1+0i]
% [1024,27,-8,0.5] [1024,27,-8,0.5] scalar
% }
function [] = __kernel__ kpow(x : cvec'checked, e : cvec'checked, y : cvec'checked, pos : int)
    y[pos] = x[pos] ^ e[pos]
end
function [] = __kernel__ ipow(a : vec[int]'checked, b : vec[int]'checked, y : vec'checked, pos : int)
    y[pos] = a[pos] ^ b[pos]
end
x = [1i, 1i, 1 + 1i, 1 + 1i, 2 + 0i, 0i, 0i, 0i, 1i]
e = [2, 4, 3, -2, 10, 0.5 + 1i, -0.5, 0, 65534]
n = numel(x)

% Host scalars, one by one.
s = complex(zeros(n))
for i = 0..n - 1
    s[i] = x[i] ^ e[i]
end
#pragma force_serial
for i = 0..n - 1
    s[i] = x[i] ^ e[i]
end
print s

% Host arrays (and a fused kernel under --fuse-min 0).
print x .^ e
print x .^ e + 0

% A parallel loop, run as a kernel.
h = complex(zeros(n))
#pragma force_parallel
for i = 0..n - 1
    h[i] = x[i] ^ e[i]
end
print h

% A kernel.
y = complex(zeros(n))
parallel_do(n, x, e, y, kpow)
print y

% int ^ int is real everywhere.
a = int([2, 3, -2, 2])
b = int([10, 3, 3, -1])
r = zeros(4)
parallel_do(4, a, b, r, ipow)
print a .^ b, " ", r, " ", type(a[0] ^ b[0])
