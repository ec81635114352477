% A 'checked read out of bounds inside a comparison of complex values is an error on
% every backend (the comparison reads its operands, as host code does).
% ==
% error: (?s)checked_complex_compare\.q:6:14: error: \(parallel_do\) above - index 3 is out of bounds for dimension 0 of size 3 \(indices start at 0: the last is 2, and a loop over the dimension is `for i = 0\.\.2`\): line 6.*checked_complex_compare\.q:10:1: note: `above` was launched here
function [] = __kernel__ above(x : cvec'checked, y : vec, pos : int)
    y[pos] = x[pos + 1] > 0
end
x = [1i, 2i, 3i]
y = zeros(3)
parallel_do(3, x, y, above)
