% type(x) for every kind of value.
% ==
% stdout {
% int
% scalar
% cscalar
% string
% vec
% mat
% cube
% cvec
% vec[int]
% uint8
% vec[uint8]
% cube{4}
% mat[int16]
% object
% point
% [int->int]
% }
print type(1)
print type(1.5)
print type(1 + 2i)
print type("s")
print type(zeros(3))
print type(zeros(2, 2))
print type(zeros(2, 2, 2))
print type([1i, 2])
print type([1, 2])
print type(uint8(3))
print type(vec[uint8](2))
print type(ones(2, 2, 2, 2))
print type(mat[int16](2, 2))
print type(object())
type point : class
    x : int
end
print type(point(1))
f = (x : int) -> x + 1
function y : int = inc(x : int)
    y = x + 1
end
print type(inc)
