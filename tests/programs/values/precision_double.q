% With --double the scalar is a 64-bit float.
% ==
% options { --double }
% stdout {
% 0.3333333333333333
% 0.30000000000000004
% 0.6666666666666666
% 16777217
% 3.5
% }
print 1/3
print 0.1 + 0.2
print 2/3
print 16777216 + 1.0
print 7/2
