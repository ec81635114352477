% `reshape` with scalar dims whose element count differs from the array's is an
% error at the call, with the builtin's message.
% ==
% error: reshape_scalar_dims_count\.q:7:5: error: reshape: cannot reshape 2x3 \(6 elements\) to 4x2 \(8 elements\)
x = [[0, 1, 2], [3, 4, 5]]
M = 4
r = reshape(x, [M, 2])
