% Concatenation inside fused expressions: `horzcat`, `vertcat`, `cat(d, ...)` and the
% stacking of a matrix literal `[a, b]` (a new leading dimension) are one join node
% whose parts are any operands (inputs, slices, flips, element-wise expressions, other
% joins), so each element is read from the part that owns it, with producers and
% consumers in the same kernel (broadcasting against rows and columns, reductions of
% all elements and along a dimension). Shapes and element types are the host's: a vec
% is 1×N, dimensions past the rank are 1, empty parts are left out, columns and unit
% dimensions join, ints of one type stay ints, mixed ints take the first type
% (saturating), reals or complex values win; a matrix literal is real or complex.
% Joins whose parts are blocks of consecutive elements (stacks, `vertcat`, `horzcat`
% of vecs) run over one linear index and take gathers and reshapes as parts.
% ==
% options { --fuse-min 0 }
% stdout {
% [ [1,2,3,7,8],
%   [4,5,6,9,10] ][ [1,2,3],
%   [4,5,6],
%   [0,-1,-2] ]
% [ [1,2,3],
%   [4,5,6],
%   [11,12,13],
%   [14,15,16] ][ [1,2,3,7,8,1,2,3],
%   [4,5,6,9,10,4,5,6] ]
% [2,3,2][ [2,4,6],
%   [8,10,12] ][2,3,1,2]
% [1.5,2,3,4,5][ [1.5,2,3],
%   [1.5,2,3] ][ [1.5,2,3],
%   [3,4,6] ]
% [ [ [1,2,3],
%     [4,5,6] ],
%   [ [2,4,6],
%     [8,10,12] ] ][ [2.5,3,4],
%   [4,5,7] ]
% [ [2,4,6,11,13],
%   [5,7,9,13,15] ][ [1,2,3],
%   [8,10,12],
%   [3,6,9],
%   [16,20,24] ]
% [ [1,2,3,2,1],
%   [4,5,6,5,4] ][ [1,2,3,7,8],
%   [4,5,6,9,10],
%   [1,2,3,7,8],
%   [4,5,6,9,10] ]
% 1106[21,34]
% [ [1,1,1],
%   [2,2,2] ][4,1][2,2,1]
% [2,1,3][ [ [1,2,3],
%     [1,2,3] ],
%   [ [2,4,6],
%     [2,4,6] ] ]
% [ [1,2,3],
%   [4,5,6] ][1,0][2,0]
% [2,3][1.5,2,3]
% vec[int][1,2,3,1,2,3]mat[ [1,2,3],
%   [1,2,3] ]
% vec[uint8][1,2,255,0]
% vec[int64][5000000000,1,2,3]
% [1,2,3,0.5,2]vec
% [1.5-1.5i,2-2i,3-3i,4+0i,5+0i][ [1.5-1.5i,2-2i,3-3i],
%   [1.5+1.5i,2+2i,3+3i] ]cvec
% [ [2.1213202,2.828427,4.2426405],
%   [2.1213202,2.828427,4.2426405] ]
% [7.5,8,9]
% [ [1,2,3],
%   [4,5,6],
%   [2,4,6],
%   [8,10,12],
%   [4,4,4],
%   [10,10,10] ][ [7.5,8,9,7.5,8,9],
%   [4,5,7.5,8,9,4] ][7.5,8,9,3.5,0.5,2.5,1,2,3,4,5,6]
% [ [1,2,3,4,5,6],
%   [2,4,6,8,10,12] ][ [1,2,3],
%   [8,10,12],
%   [3,6,9],
%   [16,20,24] ]42
% }
A = [[1, 2, 3], [4, 5, 6]]
B = [[7, 8], [9, 10]]
print horzcat(A, B), vertcat(A, [[0, -1, -2]])
print cat(0, A, A + 10), cat(1, A, B, A)
print size(cat(2, A, A * 2)), cat(2, A, A * 2)[:, :, 1], size(cat(3, A, A))
v = [1.5, 2, 3]
w = [4, 5]
print horzcat(v, w), vertcat(v, v), cat(0, v, 2 * v)
print [A, A * 2], [v, 2 * v] + 1
print horzcat(A, B) + [1, 2, 3, 4, 5], cat(0, A, A) .* transpose([1, 2, 3, 4])
print horzcat(A[:, 0..1], fliplr(A)), horzcat(vertcat(A, A), vertcat(B, B))
print sum(horzcat(A, B) .* 2), max(vertcat(A, -A)), sum(cat(1, A, B), 1)
c = [[1], [2]]
print horzcat(c, c, c), size(vertcat(c, c)), size([c, c])
t = zeros(1, 1, 3)
t[0, 0, :] = [1, 2, 3]
print size(cat(0, t, t)), cat(0, t, 2 * t) + zeros(2, 2, 3)
print horzcat(A, zeros(2, 0)), size(horzcat(zeros(0), zeros(0))), size([zeros(0), zeros(0)])
print size(vertcat(zeros(0, 3), A)), cat(1, zeros(0), v)
x = int([1, 2, 3])
print type(cat(1, x, x)), cat(1, x, x), type([x, x]), [x, x]
print type(cat(1, uint8([1, 2]), int([300, -5]))), cat(1, uint8([1, 2]), int([300, -5]))
print type(cat(1, int64([5000000000]), x)), cat(1, int64([5000000000]), x)
print cat(1, x, [0.5, 2]), type(cat(1, x, [0.5, 2]))
z = complex(v, -v)
print cat(1, z, w), [z, conj(z)], type(horzcat(z, z))
print abs(vertcat(z, complex(v, v)))
for k = 1..3
    v = horzcat(v, v)[0..2] + k
end
print v
lut = [0.5, 1.5, 2.5, 3.5]
i = int([3, 0, 2])
print vertcat(vertcat(A, A * 2), fliplr(A) + A), vertcat(horzcat(v, v), horzcat(w, v, w[0])), horzcat(v, lut[i], reshape(A, 6))
print [A[:], reshape(A, 6) * 2], vertcat(A, A) .* transpose([1, 2, 3, 4]), sum([A, A])
