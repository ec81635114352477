% Kernels see a reshaped view with the view's dims, and their writes reach every name
% of the elements: a `parallel_do` over the view (a mat view of a cube, a vec view of
% a mat) writes what the array then reads, and a kernel over the array writes what the
% view then reads; fused statements read the view at its own shape (a masked
% assignment through the view, a reduction along the view's dimension); int and
% complex elements.
% ==
% stdout {
% [ [0,1,2,3],
%   [10,11,12,13],
%   [20,21,22,23] ]
% [ [ [0,1],
%     [2,3] ],
%   [ [10,11],
%     [12,13] ],
%   [ [20,21],
%     [22,23] ] ]
% [ [1,2,4],
%   [8,16,32] ][1,2,4,8,16,32]
% [ [1,2,4],
%   [8,0,0] ][1,2,4,8,0,0]
% [12,15,18,21][ [1,2],
%   [4,8],
%   [0,0] ]
% [0,1,2,3,4,5,6,7,8,9,10,11]66
% mat[int][ [0,3,6,9],
%   [12,15,18,21] ]
% [ [0+1i,1+1i],
%   [2+1i,3+1i] ][1,2,3,4]
% }
c = zeros(3, 2, 2)
% a kernel over a view: the 3x2x2 cube seen as a 3x4 matrix, element (i, j) = 10i + j
m = reshape(c, [3, 4])
parallel_do(size(m), m, __kernel__ (a : mat, pos : ivec2) -> _
    a[pos] = 10 * pos[0] + pos[1])
print m
print c
% a kernel over the array: the view reads what it wrote
x = zeros(2, 3)
v = reshape(x, [6])
parallel_do(size(x), x, __kernel__ (a : mat, pos : ivec2) -> _
    a[pos] = 2^(3 * pos[0] + pos[1]))
print x, v
% a masked assignment through the view (a fused kernel at fusion size 0)
v[v > 10] = 0
print x, v
% a reduction along the view's own first dimension
q = reshape(0..11, [3, 4])
print sum(q, 0), reshape(x, 3, 2)
% a kernel writes through a vec view of a matrix; the matrix reads it
g = zeros(3, 4)
h = reshape(g, 12)
parallel_do(12, h, __kernel__ (a : vec, pos : int) -> _
    a[pos] = pos)
print h, sum(g)
% int and complex elements: kernels over views of an int and a complex matrix
k = int(zeros(2, 4))
kv = reshape(k, [8])
parallel_do(8, kv, __kernel__ (a : vec[int], pos : int) -> _
    a[pos] = pos * 3)
print type(k), k
zc = complex(ones(2, 2), zeros(2, 2))
zv = reshape(zc, 4)
parallel_do(4, zv, __kernel__ (a : cvec, pos : int) -> _
    a[pos] = a[pos] * 1i + pos)
print zc, real(zv) + imag(zv)
