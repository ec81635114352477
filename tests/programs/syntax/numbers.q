% Number literal forms: trailing dot, exponent, binary suffix, imaginary suffixes.
% ==
% stdout {
% 5
% 1000
% 11
% 0+3i
% 0+2i
% 0.5
% -0.00019
% 7
% 1+2i
% }
print 5.
print 1e3
print 1011b
print 3j
print 2i
print 0.5
print -1.9e-4
print 111b - 0
print 1 + 2j
