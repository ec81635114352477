% Dynamic objects: fields are created by assignment and can hold any value.
% ==
% stdout {
% 3
% [1,2]
% name
% 8
% }
o = object()
o.a = 3
o.b = [1, 2]
o.s = "name"
print o.a
print o.b
print o.s
o.a += 5
print o.a
