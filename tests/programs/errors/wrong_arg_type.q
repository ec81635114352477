% Passing a value of the wrong type to a typed parameter is an error at the call.
% ==
% error: wrong_arg_type\.q:7:7: error: .*`v`.*vec.*string
function y = first(v : vec)
    y = v[0]
end
print first("abc")
