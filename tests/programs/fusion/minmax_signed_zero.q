% `min` and `max` of equal operands (+0 and -0) give the first one, and of a NaN the
% other one, on every tier: the interpreter, the JIT (strips included) and the C++
% tier's loops (whose inline fmin/fmax gave the second one) and CUDA (where NVRTC
% folded the same expression into the hardware's min/max, which orders -0 below +0;
% the select is now PTX that it cannot fold).
% ==
% options { --fuse-min 0 }
% stdout {
% [-Inf,Inf,1,Inf] 10
% [Inf,Inf,Inf,Inf] 0
% [-Inf,-Inf,1,-Inf] 30
% [-Inf,Inf,-Inf,-Inf] 30
% }
n = 40
x = zeros(n)
for i = 0..n-1
    x[i] = [-0.0, 0.0, 1, 0/0][mod(i, 4)]
endfor
a = 1 ./ max(x, 0)
b = 1 ./ min(0, x)
c = 1 ./ max(-0.0, x)
d = 1 ./ min(x, -0.0)
print a[0..3], " ", sum(a < 0)
print b[0..3], " ", sum(b < 0)
print c[0..3], " ", sum(c < 0)
print d[0..3], " ", sum(d < 0)
