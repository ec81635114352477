% The default scalar is a 32-bit float: results print with the shortest single-precision text.
% ==
% stdout {
% 0.33333334
% 0.3
% 0.6666667
% 16777216
% 3.5
% }
print 1/3
print 0.1 + 0.2
print 2/3
print 16777216 + 1.0
print 7/2
