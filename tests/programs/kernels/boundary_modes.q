% Read boundary modes inside kernels, each from a kernel parameter modifier: the
% default and 'safe give zero extension, 'circular wraps, 'mirror reflects
% (-1 -> 1, N -> N-1), 'clamped repeats the edge. Each kernel reads x[pos - 3] for
% every pos in 0..10 of a vector of 5, and is compared with host reads of the same
% modes. Writes outside an array are ignored under the default, 'safe and 'circular.
% Then all modes in two dimensions.
% ==
% stdout {
% [0,0,0,10,20,30,40,50,0,0,0]
% [0,0,0,10,20,30,40,50,0,0,0]
% [30,40,50,10,20,30,40,50,10,20,30]
% [40,30,20,10,20,30,40,50,50,40,30]
% [10,10,10,10,20,30,40,50,50,50,50]
% 1
% [1,2,3,4,5]
% [1,2,3,4,5]
% 1
% [23,0,11,11,23,12]
% }
x = [10, 20, 30, 40, 50]
n = 11
r0 = zeros(n)
r1 = zeros(n)
r2 = zeros(n)
r3 = zeros(n)
r4 = zeros(n)
parallel_do(n, x, r0, __kernel__ (x : vec, y : vec, pos : int) -> y[pos] = x[pos - 3])
parallel_do(n, x, r1, __kernel__ (x : vec'safe, y : vec, pos : int) -> y[pos] = x[pos - 3])
parallel_do(n, x, r2, __kernel__ (x : vec'circular, y : vec, pos : int) -> y[pos] = x[pos - 3])
parallel_do(n, x, r3, __kernel__ (x : vec'mirror, y : vec, pos : int) -> y[pos] = x[pos - 3])
parallel_do(n, x, r4, __kernel__ (x : vec'clamped, y : vec, pos : int) -> y[pos] = x[pos - 3])
print r0
print r1
print r2
print r3
print r4

% The same reads in host code through views with the modifiers.
xs : vec'safe = x
xc : vec'circular = x
xm : vec'mirror = x
xk : vec'clamped = x
ok = 1
for p = 0..n - 1
    ok = ok && r1[p] == xs[p - 3] && r2[p] == xc[p - 3] && r3[p] == xm[p - 3] && r4[p] == xk[p - 3]
end
print ok

% Writes outside the array are ignored (default and 'circular write as 'safe).
w = zeros(5)
parallel_do(9, w, __kernel__ (y : vec, pos : int) -> y[pos - 2] = pos - 1)
print w
v = zeros(5)
parallel_do(9, v, __kernel__ (y : vec'circular, pos : int) -> y[pos - 2] = pos - 1)
print v

% Two dimensions: every mode per dimension, against host views.
M = zeros(3, 4)
for i = 0..2
    for j = 0..3
        M[i, j] = 10 * i + j
    end
end
function [] = __kernel__ shifted_reads(a : mat'mirror, b : mat'clamped, c : mat'circular, d : mat'safe, out : cube, pos : ivec2)
    q = pos - [2, 3]
    out[pos[0], pos[1], 0..3] = [a[q], b[q], c[q], d[q]]
endfunction
out = zeros(7, 10, 4)
parallel_do([7, 10], M, M, M, M, out, shifted_reads)
Mm : mat'mirror = M
Mk : mat'clamped = M
Mc : mat'circular = M
Ms : mat'safe = M
ok = 1
for i = 0..6
    for j = 0..9
        ok = ok && out[i, j, 0] == Mm[i - 2, j - 3] && out[i, j, 1] == Mk[i - 2, j - 3]
        ok = ok && out[i, j, 2] == Mc[i - 2, j - 3] && out[i, j, 3] == Ms[i - 2, j - 3]
    end
end
print ok
print [out[0, 0, 0], out[0, 0, 1], out[0, 0, 2], out[6, 9, 0], out[6, 9, 1], out[6, 9, 2]]
