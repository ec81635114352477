% symeig of a non-square matrix is a located error.
% ==
% error: linalg_symeig_not_square\.q:4:5: error: symeig: the matrix must be square, got 2x3
d = symeig([[1, 2, 3], [4, 5, 6]])
