% cumsum and cumprod on vectors (along the vector) and matrices (down the rows by default).
% ==
% stdout {
% [1,3,6,10]
% [1,2,6,24]
% [ [1,2],
%   [4,6] ]
% [ [1,3],
%   [3,7] ]
% }
print cumsum([1, 2, 3, 4])
print cumprod([1, 2, 3, 4])
M = [[1, 2], [3, 4]]
print cumsum(M)
print cumsum(M, 1)
