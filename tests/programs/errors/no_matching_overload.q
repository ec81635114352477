% When no overload accepts the arguments, the call is an error.
% ==
% error: no_matching_overload\.q:11:7: error: .*(overload|no .*`f`|`f`)
function y = f(x : int)
    y = x
end
function y = f(x : string)
    y = x
end
print f(1)
print f([1, 2])
