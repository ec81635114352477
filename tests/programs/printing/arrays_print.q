% Vectors on one line; matrices one row per line aligned under the first bracket; N x 1 matrices.
% ==
% stdout {
% [1,2,3]
% [0.5,-1.25]
% [ [2,1],
%   [1,2] ]
% [ [1,2,3],
%   [4,5,6],
%   [7,8,9] ]
% [ [7],
%   [8] ]
% [5]
% }
print [1, 2, 3]
print [0.5, -1.25]
print [[2, 1], [1, 2]]
print [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
c = zeros(2, 1)
c[0, 0] = 7
c[1, 0] = 8
print c
print [5]
