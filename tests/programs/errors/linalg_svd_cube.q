% svd of a cube is a located error.
% ==
% error: linalg_svd_cube\.q:4:13: error: svd: expected a matrix, got a cube
[U, S, V] = svd(ones(2, 2, 2))
