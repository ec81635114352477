% `reshape(x, dims)` is a view: it shares x's elements, so a host write through either
% name is seen through the other, for real, int and complex elements, through a view
% of a view, and for element, slice and masked writes. Rebinding a name (`y = y + 1`)
% makes a new array and leaves the other name alone.
% ==
% stdout {
% [ [10,1,2],
%   [3,4,5] ][ [10,1],
%   [2,3],
%   [4,5] ]
% [ [10,1,2],
%   [3,4,-5] ][ [10,1],
%   [2,3],
%   [4,-5] ]
% [ [10,7,7],
%   [3,4,-5] ][10,7,7,3,4,-5][1,6]
% [ [0,7,7],
%   [3,4,0] ][0,7,7,3,4,0]
% [ [0,7,7],
%   [3,4,0] ][ [1,8],
%   [8,4],
%   [5,1] ]
% vec[int][0,2,9,3,4,5]mat[int][ [0,2],
%   [9,3],
%   [4,5] ]
% [1+1i,2+2i,3+3i,4-4i][ [1+1i,2+2i],
%   [3+3i,4-4i] ]cvec
% [3,0][0,3][2,0,3]
% }
x = [[0, 1, 2], [3, 4, 5]]
y = reshape(x, [3, 2])
y[0, 0] = 10
print x, y
x[1, 2] = -5
print x, y
% a view of a view: the same elements again
v = reshape(y, 6)
v[1..2] = 7
print x, v, size(v)
% a masked write through the view
v[v < 0] = 0
v[v == 10] = 0
print x, v
% rebinding makes a new array
y = y + 1
print x, y
% ints
n = int([[0, 1, 2], [3, 4, 5]])
m = reshape(n, [6])
m[1] = 2
n[1, 0] = 3
m[2] = 9
print type(m), m, type(reshape(m, 3, 2)), reshape(m, 3, 2)
% complex
z = complex([[1, 2], [3, 4]], [[1, 2], [3, 4]])
w = reshape(z, 4)
z[1, 1] = 4 - 4i
print w, z, type(w)
% empty arrays
e = zeros(0, 3)
f = reshape(e, [3, 0])
print size(f), size(e), size(reshape(f, [2, 0, 3]))
