% linsolve with a right-hand side of the wrong length is a located error.
% ==
% error: linalg_solve_rows\.q:4:5: error: linsolve: the right-hand side has 3 rows, the matrix 2
x = linsolve([[1, 2], [3, 4]], [1, 2, 3])
