% Integral reals print without a decimal point; others with the shortest round-trip text.
% ==
% stdout {
% 3
% -40
% 3.5
% 0.1
% 0
% 1e37
% 1.5e-5
% 0.001
% 123456
% 2.25
% }
print 3.0
print -40
print 7 / 2
print 0.1
print -0.0
print 1e37
print 0.000015
print 0.001
print 123456.0
print 1.5 ^ 2
