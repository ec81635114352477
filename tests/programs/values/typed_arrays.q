% Parametric array types: vec[int8](4), cube[int](10) and type tests with ??.
% ==
% stdout {
% vec[int8]
% [0,0,0,0]
% 1
% 0
% 1
% 1
% 1
% 0
% -128
% }
a = vec[int8](4)
print type(a)
print a
b = cube[int](10)
print type(b, "cube[??]")
print type(b, "cube")
c = cube[scalar](10)
print type(c, "cube")
print type(1i + 1, "??")
print type([1, 2, 3], "??")
print type(2.5, "int")
a[0] = -128
print a[0]
