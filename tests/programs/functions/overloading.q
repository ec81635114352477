% Overloading by parameter type picks the definition that matches the argument.
% ==
% stdout {
% int 6
% string abc!
% vec 3
% scalar 1.25
% }
function y = describe(x : int)
    y = sprintf("int %d", 2 * x)
end
function y = describe(x : string)
    y = strcat("string ", x, "!")
end
function y = describe(x : vec)
    y = sprintf("vec %d", numel(x))
end
function y = describe(x : scalar)
    y = sprintf("scalar %g", x / 2)
end
print describe(3)
print describe("abc")
print describe([1.5, 2, 3])
print describe(2.5)
