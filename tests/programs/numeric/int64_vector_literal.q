% A vector literal of ints has the type `+` gives its elements: int64 values stay
% int64 (issue 32, item 6).
% ==
% stdout {
% [10000000000,10000000001] vec[int64]
% [1,2] vec[int]
% [-5,3] vec[int8]
% [10000000000,3] vec[int64]
% [1,2] vec[int]
% }
x = int64(10000000000)
v = [x, x + 1]
print v, " ", type(v)
w = [1, 2]
print w, " ", type(w)
b = [int8(-5), int8(3)]
print b, " ", type(b)
m = [x, int8(3)]
print m, " ", type(m)
u = [int8(1), 2]
print u, " ", type(u)
