% A named argument's name is a plain name: `a + b = 2` inside a call is an error where
% the `=` stands.
% ==
% error: named_argument_not_a_name\.q:8:15: error: expected `,` or `\)`, found `=`
function y = f(a)
    y = a
end
print f(1 + a = 2)
