% A kernel function cannot be called directly, not even from another kernel.
% ==
% error: kernel_calls_kernel\.q:8:5: error: kernel function `inner` cannot be called directly
function [] = __kernel__ inner(y : vec, pos : int)
    y[pos] = 1
end
function [] = __kernel__ outer(y : vec, pos : int)
    inner(y, pos)
end
parallel_do(4, zeros(4), outer)
