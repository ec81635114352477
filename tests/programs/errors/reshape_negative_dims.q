% A negative dim (no `-1` placeholder) given as a scalar is the builtin's located
% error, not a view.
% ==
% error: reshape_negative_dims\.q:7:5: error: reshape: dimensions must be non-negative integers, got -1
x = ones(2, 6)
n = 6
r = reshape(x, [-1, n])
