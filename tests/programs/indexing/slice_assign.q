% Slice assignment with a scalar and with an array.
% ==
% stdout {
% [0,7,7,7,0]
% [0,1,2,3,0]
% [ [0,0,0],
%   [5,6,7] ]
% [ [9,0,0],
%   [9,6,7] ]
% [4,3,2,1]
% }
v = zeros(5)
v[1..3] = 7
print v
v[1..3] = [1, 2, 3]
print v
M = zeros(2, 3)
M[1, :] = [5, 6, 7]
print M
M[:, 0] = 9
print M
w = [1, 2, 3, 4]
w[0..3] = w[3..-1..0]
print w
