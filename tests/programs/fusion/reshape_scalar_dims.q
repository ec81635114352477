% `reshape(x, dims)` whose dims are scalars (a row literal or separate arguments) is a
% view made without building the dims array: ints, reals with integer values, typed
% ints, expressions, one dim, unit dims; dims held in a variable, or not all scalars,
% take the builtin as before. Writes through the view are seen through the name.
% ==
% options { --fuse-min 0 }
% stdout {
% [2,3][2,3][1,6][1,6][3,1,2][2,3][2,3]
% [ [7,1,2],
%   [3,4,5] ]
% }
x = [[0, 1, 2], [3, 4, 5]]
M = 2
N = 1.5
d = [3, 2]
r = reshape(x, [M, 2 * N])
s = reshape(x, M, 3.0)
t = reshape(x, [6])
u = reshape(x, 1, int32(6))
v = reshape(x, [3, 1, M])
w = reshape(reshape(x, d), [M, 3])
y = reshape(x, [int64(2), uint8(3)])
print size(r), size(s), size(t), size(u), size(v), size(w), size(y)
r[0, 0] = 7
print x
