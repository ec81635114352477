% Whole-array statements that the JIT tier runs in vector strips on a first run (issue
% 26): reductions with NaNs in them, comparisons, `min`/`max` with a scalar (a NaN
% gives the scalar), powers with the host's special values, and math functions of the
% vector math library checked against identities (they may differ from the host's by
% a few ulp); slices of elements a constant step apart are copied on the host. With
% every array fused, each row prints the host's values.
% ==
% options { --fuse-min 0 }
% stdout {
% 150 -100 NaN
% 24746 24.746 5822204 1024
% 515 204 2
% 105086 100 100 100
% -32960 -20 -20
% Inf Inf Inf 2
% 1
% 1
% 1
% 1
% [30,13] 572910 2937 [10,1] 11050 [1,10] 3180
% }
n = 1000
x = zeros(n)
for i = 0..n-1
    x[i] = mod(i * 37, 251) - 100
endfor
x[3] = 0/0
x[777] = 0/0
x[500] = -0.0
% Reductions: NaNs left out of max and min.
print max(x), " ", min(x), " ", sum(x)
y = copy(x)
y[3] = 1
y[777] = 2
print sum(y), " ", mean(y), " ", sum((y - 1).^2), " ", prod(y[0..9] .* 0 + 2)
% Comparisons, min and max with a scalar (a NaN gives the scalar).
c = x > 20
print sum(c), " ", sum(x <= -50), " ", sum(x != x)
m = max(x, 100)
print sum(m), " ", m[3], " ", m[777], " ", min(m)
l = min(x, -20)
print sum(l), " ", l[3], " ", max(l)
% Powers: the host's special values; math functions against identities.
s = zeros(40)
s[0..9] = -1/0
s[10..19] = -0.0
s[20..29] = 1/0
s[30..39] = 4
p = s .^ 0.5
print p[0], " ", 1 / p[15], " ", p[25], " ", p[35]
a = abs(y) + 1
print max(abs(atan2(a, a) - pi / 4)) < 1e-6
print max(abs((a .^ 2) .^ 0.5 - a) ./ a) < 1e-6
print max(abs(exp(log(a)) - a) ./ a) < 1e-5
print max(abs(255 * (a / 255) .^ 0.45 - 255 * exp(0.45 * log(a / 255))) ./ a) < 1e-5
% Slices of elements a constant step apart: copied row by row on the host.
A = zeros(30, 40)
for i = 0..29
    A[i, :] = i * 100 + (0..39)
endfor
B = A[:, 1..3..39]
C = A[2..2..20, 5]
D = A[3, 0..4..39]
print size(B), " ", sum(B), " ", B[29, 12], " ", size(C), " ", sum(C), " ", size(D), " ", sum(D)
