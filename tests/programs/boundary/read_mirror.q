% 'mirror reads reflect at the borders: -1 -> 1, N -> N-1, 2N -> 0, -N-1 -> N-2.
% ==
% stdout {
% 20 40 10 30
% 30
% 6 5
% }
v : vec'mirror = [10, 20, 30, 40]
print v[-1], " ", v[4], " ", v[8], " ", v[-5]
print v[2]
M : mat'mirror = [[1, 2, 3], [4, 5, 6]]
print M[2, -2], " ", M[-1, -1]
