% A class and functions of the same name: the functions build the class from their
% parameters (`point(x := px, y := py)` inside `function p = point(px, py)`). A call
% whose named arguments fit no function but name the class's fields goes to the
% class's own constructor (a field left out is 0).
% ==
% stdout {
% 3 4
% -1 -1
% 5 0
% }
type point : mutable class
    x : int
    y : int
end
function p = point(px : int, py : int)
    p = point(x := px, y := py)
end
function p = point()
    p = point(x := -1, y := -1)
end
a = point(3, 4)
print a.x, " ", a.y
b = point()
print b.x, " ", b.y
c = point(x = 5)
print c.x, " ", c.y
