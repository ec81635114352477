% Nested functions see the variables of the enclosing function.
% ==
% stdout {
% 13
% 30
% }
function y = outer(a)
    scale = 10
    function z = inner(b)
        z = b + scale
    end
    y = inner(a)
end
print outer(3)
function y = outer2()
    base = 15
    function z = twice_base()
        z = 2 * base
    end
    y = twice_base()
end
print outer2()
