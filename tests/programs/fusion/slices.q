% Slices read inside fused expressions: `:`, ranges with steps (also backwards) and fixed
% indices become strided views of the array in the kernel; a slice alone is a copy
% kernel; an index outside the array is still the host's located error.
% ==
% stdout {
% [ [0,1,2],
%   [10,11,12] ]
% [ [0,4],
%   [40,44] ]
% [ [3,2,1,0],
%   [23,22,21,20] ]
% [ [2,3],
%   [12,13],
%   [22,23] ]
% 33
% [1.8333334,2.1666667,2.5]
% }
% error: slices.q:31:7: error: index 5 is out of bounds for dimension 1 of size 4
C = zeros(3, 4, 2)
for i = 0..2
    for j = 0..3
        C[i, j, :] = [10 * i + j, 100 + 10 * i + j]
    end
end
print C[0..1, 0..2, 0]
print 2 * C[0..2..2, 0..2..2, 1] - 200 + [0, 0]
print C[0..2..2, 3..-1..0, 0]
print C[:, 2..3, 0]
print sum(C[:, :, 0]) - sum(C[1, :, 0]) - sum(C[2, 0..1, 0]) - 18
print (C[1..1, 0..2, 0] + C[0..0, 1..3, 0]) / 6
print C[0, 5, 0]
