% A 'checked read outside the array inside a kernel is an error naming the kernel,
% located at the read (its line and column: the second read of the kernel fails).
% ==
% error: (?s)checked_read\.q:7:9: error: \(parallel_do\) read_ahead - .*out of bounds.*line 7.*checked_read\.q:11:1: note: `read_ahead` was launched here
function [] = __kernel__ read_ahead(x : vec'checked, y : vec, pos : int)
    a = x[pos]
    b = x[pos + 1]
    y[pos] = a + b
end
x = zeros(5)
parallel_do(5, x, zeros(5), read_ahead)
