% The rows of a matrix literal must have one shape: a located error naming both,
% also where the rows are fused kernels.
% ==
% options { --fuse-min 0 }
% error: matrix_literal_mismatch\.q:8:5: error: the rows of a matrix literal must have the same size: 3x4 and 3x5
x = ones(3, 4)
y = ones(3, 5)
z = [x * 2, y]
