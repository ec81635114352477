% Calling a function that does not exist is an error at the call.
% ==
% error: undefined_function\.q:4:5: error: undefined .*`no_such_fn`
y = no_such_fn(3)
