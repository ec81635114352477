% `*` on matrices is the matrix product; `.*` is element-wise.
% ==
% stdout {
% [ [19,22],
%   [43,50] ]
% [ [5,12],
%   [21,32] ]
% [ [17],
%   [39] ]
% [67,78]
% [ [2,4],
%   [6,8] ]
% }
A = [[1, 2], [3, 4]]
B = [[5, 6], [7, 8]]
print A * B
print A .* B
col = zeros(2, 1)
col[0, 0] = 5
col[1, 0] = 6
print A * col
print [5, 6] * B
print 2 * A
