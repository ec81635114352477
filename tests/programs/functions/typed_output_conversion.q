% A typed output converts the value assigned to it; untyped outputs keep their type.
% ==
% stdout {
% 6 int
% 2.5 scalar
% [1,2] vec
% }
function y : int = six()
    y = 6.0
end
function y = half(x)
    y = x / 2
end
function y : vec = pair()
    y = [1, 2]
end
a = six()
print a, " ", type(a)
b = half(5)
print b, " ", type(b)
c = pair()
print c, " ", type(c)
