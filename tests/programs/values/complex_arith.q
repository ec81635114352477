% cscalar arithmetic and printing.
% ==
% stdout {
% 5+5i
% 1-2i
% 11-2i
% 0.2+0.4i
% 5
% 1
% -2
% 1+2i
% -1+0i
% 3-4i
% }
a = 2 + 3i
b = 3 + 2j
print a + b
z = 1 - 2i
print z
print z * (3 + 4i)
print 1 / (1 - 2i)
print abs(3 + 4i)
print real(z)
print imag(z)
print conj(z)
print 1i * 1i
print conj(3 + 4i)
