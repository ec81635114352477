% A __kernel__ function cannot be called directly from host code.
% ==
% error: kernel_called_directly\.q:7:1: error: .*kernel
function [] = __kernel__ k(y : vec, pos : int)
    y[pos] = 1
end
k(zeros(4), 0)
