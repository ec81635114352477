% sum, prod, mean, min and max reduce over all elements of vectors, matrices and cubes.
% ==
% stdout {
% 10 24 2.5 1 4
% 21 720 3.5 1 6
% 8 1 1
% 6
% }
v = [1, 2, 3, 4]
print sum(v), " ", prod(v), " ", mean(v), " ", min(v), " ", max(v)
M = [[1, 2, 3], [4, 5, 6]]
print sum(M), " ", prod(M), " ", mean(M), " ", min(M), " ", max(M)
C = ones(2, 2, 2)
print sum(C), " ", prod(C), " ", mean(C)
print sum(1..3)
