% A negative size given to zeros inside a kernel is an error naming the kernel and the
% line, worded as host code words it (not an empty array).
% ==
% stdout {
% [3,3,3,3]
% }
% error: (?s)negative_zeros\.q:9:5: error: \(parallel_do\) window - zeros: dimensions must be non-negative integers, got -7: line 9.*negative_zeros\.q:15:1: note: `window` was launched here
function [] = __kernel__ window(y : vec, n : int, pos : int)
    r = zeros(n)
    y[pos] = numel(r)
end
y = zeros(4)
parallel_do(4, y, 3, window)
print y
parallel_do(4, y, -7, window)
