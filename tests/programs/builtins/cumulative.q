% cumsum and cumprod on vectors (along the vector) and matrices (along the second index,
% i.e. each row, by default, as Quasar does; `cumsum(M, 0)` runs down the columns).
% ==
% stdout {
% [1,3,6,10]
% [1,2,6,24]
% [ [1,3],
%   [3,7] ]
% [ [1,3],
%   [3,7] ]
% [ [1,2],
%   [4,6] ]
% }
print cumsum([1, 2, 3, 4])
print cumprod([1, 2, 3, 4])
M = [[1, 2], [3, 4]]
print cumsum(M)
print cumsum(M, 1)
print cumsum(M, 0)
