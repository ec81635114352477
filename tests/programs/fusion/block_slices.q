% Slices that are runs of whole rows (`x[a..b, :, :]`, a band `x[a..b, c..d, :]`, a
% channel, one row) are copied on the host block by block; a transpose, whose view
% reads the dimensions in another order, stays a kernel. With every array fused, each
% result equals the host's, and writing to a slice leaves its source unchanged.
% ==
% options { --fuse-min 0 }
% stdout {
% [500,600] 7 599 3
% [600,500] 303000 7
% [1,500,3] 10500
% [598,391,3] 708492
% [3,500,3] 13500 7 1
% 1 0
% }
A = zeros(600, 500)
for i = 0..599
    A[i, :] = i
endfor
T = transpose(A)
print size(T), " ", T[3, 7], " ", T[499, 599], " ", T[7, 3]
x = zeros(600, 500, 3) + 1
x[5, :, :] = 7
u = x[:, :, 1]
print size(u), " ", sum(u), " ", u[5, 3]
w = x[5, :, :]
print size(w), " ", sum(w)
v = x[1..598, 10..400, :]
print size(v), " ", sum(v)
r = x[4..6, :, :]
print size(r), " ", sum(r), " ", max(r), " ", min(r)
r[0, 0, 0] = 0
print x[4, 0, 0], " ", r[0, 0, 0]
