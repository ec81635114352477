% inv of a non-square matrix is a located error.
% ==
% error: linalg_inv_not_square\.q:5:7: error: inv: the matrix must be square, got 2x3
A = [[1, 2, 3], [4, 5, 6]]
print inv(A)
