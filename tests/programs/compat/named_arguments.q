% Named arguments to class constructors and functions; references to mutable classes
% (`^node`) and `nullptr`.
% ==
% stdout {
% 3 4
% 9
% 0 2
% 2
% 1
% 1
% 0
% }
type point : class
  x : scalar
  y : scalar
end
type node : mutable class
  val : int
  next : ^node
end
function z = diff(a, b)
  z = a - b
end
p = point(x := 3, y := 4)
print p.x, " ", p.y
print diff(b := 1, a := 10)
q = point(y := 2)
print q.x, " ", q.y
n1 = node(val := 1, next := nullptr)
n2 = node(val := 2, next := n1)
print n2.val
print n2.next.val
print n1.next == nullptr
print n2.next == nullptr
