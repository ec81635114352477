% find, isempty, isscalar, any, all. find of a vector gives 0-based linear indices;
% of a matrix or cube one row of positions per non-zero element, in storage order;
% [i, j] = find(A) and [i, j, v] = find(A) split them per dimension.
% Reference: NumPy, np.flatnonzero(x), np.argwhere(A), np.nonzero(A) and
% A[np.nonzero(A)]; np.any / np.all with axis.
% ==
% stdout {
% [1,3,4]
% [ [0,1],
%   [1,0],
%   [1,2] ]
% [ [0,1,1],
%   [1,0,0] ]
% [0,1,1] [1,0,2]
% [2,1,4]
% [0,2]
% 1
% 1 1 0 0
% 1 0 1 0 0
% 1 0 0 1
% [1,1,1]
% [0,0]
% [0,1]
% 0
% }
x = [0, 3, 0, -1, 5]
print find(x)
A = [[0, 2, 0], [1, 0, 4]]
print find(A)
C = zeros(2, 2, 2)
C[0, 1, 1] = 7
C[1, 0, 0] = -2
print find(C)
[i, j] = find(A)
print i, " ", j
[i, j, v] = find(A)
print v
print size(find(zeros(2, 2)))
print isempty(find(zeros(4)))
print isempty(zeros(0)), " ", isempty(""), " ", isempty("a"), " ", isempty(3)
print isscalar(3), " ", isscalar([1, 2]), " ", isscalar(ones(1, 1)), " ", isscalar("s"), " ", isscalar(1i * [1, 2])
print any(x), " ", all(x), " ", any(zeros(3)), " ", all(ones(2, 2))
print any(A, 0)
print all(A, 1)
print any(A, 1) - all([[1, 1], [1, 0]], 1)
print all(zeros(2, 0) == 0) - 1
