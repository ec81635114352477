% inv of a singular matrix is a located error.
% ==
% error: linalg_inv_singular\.q:4:7: error: inv: the matrix is singular
print inv([[1, 2], [2, 4]])
