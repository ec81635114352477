% A typed assignment to an object field declares (and converts to) the field's type at
% its first assignment; later assignments to that field convert to it.
% ==
% stdout {
% 2.5
% 6
% int
% 7 int
% }
p = object()
p.gain : scalar = 2.5
print p.gain
p.n : int = 3.0
print p.n * 2
print type(p.n)
p.n = 7.0
print p.n, " ", type(p.n)
