% Masked assignment `A[mask] = v` where the mask is a comparison or logic result of
% A's shape: one in-place kernel choosing, per element, the value (a scalar or an array of
% A's shape) or the old element. Other values (the selected elements in order) and int
% targets go through the host, with the same results.
% ==
% stdout {
% [ [10,200,30],
%   [200,5,200] ]
% [ [1,9,9],
%   [8,5,6] ]
% [ [1,2,30],
%   [40,50,60] ]
% [1,2,0,0]
% [1,2,7,8]
% }
w = [[10, 250, 30], [220, 5, 201]]
w[w > 200] = 200
print w
v = [[1, 2, 3], [4, 5, 6]]
v[v > 1 && v < 5] = [[9, 9, 9], [8, 8, 8]]
print v
u = [[1, 2, 3], [4, 5, 6]]
u[u >= 3] = u * 10
print u
n = int32([1, 2, 3, 4])
n[n > 2] = 0
print n
c = [1, 2, 3, 4]
c[c > 2] = [7, 8]
print c
