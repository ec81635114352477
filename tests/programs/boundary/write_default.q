% Without a modifier a write outside the array is ignored (the put mode 'safe), in
% element, slice and gather writes; a read outside is still an error on the host.
% ==
% stdout {
% [1,9,3]
% [0,0,7,8]
% [ [0,0,0],
%   [0,5,6] ]
% [5,0,2]
% }
% error: write_default\.q:27:7: error: index 3 is out of bounds for dimension 0 of size 3
v = [1, 2, 3]
v[3] = 100
v[-1] = 100
v[1] = 9
print v
u = zeros(4)
u[2..5] = [7, 8, 9, 10]
print u
M = zeros(2, 3)
M[1, 1..3] = [5, 6, 7]
M[-1, :] = 4
print M
g = zeros(3)
g[[-2, 2, 0, 9]] = [1, 2, 5, 4]
print g
print v[3]
