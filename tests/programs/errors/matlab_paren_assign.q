% MATLAB's `x(i, i) = 1`: Quasar indexes with brackets.
% ==
% error: (?s)matlab_paren_assign\.q:6:1: error: cannot assign to this expression.*Quasar indexes arrays with brackets, not MATLAB's parentheses: `x\[\.\.\., \.\.\.\] = \.\.\.`, and indices start at 0
x = zeros(3, 3)
i = 1
x(i, i) = 1
