% imboundary.q: a 2x3 image given a border of [top 1, bottom 2, left 2, right 1] in each
% mode; the mirror border follows Quasar's mirror_ext (-1 reads 1, N reads N-1, as
% kernels read 'mirror arrays); crop undoes extend; each slice of a cube is extended.
% Reference: NumPy's np.pad with modes "wrap", "edge" and "constant"; for "mirror",
% x[m(i - 1), m(j - 2)] with m(i) = -i for i < 0, 2N - 1 - i for i >= N.
% ==
% stdout {
% [ [6,5,4,5,6,6],
%   [3,2,1,2,3,3],
%   [6,5,4,5,6,6],
%   [6,5,4,5,6,6],
%   [3,2,1,2,3,3] ]
% [ [5,6,4,5,6,4],
%   [2,3,1,2,3,1],
%   [5,6,4,5,6,4],
%   [2,3,1,2,3,1],
%   [5,6,4,5,6,4] ]
% [ [1,1,1,2,3,3],
%   [1,1,1,2,3,3],
%   [4,4,4,5,6,6],
%   [4,4,4,5,6,6],
%   [4,4,4,5,6,6] ]
% [ [0,0,0,0,0,0],
%   [0,0,1,2,3,0],
%   [0,0,4,5,6,0],
%   [0,0,0,0,0,0],
%   [0,0,0,0,0,0] ]
% 1 [7,7,2] 1
% 5 3
% }
import "imboundary.q"
x = [[1, 2, 3], [4, 5, 6]]
print imboundary_extend(x, [1, 2, 2, 1], "mirror")
print imboundary_extend(x, [1, 2, 2, 1], "circular")
print imboundary_extend(x, [1, 2, 2, 1], "clamped")
print imboundary_extend(x, [1, 2, 2, 1], "zero")
c = zeros(3, 3, 2)
c[:, :, 0] = reshape(0..8, [3, 3])
c[:, :, 1] = 10 + reshape(0..8, [3, 3])
e = imboundary_extend(c, 2)
print max(abs(imboundary_crop(imboundary_extend(x, [2, 3]), [2, 3]) - x)) == 0, " ", _
    size(e), " ", e[0, 0, 1] == c[2, 2, 1]
print imboundary_read(x, -1, 4, "mirror"), " ", imboundary_read(x, 2, -1, "circular")
