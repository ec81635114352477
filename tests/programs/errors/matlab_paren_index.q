% MATLAB's `A(1, 2)` on a variable that is certainly an array: `blazar check` finds it
% before anything runs, and the error gives the Quasar spelling (brackets, 0-based).
% ==
% error: matlab_paren_index\.q:7:7: error: `A` is an array, not a function: Quasar indexes with brackets, and indices start at 0: write `A\[0, 1\]` for MATLAB's `A\(1, 2\)`
A = eye(3)
print "start"
print A(1, 2)
