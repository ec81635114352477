% NaN, infinities, empty arrays and integer arrays in fused expressions: NaN compares
% false, min/max ignore NaN, isnan/isinf/isfinite give 0/1, empty arrays stay empty,
% int arrays keep int arithmetic (wrapping) and give reals for `/`; min and max of
% all-NaN arrays are NaN, as on the host.
% ==
% stdout {
% [0,0,1]
% [1,0,0]
% [0,1,0]
% [0,1,1]
% [1,2,3]
% [0,0,0]
% 0
% [0,3]
% [2147483647,-2147483648,2]
% [0.5,1,1.5]
% [1,0,1]
% 6
% NaN
% NaN
% 3
% }
nan = 0 / 0
inf = 1 / 0
v = [nan, inf, 1]
print v == 1
print isnan(v)
print isinf(v)
print isfinite(v) + isinf(v)
print max([nan, 2, 3], [1, nan, 3])
print v > inf
print sum(zeros(0) .* 2)
print size(zeros(0, 3) + 1)
i = int32([2147483646, 2147483647, 1])
print i + int32([1, 1, 1])
print int32([1, 2, 3]) / 2
print mod(int32([5, 6, 7]), 2)
print sum(int32([1, 2, 3]))
allnan = [1, 2, 3] * nan
print max(allnan)
print min(allnan .* 2)
print max([nan, 3, nan])
