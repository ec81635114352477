% meshgrid, diag (vector to matrix and matrix to vector, with an offset) and trace.
% Reference: NumPy, np.meshgrid(x, y), np.diag(v, k), np.diag(M, k), np.trace.
% ==
% stdout {
% [ [1,2,3],
%   [1,2,3] ]
% [ [10,10,10],
%   [20,20,20] ]
% [ [1,0,0],
%   [0,2,0],
%   [0,0,3] ]
% [ [0,1,0],
%   [0,0,2],
%   [0,0,0] ]
% [ [0,0,0],
%   [5,0,0],
%   [0,6,0] ]
% [1,6,11]
% [2,7,12]
% [5,10]
% 12
% [3,3]
% }
[X, Y] = meshgrid([1, 2, 3], [10, 20])
print X
print Y
print diag([1, 2, 3])
print diag([1, 2], 1)
print diag([5, 6], -1)
M = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
print diag(M)
print diag(M, 1)
print diag(M, -1)
print trace([[0, 1, 2], [3, 4, 5], [6, 7, 8]])
print size(meshgrid(0..2))
