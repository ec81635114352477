% `flipud`, `fliplr` and `circshift` inside fused expressions: views of the array with
% reversed (`n-1-i`) or rotated (`(i + c) mod n`) indices, along the dimensions the host
% picks (a vec is 1×N; `circshift(x, k)` shifts the first dimension that is not 1;
% negative and large shifts wrap; a dimension past the rank leaves the array as it is).
% ==
% options { --fuse-min 0 }
% stdout {
% [ [4,5,6],
%   [1,2,3] ][ [3,2,1],
%   [6,5,4] ]
% [ [4,5,6],
%   [1,2,3] ][ [3,1,2],
%   [6,4,5] ][ [2,3,1],
%   [5,6,4] ][ [5,6,4],
%   [2,3,1] ]
% [5,4,3,2,1][1,2,3,4,5][4,5,1,2,3][3,4,5,1,2]
% [ [1,2,3],
%   [4,5,6] ][ [0,0,0],
%   [0,0,0] ]
% 83[ [8,10,12],
%   [2,4,6] ]
% [ [1,2,3],
%   [4,5,6] ]
% }
A = [[1, 2, 3], [4, 5, 6]]
print flipud(A), fliplr(A)
print circshift(A, 1), circshift(A, [0, 1]), circshift(A, -1, 1), circshift(A, [1, 2])
v = [1, 2, 3, 4, 5]
print fliplr(v), flipud(v), circshift(v, 2), circshift(v, -7)
C = zeros(2, 3, 2)
C[:, :, 1] = A
print circshift(C, 1, 2)[:, :, 0], circshift(C, 1, 2)[:, :, 1]
print sum(fliplr(A) .* A), circshift(A, 1) + flipud(A)
print circshift(A, 1, 5)
