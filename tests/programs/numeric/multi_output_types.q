% `[a, b] = parallel_do(...)` gives each kernel output its declared type, as the
% one-output form does (issue 32, item 5).
% ==
% stdout {
% 10000000000 int64 -24 int8
% 10 int64 5 scalar
% 1000000000 int
% }
function [a : int64, b : int8] = __kernel__ k(pos : int)
    a += 1000000000
    b += 100
end
[a, b] = parallel_do(10, k)
print a, " ", type(a), " ", b, " ", type(b)
function [a : int64, b : scalar] = __kernel__ k2(pos : int)
    a += 1
    b += 0.5
end
[a, b] = parallel_do(10, k2)
print a, " ", type(a), " ", b, " ", type(b)
function a : int = __kernel__ k3(pos : int)
    a += 100000000
end
a = parallel_do(10, k3)
print a, " ", type(a)
