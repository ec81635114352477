% Cell arrays and the inferred element types of cell literals.
% ==
% stdout {
% vec[vec[int]]
% 3
% vec[mat]
% [ [4,3],
%   [3,4] ]
% vec[ [int->int] ]
% 6
% vec[ [??->??] ]
% 8
% vec[vec[vec[int]]]
% 5
% }
a = `[1, 2], [1, 2, 3]'
print type(a)
print a[1][2]
d = `[[2, 1], [1, 2]], [[4, 3], [3, 4]]'
print type(d)
print d[1]
e = `((x : int) -> 2 * x), ((x : int) -> 3 * x)'
print type(e)
print e[1](2)
f = `(x -> 2 * x), (x -> 4 * x)'
print type(f)
print f[1](2)
g = ` `[1, 2], [1, 2]', `[1, 2, 3], [4, 5, 6]' '
print type(g)
print g[1][1][1]
