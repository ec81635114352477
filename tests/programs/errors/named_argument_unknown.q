% A named argument must name a parameter of the function.
% ==
% error: named_argument_unknown\.q:7:20: error: `diff` has no parameter or field named `c`
function z = diff(a, b)
  z = a - b
end
print diff(a := 1, c := 2)
