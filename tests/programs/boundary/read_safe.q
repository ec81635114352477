% 'safe reads return 0 outside the array (at -1, N, 2N and -N-1) and the element inside.
% ==
% stdout {
% 0 0 0 0
% 30
% 0 0
% 6
% }
v : vec'safe = [10, 20, 30, 40]
print v[-1], " ", v[4], " ", v[8], " ", v[-5]
print v[2]
M : mat'safe = [[1, 2, 3], [4, 5, 6]]
print M[-1, 0], " ", M[1, 3]
print M[1, 2]
