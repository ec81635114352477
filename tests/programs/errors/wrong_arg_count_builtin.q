% Calling a builtin with the wrong number of arguments is an error at the call.
% ==
% error: wrong_arg_count_builtin\.q:5:5: error: .*sqrt.*argument
x = 4
y = sqrt(x, 2)
