% `A(i, j)` on a parameter whose type is not declared: whether `A` is an array is known
% only when the program runs, and the run-time error gives the bracket spelling.
% ==
% error: matlab_paren_index_param\.q:6:9: error: cannot call a value of type array: Quasar indexes with brackets, `A\[i, j\]`, not MATLAB's parentheses `A\(i, j\)`, and indices start at 0
function y = corner(A)
    y = A(1, 1)
end
print corner(eye(2))
