% `type p : class` with fields: positional construction, field reads and writes.
% ==
% stdout {
% 1
% 2
% 10
% 12
% 5
% }
type point : class
    x : scalar
    y : scalar
end
p = point(1, 2)
print p.x
print p.y
p.x = 10
print p.x
print p.x + p.y
function d = manhattan(a : point)
    d = abs(a.x) + abs(a.y)
end
print manhattan(point(-2, 3))
