% 'safe writes outside the array are ignored; writes inside work.
% ==
% stdout {
% [1,9,3]
% [ [0,0],
%   [0,7] ]
% }
v : vec'safe = [1, 2, 3]
v[3] = 100
v[-1] = 100
v[10] = 100
v[1] = 9
print v
M : mat'safe = zeros(2, 2)
M[2, 0] = 5
M[0, -1] = 5
M[1, 1] = 7
print M
