% 'circular reads wrap around with a non-negative remainder, per dimension.
% ==
% stdout {
% 40 10 10 40
% 20
% 4 6
% }
v : vec'circular = [10, 20, 30, 40]
print v[-1], " ", v[4], " ", v[8], " ", v[-5]
print v[1]
M : mat'circular = [[1, 2, 3], [4, 5, 6]]
print M[-1, 3], " ", M[3, -1]
