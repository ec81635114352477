% Inplace operators on scalars and arrays.
% ==
% stdout {
% 13
% 8
% 24
% 6
% 36
% [2,6,12]
% [2.5,1.5,1.3333334]
% [1,8,81]
% [ [3,4],
%   [5,6] ]
% }
x = 10
x += 3
print x
x -= 5
print x
x *= 3
print x
x /= 4
print x
x ^= 2
print x
v = [1, 2, 3]
v .*= [2, 3, 4]
print v
w = [2.5, 3, 4]
w ./= [1, 2, 3]
print w
u = [1, 2, 3]
u .^= [2, 3, 4]
print u
M = [[1, 2], [3, 4]]
M += 2
print M
