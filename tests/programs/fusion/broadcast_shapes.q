% Broadcasting in fused expressions: scalars, a row against a matrix, a cube against a
% matrix (leading dimensions line up, as in MATLAB: the matrix repeats over the third
% dimension), singleton dimensions; and a mismatch is a located error naming both
% shapes.
% ==
% stdout {
% [ [11,22,33],
%   [14,25,36] ]
% [ [ [2,2],
%     [3,3] ],
%   [ [4,4],
%     [5,5] ] ]
% [ [0,1,2],
%   [10,11,12] ]
% 48
% }
% error: broadcast_shapes.q:25:5: error: cannot combine arrays of size \[2,3\] and \[1,2\]
M = [[1, 2, 3], [4, 5, 6]]
print M + [10, 20, 30] .* [1, 1, 1]
C = ones(2, 2, 2)
print C + [[1, 2], [3, 4]]
col = [[0], [10]]
print col + [0, 1, 2]
print sum(M .* 2 + 1) + 0 * sum(col)
y = M + [1, 2] * 2
print y
