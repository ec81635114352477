% Multi-assignment: swaps of variables and of elements, and [m, n] = size(A).
% ==
% stdout {
% 2 1
% 3 4
% [30,20,10]
% 5 7 2
% }
a = 1
b = 2
[a, b] = [b, a]
print a, " ", b
[m, n] = size(zeros(3, 4))
print m, " ", n
s = [10, 20, 30]
[s[0], s[2]] = [s[2], s[0]]
print s
[p, q, r] = size(ones(5, 7, 2))
print p, " ", q, " ", r
