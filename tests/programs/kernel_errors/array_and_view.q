% A kernel takes each array with one shape: passing an array and a reshaped view of
% it (the same elements under two shapes) to one launch is a located error.
% ==
% error: array_and_view\.q:9:1: error: \(parallel_do\) add: an array and a reshaped view of it cannot both be passed to one kernel
function [] = __kernel__ add(y : mat, v : vec, pos : ivec2)
    y[pos] = y[pos] + v[pos[1]]
end
x = ones(2, 3)
parallel_do(size(x), x, reshape(x, 6), add)
