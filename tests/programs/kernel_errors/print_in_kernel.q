% Kernel and device functions cannot print.
% ==
% error: print_in_kernel\.q:6:5: error: kernel and device functions cannot print
function [] = __kernel__ noisy(y : vec, pos : int)
    y[pos] = pos
    print pos
end
parallel_do(4, zeros(4), noisy)
