% A __device__ function is callable from ordinary host code and from other device functions.
% ==
% stdout {
% 25
% 26
% [1,4,9]
% }
function y = __device__ sq(x : scalar)
    y = x * x
end
function y = __device__ sq_plus(x : scalar)
    y = sq(x) + 1
end
print sq(5)
print sq_plus(5)
r = zeros(3)
for i = 0..2
    r[i] = sq(i + 1)
end
print r
