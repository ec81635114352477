% A typed assignment to an object field declares (and converts to) the field's type at
% its first assignment.
% ==
% stdout {
% 2.5
% 6
% int
% }
p = object()
p.gain : scalar = 2.5
print p.gain
p.n : int = 3.0
print p.n * 2
print type(p.n)
