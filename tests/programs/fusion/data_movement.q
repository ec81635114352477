% Data movement as kernels: `transpose`, `repmat` and `copy` read their array through an
% index map (swapped dimensions, indices modulo the extents, the identity), so they fuse
% with the arithmetic around them; a copy is a new array the old one never sees.
% ==
% stdout {
% [ [1,4],
%   [2,5],
%   [3,6] ]
% [ [11,41],
%   [21,51],
%   [31,61] ]
% [ [1,2,3,1,2,3],
%   [4,5,6,4,5,6] ]
% [ [0,1,2],
%   [3,4,5],
%   [0,1,2],
%   [3,4,5] ]
% [2,3,2]6
% [ [7],
%   [8],
%   [9] ]
% [ [1,2,0],
%   [0,0,0] ][ [1,2,3],
%   [4,5,6] ]
% [ [2,3,4],
%   [5,6,7] ]
% }
g = [[1, 2, 3], [4, 5, 6]]
print transpose(g)
print transpose(g) .* 10 + 1
print repmat(g, [1, 2])
print repmat(g, 2, 1) - 1
r = repmat(g, [1, 1, 2])
print size(r), r[1, 2, 1]
print transpose([[7, 8, 9]])
c = copy(g)
c[c > 2] = 0
print c, g
print copy(g + 1)
