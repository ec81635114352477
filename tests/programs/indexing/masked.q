% Masked reads A[A < 0] and masked assignment A[A > B] = C with a scalar or an array.
% ==
% stdout {
% [-1,-3]
% [0,2,0,4]
% [1,2,5,4]
% [ [1,0],
%   [0,1] ]
% [ [1,20],
%   [3,40] ]
% }
A = [-1, 2, -3, 4]
B = A[A < 0]
print B
A[A < 0] = 0
print A
X = [1, 7, 9, 4]
Y = [5, 5, 5, 5]
X[X > Y] = [0, 2, 5, 0]
print X
E = eye(2)
E[E > 5] = 3
print E
P = [[1, 2], [3, 4]]
Q = [[10, 20], [30, 40]]
P[P > 1.5 && P != 3] = Q
print P
