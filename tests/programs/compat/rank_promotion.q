% Rank promotion: a lower-rank array is accepted where a higher rank is declared, in
% host functions and kernels (a vec is a 1×N mat, a mat an M×N×1 cube; the array is
% shared, not copied), and `[M, N, C] = size(img)` of a matrix gives C = 1. A kernel's
% `x : vec` accepts any array, read in linear order.
% ==
% stdout {
% 3 4 1
% [1,5]
% 66
% [ [0,-1,-2,-3],
%   [-4,-5,-6,-7],
%   [-8,-9,-10,-11] ]
% [0,2,4,6,8,10,12,14]
% 0
% }
function y = channels(x : cube)
  [M, N, C] = size(x)
  print M, " ", N, " ", C
  y = 0
  for m = 0..M - 1
    for n = 0..N - 1
      for c = 0..C - 1
        y += x[m, n, c]
      end
    end
  end
end
function s = rowsize(x : mat)
  s = size(x)
end
gray = reshape(0..11, [3, 4]) + 0.0
total = channels(gray)
print rowsize(ones(5))
print total
function [] = __kernel__ negate(x : cube, pos : ivec3)
  x[pos] = -x[pos[0], pos[1], 0] + x[pos[0], pos[1], 1]
end
parallel_do(size(gray), gray, negate)
print gray
function [] = __kernel__ twice(x : vec, y : vec, pos : int)
  y[pos] = 2 * x[pos]
end
c = reshape(0..7, [2, 2, 2]) + 0.0
out = zeros(8)
parallel_do(numel(c), c, out, twice)
print out
function [] = __kernel__ first(x : mat, y : vec, pos : int)
  y[pos] = x[0, pos] - x[1, pos]
end
v = [1, 2, 3]
w = zeros(3)
parallel_do(3, v + 0.0, w, first)
print sum(w - [1, 2, 3])
