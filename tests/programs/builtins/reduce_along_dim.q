% sum, prod and mean along a dimension (0 = down the rows, 1 = along each row); min/max use (A, [], d).
% ==
% stdout {
% [5,7,9]
% [6,15]
% [4,10,18]
% [2.5,3.5,4.5]
% [1,4]
% [4,5,6]
% }
M = [[1, 2, 3], [4, 5, 6]]
print sum(M, 0)
print sum(M, 1)
print prod(M, 0)
print mean(M, 0)
print min(M, [], 1)
print max(M, [], 0)
