% Typed declarations `x : T = e`, bare `x : T`, and the C-like `int n = 5` form.
% ==
% stdout {
% 5
% int
% 2.5
% scalar
% 7
% int
% [0,0,0]
% vec
% }
x : int = 5
print x
print type(x)
y : scalar = 2.5
print y
print type(y)
int n = 7
print n
print type(n)
v : vec = zeros(3)
print v
print type(v)
