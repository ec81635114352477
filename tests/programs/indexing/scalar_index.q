% Scalar indexing of vectors, matrices and cubes (0-based, row-major).
% ==
% stdout {
% 10
% 40
% 6
% 23
% 8
% }
v = [10, 20, 30, 40]
print v[0]
print v[3]
M = [[1, 2, 3], [4, 5, 6]]
print M[1, 2]
C = zeros(2, 3, 4)
C[1, 2, 3] = 23
print C[1, 2, 3]
M[0, 1] = 8
print M[0, 1]
