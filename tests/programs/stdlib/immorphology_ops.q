% immorphology.q: erosion, dilation, opening and closing with an asymmetric 2x3 mask of
% origin [0, 1], then the ordering opening <= x <= closing on a cube.
% Reference: NumPy loops of the definitions in the module's header (erosion: min of
% x[p + (m - origin)], dilation: max of x[p - (m - origin)], over nonzero mask entries
% inside the image).
% ==
% stdout {
% [ [0,0,1,1,1,2],
%   [2,0,0,4,1,1],
%   [2,2,1,0,0,3],
%   [4,2,2,1,0,0],
%   [4,4,5,5,2,2] ]
% [ [5,9,9,7,7,2],
%   [8,5,9,9,9,9],
%   [8,8,8,8,6,9],
%   [6,9,9,8,8,5],
%   [8,8,9,9,6,6] ]
% [ [0,1,1,1,2,2],
%   [2,0,4,4,1,2],
%   [2,2,1,4,4,3],
%   [4,2,2,1,0,3],
%   [4,5,5,5,2,2] ]
% [ [5,5,9,7,7,2],
%   [8,5,5,6,6,9],
%   [6,8,8,8,5,5],
%   [6,6,9,6,6,5],
%   [8,8,8,9,6,6] ]
% [5,6,2]
% 1
% }
import "immorphology.q"
x = [[5, 1, 9, 3, 7, 2], [8, 0, 4, 6, 1, 9], [2, 7, 3, 8, 5, 4], [6, 2, 9, 1, 0, 3], _
    [4, 8, 5, 7, 2, 6]]
mask = [[1, 1, 0], [0, 1, 1]]
print imerode(x, mask, [0, 1])
print imdilate(x, mask, [0, 1])
print imopen(x, mask, [0, 1])
print imclose(x, mask, [0, 1])
c = zeros(5, 6, 2)
c[:, :, 0] = x
c[:, :, 1] = transpose(reshape(0..29, [6, 5])) * 0.5
disk = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
o = imopen(c, disk, [1, 1])
k = imclose(c, disk, [1, 1])
print size(o)
print sum(o > c) + sum(k < c) == 0
