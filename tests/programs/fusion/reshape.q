% `reshape(x, dims)` and `x[:]` inside fused expressions read the array in place, at
% the result's linear index (row-major order does not change), so `2 * reshape(x, d)`
% is one kernel that copies nothing: several dimension forms, leading and trailing
% unit dimensions, cubes, empty arrays, ints and complex values, reductions of all
% elements and along a dimension, and broadcasting. A statement `y = reshape(x, d)`
% is a view of x's elements (no kernel, no copy): a write through either name is seen
% through the other. `x[:]` stays a copy, as every slice read is.
% ==
% options { --fuse-min 0 }
% stdout {
% [ [1,2],
%   [3,4],
%   [5,6] ][1,2,3,4,5,6][1,2,3,4,5,6][1,2,3]
% [ [3,5],
%   [7,9],
%   [11,13] ]91[1,2,3,4,5,6][2,3,4,5,6,7]
% [ [2,3],
%   [4,5],
%   [6,7] ][6,1][2,1,3]
% [ [-1,0,-1],
%   [-1,1,-1],
%   [-1,2,-1],
%   [-1,3,-1] ][1,12]4
% [3,7,11][ [1,2],
%   [4,6],
%   [9,12] ][ [11,22],
%   [13,24],
%   [15,26] ]
% vec[int][ [2,4],
%   [6,8],
%   [10,12] ]vec[int][0,1,2,3,4,5]
% [ [1-1i,2-2i],
%   [3-3i,4-4i],
%   [5-5i,6-6i] ][1+1i,2+2i,3+3i,4+4i,5+5i,6+6i]
% [3,0][0,4][7]
% [ [100,2,3],
%   [4,5,-6] ][ [100,2],
%   [3,4],
%   [5,-6] ]
% [100,2,3,4,5,-6][ [100,2,3],
%   [4,5,-6] ]
% }
A = [[1, 2, 3], [4, 5, 6]]
print reshape(A, [3, 2]), reshape(A, 6), reshape(A, 1, 6), size(reshape(A, [1, 2, 3]))
print reshape(A, [3, 2]) * 2 + 1, sum(reshape(A, [3, 2]) .^ 2), A[:], A[:] + 1
print reshape(A + 1, [3, 2]), size(reshape(A, [6, 1])), size(reshape(A, [2, 1, 3]))
C = zeros(2, 2, 3)
C[:, :, 1] = [[1, 2], [3, 4]]
print reshape(C, [4, 3]) - 1, size(C[:]), max(C[:])
print sum(reshape(A, 3, 2), 1), cumsum(reshape(A, 3, 2), 0), reshape(A, [3, 2]) + [10, 20]
n = int(A)
print type(reshape(n, [6])), reshape(n * 2, 3, 2), type(n[:]), n[:] - 1
z = complex(A, -A)
print reshape(z, [3, 2]), conj(z[:])
print size(reshape(zeros(0, 3), [3, 0])), size(reshape(zeros(0), [0, 4])), reshape(7, [1, 1])
% reshape returns a view: a write through either name is seen through the other
B = reshape(A, [3, 2])
B[0, 0] = 100
A[1, 2] = -6
print A, B
% x[:] is a copy: writing it leaves A as it was
F = A[:]
F[0] = -1
print A[:], A
