% MATLAB's `A(1, 2)` on an array: the error names the bracket spelling.
% ==
% error: matlab_paren_index\.q:6:7: error: cannot call a value of type array: Quasar indexes with brackets, `A\[i, j\]`, not MATLAB's parentheses `A\(i, j\)`, and indices start at 0
A = eye(3)
print "start"
print A(1, 2)
