% reshape, repmat, transpose and squeeze.
% ==
% stdout {
% [ [0,1,2],
%   [3,4,5] ]
% [ [0,1],
%   [2,3],
%   [4,5] ]
% [ [1,2,1,2],
%   [1,2,1,2] ]
% [ [1,4],
%   [2,5],
%   [3,6] ]
% [ [1],
%   [2],
%   [3] ]
% [2,3]
% [0,1,2,3,4,5]
% }
print reshape(0..5, 2, 3)
print reshape(0..5, [3, 2])
print repmat([1, 2], [2, 2])
print transpose([[1, 2, 3], [4, 5, 6]])
print transpose([1, 2, 3])
print size(squeeze(zeros(2, 1, 3)))
print reshape(reshape(0..5, [2, 3]), [6])
