% A launch passes exactly the kernel's ordinary (non-special) arguments.
% ==
% error: argument_count\.q:8:1: error: \(parallel_do\) scale - the kernel takes 2 arguments, 1 were given
function [] = __kernel__ scale(y : vec, f : scalar, pos : int)
    y[pos] = y[pos] * f
end
y = ones(4)
parallel_do(4, y, scale)
