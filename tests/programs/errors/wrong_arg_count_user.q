% Calling a user function with too many arguments is an error at the call.
% ==
% error: wrong_arg_count_user\.q:7:7: error: .*`add2`.*2.*3
function y = add2(a, b)
    y = a + b
end
print add2(1, 2, 3)
