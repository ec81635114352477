% Reductions and scans without a dimension, as Quasar does them: `sum prod mean min max`
% of an array reduce over all its elements; `cumsum` and `cumprod` run along the second
% index (each row of a matrix), so vertical running sums are
% `transpose(cumsum(transpose(A)))`.
% ==
% stdout {
% 21 720 3.5 1 6
% [ [1,3,6],
%   [4,9,15] ]
% [ [1,2,3],
%   [5,7,9] ]
% [ [1,2,6],
%   [4,20,120] ]
% [ [ [1,2],
%     [4,6] ],
%   [ [5,6],
%     [12,14] ] ]
% }
A = [[1, 2, 3], [4, 5, 6]]
print sum(A), " ", prod(A), " ", mean(A), " ", min(A), " ", max(A)
print cumsum(A)
print transpose(cumsum(transpose(A)))
print cumprod(A)
C = reshape(1..8, [2, 2, 2])
print cumsum(C)
