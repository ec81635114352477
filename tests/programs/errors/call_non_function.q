% Calling a value that is not a function is an error at the call.
% ==
% error: call_non_function\.q:5:5: error: cannot call a value of type int
f = 3
y = f(2)
