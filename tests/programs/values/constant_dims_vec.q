% Seed 002: "A = zeros([1,1,4]) creates a vector of length 4". A dims vector written as
% a literal of constants [1, ..., 1, N] makes a vec of N, decided when the program is
% compiled (also in kernels, where it is a register vector). A dims vector known only
% when the program runs keeps every extent: zeros(size(c)) of a 1x1x4 cube is a 1x1x4
% cube, zeros(1, 1, 4) (separate extents) is MATLAB's 1x1x4 cube, and reshape to
% [1, M, N] stays a cube.
% ==
% stdout {
% vec [1,4] vec vec
% [1,1,4] cube [1,1,4] cube
% [1,3,4] cube
% [1,2,3] cube[int]
% [6,22,38]
% }
a = zeros([1, 1, 4])
print type(a), " ", size(a), " ", type(ones([1, 1, 1, 8])), " ", type(uninit([1, 1, 4]))
c = zeros(1, 1, 4)
d = zeros(size(c))
print size(c), " ", type(c), " ", size(d), " ", type(d)
print size(zeros([1, 3, 4])), " ", type(zeros([1, 3, 4]))
M = 2
N = 3
print size(reshape(0..5, [1, M, N])), " ", type(reshape(0..5, [1, M, N]))

function [] = __kernel__ row_sums(x : mat, y : vec, pos : int)
    acc = zeros([1, 1, 4])
    for j = 0..3
        acc[j] = x[pos, j]
    end
    y[pos] = sum(acc)
end
y = zeros(3)
parallel_do(3, reshape(0..11, [3, 4]), y, row_sums)
print y
