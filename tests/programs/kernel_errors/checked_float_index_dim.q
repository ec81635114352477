% A 'checked matrix updated with two indices converted from reals in the kernel: the
% error names the dimension whose extent the converted value leaves (the second here;
% the native tier's fast conversion tests each index against its own dimension's
% extent) and the lowest failing thread's exact value (4, not the -2147483648 of the
% thread after it).
% ==
% error: (?s)checked_float_index_dim\.q:9:5: error: \(parallel_do\) count - index 4 is out of bounds for dimension 1 of size 4 .*: line 9.*checked_float_index_dim\.q:14:1: note: `count` was launched here
function [] = __kernel__ count(x : vec, y : vec, m : mat'checked, pos : int)
    m[int(x[pos]), int(y[pos])] += 1
endfunction
x = [0, 1, 2, 1.5]
y = [3.9, 0, 4.2, -1e10]
m = zeros(3, 4)
parallel_do(numel(x), x, y, m, count)
print m
