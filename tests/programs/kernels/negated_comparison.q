% Negating a comparison or logical result gives what host code gives: host code holds
% `a < b` as a scalar 0 or 1, so `-(a < b)` is the scalar -1 or -0, and dividing by a
% negated false comparison is -Inf (found by the random-kernel fuzzer, seed
% 1795682938). A boolean literal still negates to the int -1 or 0, in both.
% ==
% stdout {
% [-Inf,-1,-Inf,-1,-Inf]
% [-Inf,-1,-Inf,-1,-Inf]
% [-1,-1,-1,-1,-1]
% [-1,-1,-1,-1,-1]
% }
function [] = __kernel__ k(y : vec, z : vec[int], pos : int)
    y[pos] = 1 / float(-(pos < 0 || mod(pos, 2) == 1))
    z[pos] = -true
end
y = zeros(5)
z = int(zeros(5))
parallel_do(5, y, z, k)
h = zeros(5)
g = int(zeros(5))
for p = 0..4
    h[p] = 1 / float(-(p < 0 || mod(p, 2) == 1))
    g[p] = -true
end
print y
print h
print z
print g
