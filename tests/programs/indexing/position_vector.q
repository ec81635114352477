% Indexing with an integer position vector x[pos], also with arithmetic on the position.
% ==
% stdout {
% 6
% 8
% 9
% 77
% }
M = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
pos = [1, 2]
print M[pos]
print M[pos + [1, -1]]
C = zeros(2, 2, 2)
C[1, 1, 0] = 9
p3 = [1, 1, 0]
print C[p3]
M[[0, 0]] = 77
print M[0, 0]
