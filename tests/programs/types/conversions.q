% Conversions between numeric types: int, float, complex, real, imag, conj, angle.
% ==
% options { --double }
% stdout {
% 3 int
% -2 int
% 2.5 scalar
% 2+3i cscalar
% 4+0i
% 2 3
% 2.356194490192345
% [1,-2]
% [0,5]
% }
a = int(3.7)
print a, " ", type(a)
b = int(-2.2)
print b, " ", type(b)
c = float(5) / 2
print c, " ", type(c)
z = complex(2, 3)
print z, " ", type(z)
print complex(4)
print real(z), " ", imag(z)
print angle(-1 + 1i)
print real([1 + 1i, -2])
print imag([3, 2 + 5i])
