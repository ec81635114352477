% Comparisons and && || ! work element-wise on arrays and yield 0/1.
% ==
% stdout {
% [0,1,0]
% [1,1,1]
% [0,0,1]
% [1,0,1]
% [0,1,1]
% [1,0,0]
% [1,1,0,0]
% [ [1,0],
%   [0,1] ]
% 1
% 0
% 2
% }
a = [1, 5, 3]
b = [2, 5, 1]
print a == b
print a <= b .* 3
print a > b + 1
print a != b
print (a > 2) || (b > 4)
print !(a > 2)
print [1, 2, 3, 4] < 3 && [1, 1, 0, 0] == 1 || [0, 1, 0, 0]
print eye(2) == 1
print 3 > 2
print !1
print sum(a >= 3)
