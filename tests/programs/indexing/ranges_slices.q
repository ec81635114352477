% Range and colon indexing of vectors and matrices; `M[:, 1]` is a 3x1 column.
% ==
% stdout {
% [20,30,40]
% [4,5,6]
% [ [2],
%   [5],
%   [8] ]
% [ [5,6],
%   [8,9] ]
% [ [1,3],
%   [7,9] ]
% [0,2,4]
% [3,4]
% }
v = [10, 20, 30, 40, 50]
print v[1..3]
M = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print M[1, :]
print M[:, 1]
print M[1..2, 1..2]
print M[0..2..2, 0..2..2]
r = 0..2..4
print r
C = zeros(2, 2, 2)
C[1, :, 1] = [3, 4]
print C[1, :, 1]
