% type(x, "T") tests a value against a type, with ?? as a wildcard.
% ==
% stdout {
% 1 0
% 1 1
% 1 0
% 1 1
% 1
% 0
% }
a = cube[int](10)
print type(a, "cube[??]"), " ", type(a, "cube")
b = zeros(3)
print type(b, "vec"), " ", type(b, "vec[??]")
print type(3, "int"), " ", type(2.5, "int")
print type("x", "string"), " ", type("x", "??")
print type(zeros(2, 2), "mat")
print type(zeros(2, 2), "vec")
