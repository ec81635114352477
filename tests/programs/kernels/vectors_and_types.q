% Fixed-length vectors in kernel code (multi-assignment from a vector, position
% arithmetic, element-wise comparisons reduced with sum, vector reads and writes of
% channels), 'const parameters, and integer element types (uint8, int16, int).
% ==
% stdout {
% 1
% 1
% 1
% 1
% cube[uint8]
% [ [5,10,15],
%   [20,25,30] ]
% 1 [254,255,0,1] [-2,-1,0,0]
% }

% Multi-assignment, vector arithmetic and comparisons.
function [] = __kernel__ vec_ops(y : mat, pos : ivec2)
    [a, b] = pos + [1, 2]
    q = pos * 2 - [1, 1]
    inside = sum(pos >= [1, 1] && pos < [3, 4]) == 2
    y[pos] = inside ? 1000 + a * 10 + b : q[0] + q[1]
endfunction
y = zeros(4, 5)
parallel_do(size(y), y, vec_ops)
ok = 1
for i = 0..3
    for j = 0..4
        inside = i >= 1 && i < 3 && j >= 1 && j < 4
        ok = ok && y[i, j] == (inside ? 1000 + (i + 1) * 10 + (j + 2) : 2 * i - 1 + 2 * j - 1)
    end
end
print ok

% Channels as vectors: swap red and blue, read from a 'const input.
function [] = __kernel__ swap_rb(src : cube'const, dst : cube, pos : ivec2)
    rgb = src[pos[0], pos[1], 0..2]
    dst[pos[0], pos[1], 0..2] = [rgb[2], rgb[1], rgb[0]] + [0, 0, 0]
endfunction
im = zeros(3, 4, 3)
for i = 0..3 * 4 * 3 - 1
    im[floor(i / 12), mod(floor(i / 3), 4), mod(i, 3)] = i
end
out = zeros(size(im))
parallel_do(size(im, 0..1), im, out, swap_rb)
ok = 1
for i = 0..2
    for j = 0..3
        ok = ok && out[i, j, 0] == im[i, j, 2] && out[i, j, 1] == im[i, j, 1] && out[i, j, 2] == im[i, j, 0]
    end
end
print ok

% uint8 and int16 data: arithmetic happens in the kernel, results stored in the
% element type of the destination.
a8 = uint8(zeros(2, 3, 2))
for i = 0..1
    for j = 0..2
        for k = 0..1
            a8[i, j, k] = 40 * i + 20 * j + k
        end
    end
end
b16 = int16(zeros(2, 3, 2))
parallel_do(size(a8), a8, b16, __kernel__ (a : cube[uint8], b : cube[int16], pos : ivec3) -> b[pos] = 100 - 2 * a[pos])
ok = 1
for i = 0..1
    for j = 0..2
        for k = 0..1
            ok = ok && b16[i, j, k] == 100 - 2 * (40 * i + 20 * j + k)
        end
    end
end
print ok
parallel_do(size(a8), a8, __kernel__ (a : cube[uint8], pos : ivec3) -> a[pos] = a[pos] + 1)
print a8[1, 2, 1] == 82 && a8[0, 0, 0] == 1
print type(a8)

% An int matrix written by a kernel.
m = int(zeros(2, 3))
parallel_do(size(m), m, __kernel__ (m : mat[int], pos : ivec2) -> m[pos] = 5 * (pos[0] * 3 + pos[1] + 1))
print m

% Storing out-of-range and fractional values converts like host code: uint8 wraps,
% int truncates toward zero.
w8 = uint8(zeros(4))
parallel_do(4, w8, __kernel__ (a : vec[uint8], pos : int) -> a[pos] = 254 + pos)
wi = int(zeros(4))
parallel_do(4, wi, __kernel__ (a : vec[int], pos : int) -> a[pos] = pos - 2.7)
ok = 1
for p = 0..3
    ok = ok && w8[p] == mod(254 + p, 256) && wi[p] == int(p - 2.7)
end
print ok, " ", w8, " ", wi
