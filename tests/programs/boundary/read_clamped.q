% 'clamped reads clamp every index to [0, N-1].
% ==
% stdout {
% 10 40 40 10
% 20
% 4 3
% }
v : vec'clamped = [10, 20, 30, 40]
print v[-1], " ", v[4], " ", v[8], " ", v[-5]
print v[1]
M : mat'clamped = [[1, 2, 3], [4, 5, 6]]
print M[5, -3], " ", M[-7, 9]
