% Integer types: same-type arithmetic stays in that type and wraps; int(x) truncates toward zero.
% ==
% stdout {
% 4
% uint8
% 250
% -128
% int8
% 3
% -3
% 7
% int
% 3.5
% 65535
% }
a = uint8(250) + uint8(10)
print a
print type(a)
print uint8(250)
b = int8(127) + int8(1)
print b
print type(b)
print int(3.9)
print int(-3.9)
x : int = 3
y : int = 4
print x + y
print type(x + y)
print 7 / 2
print uint16(65535)
