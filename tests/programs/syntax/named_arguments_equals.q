% A named argument may be written `name = value` as well as `name := value`, in calls
% of functions and of class constructors (published programs mix both).
% ==
% stdout {
% 1 2
% 4 2
% 1 2 3
% 0.25
% }
type point : class
    x : scalar
    y : scalar
end
type box : mutable class
    corner : point
    w : int
end
function p = shifted(q : point, dx : scalar = 0)
    p = point(x := q.x + dx, y = q.y)
end
p = point(x = 1, y := 2)
print p.x, " ", p.y
r = shifted(p, dx = 3)
print r.x, " ", r.y
b = box(w := 3, corner = point(x = 1, y = 2))
print b.corner.x, " ", b.corner.y, " ", b.w
function y = scale(a, factor = 1)
    y = a * factor
end
print scale(1, factor = 0.25)
