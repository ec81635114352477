% sort (ascending, descending, along a dimension, with 0-based indices; stable, NaN
% last) and unique (with first occurrences and back indices).
% Reference: NumPy, np.sort / np.argsort(kind="stable") along the axis, np.unique with
% return_index and return_inverse.
% ==
% stdout {
% [1,2,3,3,5,9]
% [1,4,0,3,5,2]
% [9,5,3,3,2,1]
% [2,5,0,3,4,1]
% [ [1,2,4],
%   [3,5,6] ]
% [ [1,0,1],
%   [0,1,0] ]
% [ [2,3,6],
%   [1,4,5] ]
% [ [1,0,2],
%   [0,2,1] ]
% [1,2,NaN]
% [1,2,3,5,9]
% [1,4,0,5,2]
% [2,0,4,2,1,3]
% 1
% [-3,0,2]
% int
% }
x = [3, 1, 9, 3, 2, 5]
[s, i] = sort(x)
print s
print i
[s, i] = sort(x, "descend")
print s
print i
A = [[3, 2, 6], [1, 5, 4]]
[s, i] = sort(A)
print s
print i
[s, i] = sort(A, 1)
print s
print i
print sort([2, 0/0, 1])
[u, first, back] = unique(x)
print u
print first
print back
print sum(abs(u[back] - x)) == 0
v = int([2, -3, 2, 0, -3])
print unique(v)
print type(unique(v)[0])
