% MATLAB's `...` line continuation: Quasar ends the line with `_`.
% ==
% error: matlab_continuation\.q:4:9: error: expected an expression, found `\.\.` \(`\.\.\.` continues a line in MATLAB; in Quasar end the line with `_`, or break it inside brackets\)
x = 1 + ...
    2
print x
