% Operator precedence: -x^2, 2^-1, right-associative ^, ranges with arithmetic, ternary.
% ==
% stdout {
% -9
% 0.5
% 512
% [0,1,2,3]
% [5,4,3,2]
% 14
% 1
% big
% small
% [0,1,4,9]
% 1
% 0
% 11
% }
x = 3
print -x^2
print 2^-1
print 2^3^2
n = 4
print 0..n-1
a = 5
b = 2
print a..-1..b
print 2 + 3 * 4
print 1 + 2 > 2 && 0 < 1
print x > 2 ? "big" : "small"
print x > 5 ? "big" : "small"
print (0..3).^2
print 1 < 2 == 1
print 1 || 0 && 0 ? 0 : 1 == 1 ? 0 : 1
print 10 - 2 - 3 + 6
