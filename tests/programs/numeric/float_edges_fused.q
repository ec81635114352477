% Floating-point corner cases give the host's answers on both CPU tiers, in vector
% lanes and scalar tails alike (issue 32, items 7 and 8): `-Inf .^ 0.5` is +Inf and
% `-0 .^ 0.5` is +0 (C's pow; GCC would make pow(x, 0.5) a sqrt, NaN and -0 there);
% an int converted from -0.0 is +0, so `1 ./ int8(-0.0)` is +Inf (`int8` rounds
% halves away from zero, `int` truncates); min
% and max of int64 values past 32 bits; `saturate(NaN)` is 0 as `clamp(NaN, 0, 1)`.
% This is `float_edges.q` with every array expression fused.
% ==
% options { --fuse-min 0 }
% stdout {
% [Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf]
% [Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf]
% [Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf]
% [-Inf,-Inf,-Inf,-Inf,-Inf,-Inf,-Inf,-Inf,-Inf]
% [Inf,-0.5,1,-1,0.5,Inf,Inf,Inf,Inf]
% [Inf,-0.5,Inf,Inf,1,Inf,Inf,Inf,Inf]
% [Inf,0.5,Inf,1,Inf,Inf,Inf,Inf,Inf]
% [1,3,3,-3000000000,3,3,3,3,3]
% [4,5,3000000000,4,7,8,9,10,11]
% [0,0,0.5,1,1,0,0,0,0]
% 0
% 0
% [Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf]
% [Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf,Inf]
% [-12000000000,-9000000000,-6000000000,-3000000000,0,3,3,3,3]
% [0,0,0,0,0,0,0,0,0]
% }
x = zeros(9) - 1/0
print x .^ 0.5
w = -zeros(9)
print 1 ./ (w .^ 0.5)
print x .^ 2
print x .^ 3
y = [0.0, 2, -0.5, 0.5, -1.5, 0, 0, 0, 0]
print 1 ./ int8(-y)
print 1 ./ int(-y)
print 1 ./ uint16(y)
big = int64([1, 5, 3000000000, -3000000000, 7, 8, 9, 10, 11])
print min(big, 3)
print max(big, int8(4))
print saturate([0/0, -1, 0.5, 2, 1/0, -1/0, 0, 0, 0])
print saturate(0/0)
print clamp(0/0, 0, 1)
function [] = __kernel__ edges(x : vec, w : vec, r : vec, q : vec, m : vec[int64], s : vec, pos : int)
    r[pos] = x[pos] ^ 0.5 + 1 / (w[pos] ^ 0.5)
    q[pos] = 1 / int8(w[pos])
    m[pos] = min(int64(3000000000) * (pos - 4), 3)
    s[pos] = saturate(x[pos] * 0)
endfunction
r = zeros(9)
q = zeros(9)
m = int64(zeros(9))
s = ones(9)
parallel_do(9, x, w, r, q, m, s, edges)
print r
print q
print m
print s
