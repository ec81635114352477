% A nested function or lambda that assigns through an index (`y[i] = v`) updates the
% enclosing variable; a plain assignment makes a local of its own.
% ==
% stdout {
% [0,1,4,9]
% [5,0,0]
% 7
% }
function y = fill_squares(n)
    y = zeros(n)
    function [] = set_one(i)
        y[i] = i * i
    end
    for i = 0..n - 1
        set_one(i)
    end
end
print fill_squares(4)
v = zeros(3)
poke = (i, x) -> (v[i] = x)
poke(0, 5)
print v
function r = shadow()
    r = 7
    function [] = local_r()
        r = 1
    end
    local_r()
end
print shadow()
