% vertcat of rows of different lengths is a located error.
% ==
% error: linalg_vertcat_mismatch\.q:4:5: error: vertcat: dimensions do not agree: 1x3 and 1x2 \(joining along dimension 0\)
x = vertcat([1, 2, 3], [4, 5])
