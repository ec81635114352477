% Lambda forms: x -> e, (x, y) -> e, typed parameters, no parameters, multi-statement bodies.
% ==
% stdout {
% 10
% 7
% 3
% 42
% 9
% [2,3,4]
% 2
% }
f = x -> 2 * x
print f(5)
g = (x, y) -> x + y
print g(3, 4)
h = (x : int) -> x + 1
print h(2)
k = () -> 42
print k()
m = () -> (a = 4; a + 5)
print m()
inc = (v : vec) -> v + 1
print inc([1, 2, 3])
d = __device__ (x : scalar) -> x / 2
print d(4)
