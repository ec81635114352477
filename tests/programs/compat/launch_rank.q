% Launch sizes and positions of different rank: trailing extents of 1 drop
% (`[4, 8, 1]` with `pos : ivec2`), missing dimensions are 1 (`size(img)` of a matrix
% with `pos : ivec3` or `vec3`), in the data and the block dimensions alike.
% ==
% stdout {
% 60 37
% [ [0,1,2],
%   [10,11,12] ]
% [ [0,2,4],
%   [20,22,24] ]
% [ [0,1,2,3,0,1,2,3],
%   [0,1,2,3,0,1,2,3] ]
% }
function [] = __kernel__ k2(y : mat, pos : ivec2)
  y[pos] = 10 * pos[0] + pos[1]
end
y = zeros(4, 8)
parallel_do([4, 8, 1], y, k2)
print sum(y[:, 0]), " ", y[3, 7]
img = zeros(2, 3)
function [] = __kernel__ k3(img : mat, pos : ivec3)
  img[pos[0], pos[1]] = 10 * pos[0] + pos[1] + pos[2]
end
parallel_do(size(img), img, k3)
print img
function [] = __kernel__ kv(img : mat, pos : vec3)
  img[pos[0], pos[1]] = 2 * (10 * pos[0] + pos[1]) + pos[2]
end
parallel_do(size(img), img, kv)
print img
function [] = __kernel__ kb(y : mat, blkpos : ivec2, pos : ivec2)
  y[pos] = blkpos[1]
end
z = zeros(2, 8)
parallel_do([[2, 8, 1], [1, 4, 1]], z, kb)
print z
