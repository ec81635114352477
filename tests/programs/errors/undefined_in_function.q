% Errors inside functions are reported at their own location, not at the call.
% ==
% error: undefined_in_function\.q:5:13: error: undefined variable .*`q`
function y = f(x)
    y = x + q
end
print f(1)
