% `:` in kernel code selects a fixed-length vector: a dimension of more than 32 elements
% is an error at the `:`, found when the kernel is compiled for its launch.
% ==
% error: colon_too_long\.q:6:23: error: `:` in kernel code selects a fixed-length vector of at most 32 elements; this dimension has 40
function [] = __kernel__ k(x : mat, y : vec, pos : int)
  y[pos] = sum(x[pos, :])
end
x = ones(2, 40)
y = zeros(2)
parallel_do(2, x, y, k)
