% chol of a symmetric matrix that is not positive definite is a located error.
% ==
% error: linalg_chol_not_spd\.q:5:5: error: chol: the matrix is not positive definite
S = [[1, 2], [2, 1]]
R = chol(S)
