% Gathers `x[idx]` with an int array of linear indices run as kernels (AIR tables): a
% lookup table applied to an image (uint8 indices), indices computed inside the same
% fused expression (`lut[int(x)]`), gathers combined element-wise, a gather from a
% matrix in row-major order, a `'safe` table reading 0 outside, a reduction of a gather,
% and `y = y[idx]` (the result never overwrites its own table). An index outside a
% default table is the host's located error, raised by the kernel.
% ==
% options { --fuse-min 0 }
% stdout {
% [0,16,22.627417,27.712812,32]
% [1,33,46.254833,56.425625,65]
% [16,39.191837,16,39.191837]
% [ [0,1,2],
%   [10,11,12] ]
% [12,0,10,2,11]
% [3,0,0,5]
% 38
% [40,30,20,10]
% }
% error: gathers.q:40:5: error: index 8 is out of bounds for dimension 0 of size 8
lut = [0, 16, 22.627417, 27.712812, 32, 35.777088, 39.191836, 42.332021]
img = uint8([0, 1, 2, 3, 4])
print lut[img]
x = [0.2, 1.5, 2.9, 3.1, 4.7]
print lut[int(x)] * 2 + 1
i = int([4, 6, 4, 6])
print (lut[i] + lut[i - 4 * int([1, 0, 1, 0])]) / 2
M = [[0, 1, 2], [10, 11, 12]]
print M
print M[int([5, 0, 3, 2, 4])]
function y = pick(t : vec'safe, i : ivec)
    y = t[i]
endfunction
print pick([3, 5], int([0, -1, 7, 1]))
print sum(lut[int([1, 2, 3, 1, 2])] .* 0 + M[int([0, 4, 5, 3, 0])] + int([1, 1, 1, 1, 1]))
y = [10, 20, 30, 40]
y = y[int([3, 2, 1, 0])]
print y
k = int([0, 3, 8])
q = lut[k] + 1
