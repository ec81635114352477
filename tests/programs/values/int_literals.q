% Integer literals are 32-bit ints; larger literals are scalars, not wrapped ints.
% ==
% stdout {
% int 2147483647
% scalar 3000000000
% -2147483648
% 4000000000
% }
a = 2147483647
print type(a), " ", a
b = 3000000000
print type(b), " ", b
c : int = 2147483647
print c + 1
print 2 * 2000000000.0
