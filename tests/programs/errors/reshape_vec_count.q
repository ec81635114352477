% Reshaping a vec view to another number of elements names its size as 1xN and the
% dims asked for, with their element counts.
% ==
% error: reshape_vec_count\.q:8:5: error: reshape: cannot reshape 1x12 \(12 elements\) to 5x2 \(10 elements\)
x = ones(2, 6)
v = reshape(x, 12)
M = 5
r = reshape(v, M, 2)
