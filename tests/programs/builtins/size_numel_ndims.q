% numel, ndims, size(x), size(x, d) with a 0-based dimension and size(x, 0..1).
% ==
% stdout {
% 24 3
% 6 2
% [2,3,4]
% 3
% [2,3]
% [1,5]
% 1 5
% 1
% }
C = zeros(2, 3, 4)
print numel(C), " ", ndims(C)
M = ones(2, 3)
print numel(M), " ", ndims(M)
print size(C)
print size(C, 1)
print size(C, 0..1)
v = zeros(5)
print size(v)
print size(v, 0), " ", size(v, 1)
print size(M, 2)
