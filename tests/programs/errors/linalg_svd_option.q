% svd's second argument is "econ" or 0 (MATLAB's economy forms); anything else is a
% located error.
% ==
% error: linalg_svd_option\.q:6:13: error: svd: the second argument must be "econ" or 0
A = [[1, 2], [3, 4], [5, 6]]
[U, S, V] = svd(A, "thin")
