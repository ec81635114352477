% A variable declared with a type keeps it: later assignments convert to that type.
% ==
% stdout {
% 3 int
% 3 scalar
% [1,2] vec
% }
n : int = 0
n = 3.0
print n, " ", type(n)
x : scalar = 1
x = 3
print x, " ", type(x)
u : vec = [0.5]
u = [1, 2]
print u, " ", type(u)
