% `:` inside kernel code is the whole extent of that dimension, known at the launch: a
% short fixed-length vector, for reads and writes. The kernel is compiled for the
% extents it is launched with.
% ==
% stdout {
% [ [1,2.5,4,5.5],
%   [7,8.5,10,11.5] ]
% [ [1,2.5,4,5.5],
%   [7,8.5,10,11.5] ]
% [ [2,4],
%   [6,8],
%   [10,12] ]
% [ [0,0,0,0,0],
%   [1,1,1,1,1] ]
% }
function [] = __kernel__ tone(x : cube, y : cube, ratio : scalar, pos : ivec2)
  m = max(x[pos[0], pos[1], :])
  y[pos[0], pos[1], :] = m * ratio
end
x = reshape(0..23, [2, 4, 3]) + 0.0
y = zeros(2, 4, 3)
parallel_do([2, 4], x, y, 0.5, tone)
print y[:, :, 0]
print y[:, :, 2]
function [] = __kernel__ double_rows(a : mat, b : mat, pos : int)
  b[pos, :] = 2 * a[pos, :]
end
a = [[1, 2], [3, 4], [5, 6]]
b = zeros(3, 2)
parallel_do(3, a, b, double_rows)
print b
function [] = __kernel__ fill(z : mat, pos : int)
  z[pos, :] = pos
end
z = zeros(2, 5)
parallel_do(2, z, fill)
print z
