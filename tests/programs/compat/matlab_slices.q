% Slicing keeps dimensions as MATLAB does: each indexed dimension keeps its extent (1
% for a scalar index) and only trailing singleton dimensions drop. `A[:, j]` is an M×1
% column (printed as a column), `A[i, :]` a row vec, `x[:, :, 0]` a mat, `x[i, :, :]` a
% 1×N×C cube.
% ==
% stdout {
% [ [1],
%   [4],
%   [7] ]
% [3,1] mat
% [1,3] vec
% [ [1,2],
%   [4,5] ]
% [ [1,1,1,1],
%   [4,4,4,4],
%   [7,7,7,7] ]
% [2,3]
% [1,3,2] cube
% [3,1] mat
% [2,1]
% [ [6],
%   [12] ]
% 14
% }
A = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
c = A[:, 1]
print c
print size(c), " ", type(c, "mat") ? "mat" : "?"
r = A[1, :]
print size(r), " ", type(r, "vec") ? "vec" : "?"
print A[0..1, 1..2] + A[0..1, 0..1] * 0
print repmat(A[:, 1], [1, 4])
x = zeros(2, 3, 2)
x[1, 2, 1] = 5
print size(x[:, :, 0])
s = x[1, :, :]
print size(s), " ", type(s, "cube") ? "cube" : "?"
print size(A[0..2, 2]), " mat"
print size(A[1..2, 0])
print A[1..2, 0] + A[1..2, 0]
print sum(A[:, 2]) - 1
