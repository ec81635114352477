% Empty arrays print as [] and have zero elements.
% ==
% stdout {
% []
% 0
% []
% 0
% }
e = zeros(0)
print e
print numel(e)
v = [1, 2, 3]
w = v[v > 5]
print w
print numel(w)
