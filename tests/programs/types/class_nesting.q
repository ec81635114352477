% Class instances hold arrays and other objects; fields are updated in place through references.
% ==
% stdout {
% 3
% [1,9,3]
% 11
% }
type holder : mutable class
    data : vec
    count : int
end
h = holder([1, 2, 3], 0)
h.count = numel(h.data)
print h.count
d = h.data
d[1] = 9
print h.data
function [] = bump(x : holder)
    x.count = x.count + 8
end
bump(h)
print h.count
