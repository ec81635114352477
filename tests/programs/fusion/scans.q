% Running sums and products along a dimension (`cumsum`, `cumprod`) of matrices and
% larger arrays (by default along the second index) fuse with their producer: a thread per lane of the dimension stores
% every partial value (f64 running sums rounded per element, int sums wrapping as on
% the host); a vec (one lane) is scanned on the host.
% ==
% stdout {
% [ [1,3,6],
%   [4,9,15],
%   [7,15,24] ]
% [ [1,3,6],
%   [4,9,15],
%   [7,15,24] ]
% [ [0.5,1,1.5],
%   [1,2.5,4.5],
%   [3.5,10,20.25] ]
% [ [1.5,4.5,9.5],
%   [7.5,16.5,27.5],
%   [13.5,28.5,45.5] ]
% [ [ [1,2,3],
%     [1,2,3] ],
%   [ [1,2,3],
%     [1,2,3] ] ]
% [ [1,2,3],
%   [5,7,9],
%   [12,15,18] ][ [1,2,6],
%   [4,20,120],
%   [7,56,504] ]
% [1,3,6]
% }
M = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print cumsum(M)
print cumsum(M, 1)
print cumprod(M / 2, 0)
print cumsum(M .* 2 - 1, 1) + 0.5
C = ones(2, 2, 3)
print cumsum(C, 2)
n = int32(M)
print cumsum(n, 0), cumprod(n, 1)
print cumsum([1, 2, 3])
