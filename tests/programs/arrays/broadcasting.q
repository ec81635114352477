% Broadcasting: scalar with arrays, matrix + row vector, a cube times a 1×1×3 array of
% per-channel weights (leading dimensions line up, as in MATLAB: a plain vec would be a
% row, so the weights are reshaped along the third dimension).
% ==
% stdout {
% [3,4,5]
% [ [11,22,33],
%   [14,25,36] ]
% [ [ [1,4,9],
%     [2,10,18] ],
%   [ [1,2,3],
%     [1,2,3] ] ]
% [ [0.5,1],
%   [1.5,2] ]
% }
print [1, 2, 3] + 2
M = [[1, 2, 3], [4, 5, 6]]
print M + [10, 20, 30]
C = ones(2, 2, 3)
C[0, 0, :] = [1, 2, 3]
C[0, 1, :] = [2, 5, 6]
print C .* reshape([1, 2, 3], [1, 1, 3])
print [[1, 2], [3, 4]] / 2
