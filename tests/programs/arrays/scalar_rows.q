% A matrix literal whose items are all real or int scalars is a row of their common
% type (the type `+` gives them), whatever the expressions computing them; items are
% evaluated once each, in order. Such rows give `reshape`, `zeros` and `repmat` their
% dims, here of a large array (past the size where whole-array expressions fuse):
% `reshape` stays a view in a loop, and a write through it is seen through the array.
% ==
% stdout {
% vec[int64][3,5]
% vec[int8][3,-1]
% [3,2.5]
% [4,8,0.5,16]
% called
% [4,4,1]
% [ [1,2],
%   [3,4] ]
% vec[int][-2,6]
% 7 [256,1024] 262150
% [256,1024,1,1]
% [2,2,2]
% }
function y = noisy()
    print "called"
    y = 3
endfunction
a = int8(3)
b = int64(5)
v = [a, b]
print type(v), v
u = [a, a - int8(4)]
print type(u), u
w = [a, 2.5]
print w
n = 4
print [n, n * 2, n / 8, n ^ 2]
print [n, 1 + noisy(), 1]
m = [[1, 2], [3, 4]]
print [[m[0, 0], m[0, 1]], [m[1, 0], m[1, 1]]]
print type([1 - 3, 2 * 3]), [1 - 3, 2 * 3]
x = zeros(512, 512) + 1
M = 512
for k = 1..3
    r = reshape(x, [M / 2, M * 2])
endfor
r[0, 0] = 7
print x[0, 0], " ", size(r), " ", sum(r)
print [size(r, 0), size(r, 1), ndims(r) - 1, 1]
print size(zeros([n / 2, n / 2, n / 2]))
