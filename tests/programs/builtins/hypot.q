% hypot(x, y) = sqrt(x^2 + y^2) without overflow or underflow in the squares. Ints and
% reals give reals, arguments broadcast like the operators; host scalars, whole-array
% expressions (fused kernels on large arrays), a loop that becomes a kernel and a
% __kernel__ function agree.
% ==
% tolerance { 1e-5 }
% stdout {
% 5
% 13
% [5,13,17]
% [5,10,15]
% 1e30
% 25
% 10
% [0,5,10,20475]
% [5,13,17,25]
% [5,13,17,25]
% }
print hypot(3, 4)
print hypot(int32(5), 12)
print hypot([3, 5, 8], [4, 12, 15])
print hypot([3, 6, 9], 4 * [1, 2, 3])
print hypot(6e29, 8e29)

% Whole arrays: fused into one kernel where the arrays are large.
n = 100000
a = zeros(n) + 7
b = zeros(n) + 24
print max(hypot(a, b))
print min(hypot(a - 1, b - 16) + 0)

% A loop over the elements becomes a kernel (at 4096 iterations and more), here with
% int arguments.
m = 4096
r = zeros(m)
for i = 0..m-1
    r[i] = hypot(3 * i, 4 * i)
end
print [r[0], r[1], r[2], r[m - 1]]

% Kernel code.
xs = [3, 5, 8, 7]
ys = [4, 12, 15, 24]
function [] = __kernel__ hyp(x : vec, y : vec, out : vec, pos : int)
    out[pos] = hypot(x[pos], y[pos])
end
function [] = __kernel__ hyp_int(x : vec[int], y : vec[int], out : vec, pos : int)
    out[pos] = hypot(x[pos], y[pos])
end
out = zeros(4)
parallel_do(4, xs, ys, out, hyp)
print out
out2 = zeros(4)
parallel_do(4, int(xs), int(ys), out2, hyp_int)
print out2
