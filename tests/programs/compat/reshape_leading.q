% `reshape` keeps leading singleton dimensions: `reshape(img, [1, M, N])` is a 1×M×N
% cube and `[nz, ny, nx] = size(c)` gets three values; trailing ones drop
% (`reshape(v, [4, 1, 1])` is a 4×1 mat).
% ==
% stdout {
% 1 2 3
% cube[int]
% [4,1]
% mat[int]
% [1,6]
% }
img = reshape(0..5, [2, 3])
c = reshape(img, [1, 2, 3])
[nz, ny, nx] = size(c)
print nz, " ", ny, " ", nx
print type(c)
m = reshape(0..3, [4, 1, 1])
print size(m)
print type(m)
print size(reshape(c, [1, 6]))
