% Block dimensions must divide the data dimensions.
% ==
% error: block_dims\.q:7:1: error: \(parallel_do\) fill - the block dimensions \[4, 4\] must divide the data dimensions \[6, 8\]
function [] = __kernel__ fill(y : mat, pos : ivec2)
    y[pos] = 1
end
parallel_do([[6, 8], [4, 4]], zeros(6, 8), fill)
