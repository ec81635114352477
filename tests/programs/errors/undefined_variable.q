% Reading a variable that was never assigned is an error at its use.
% ==
% error: undefined_variable\.q:5:9: error: undefined variable .*`missing`
x = 2
y = x + missing * 3
