% An index out of range in a host function that the compiled host tier runs whole,
% on a line with two accesses: the error names the access that failed (its column),
% as the interpreter does, on every tier.
% ==
% stdout {
% 9
% }
% error: compiled_error_column\.q:10:16: error: index 4 is out of bounds for dimension 0 of size 3
function y = pick(a : vec, b : vec, i : int, j : int)
    y = a[i] + b[j]
end
a = [1, 2, 3, 4]
b = [5, 6, 7]
print pick(a, b, 1, 2)
print pick(a, b, 2, 4)
