% Statements that only move the elements of host arrays are copied on the host, no
% kernel: `repmat` (tiles along rows and columns, a matrix into channels, a vec, ints),
% a stack `[x, y]` and `cat`/`horzcat`/`vertcat` of whole arrays, large ones over
% several threads. Each result equals the host's element rule, bit for bit (NaN,
% -0 through `1 / v`); joins of expressions, views and conversions stay kernels.
% ==
% options { --fuse-min 0 }
% stdout {
% [5,7,3] NaN -Inf 46 25
% [15,14] 32 NaN -Inf 0
% [ [1,2,3,1,2,3,1,2,3],
%   [1,2,3,1,2,3,1,2,3] ]
% [4,3,2] 0 cube[int16]
% [2,2,3,5] 128 28
% [2,3,10] 127 27
% [5,14] 47 -Inf
% [10,7] 0 -46 0
% [5,7] 46
% [3,9] 21 mat[uint8]
% [700,500,3] 366975008 699 3
% [2,1400,500] 245350000 350.5 1
% [700,500,5] 611625024 650
% [700,500,6] 733950016 650 3
% [1400,500] 244650000 300
% }
g = zeros(5, 7)
% Tiles of a matrix into channels, along rows and columns, of a vec, of ints.
for i = 0..4
    for j = 0..6
        g[i, j] = 10 * i + j
    endfor
endfor
g[1, 2] = -0.0
g[3, 4] = 0/0
r = repmat(g, [1, 1, 3])
print size(r), " ", r[3, 4, 2], " ", 1 / r[1, 2, 1], " ", r[4, 6, 0], " ", r[2, 5, 2]
t = repmat(g, [3, 2])
print size(t), " ", t[13, 9], " ", t[8, 11], " ", 1 / t[11, 2], " ", t[13, 4] == t[13, 4]
v = repmat([1, 2, 3], [2, 3])
print v
n = repmat(int16(g[0..1, 0..2]), [2, 1, 2])
print size(n), " ", n[3, 2, 1], " ", type(n)
% Stacks and concatenations of whole arrays.
x = reshape(0..29, [2, 3, 5]) * 1.0
y = x + 100
s = [x, y]
print size(s), " ", s[1, 1, 2, 3], " ", s[0, 1, 2, 3]
c = cat(2, x, y)
print size(c), " ", c[1, 2, 7], " ", c[1, 2, 2]
h = horzcat(g, g + 1)
print size(h), " ", h[4, 13], " ", 1 / h[1, 2]
w = vertcat(g, -g)
print size(w), " ", w[6, 2], " ", w[9, 6], " ", w[8, 4] == w[8, 4]
e = cat(0, zeros(0, 7), g)
print size(e), " ", e[4, 6]
k = cat(1, uint8(g[0..2, :]), uint8(g[0..2, 0..1]))
print size(k), " ", k[2, 8], " ", type(k)
% Large arrays, copied over threads; each element as the host computes it.
G = zeros(700, 500)
for i = 0..699
    G[i, :] = i
endfor
R = repmat(G, [1, 1, 3])
print size(R), " ", sum(R), " ", R[699, 499, 2], " ", R[3, 7, 1]
X = repmat(G, [2, 1]) * 0.5
Y = X + 1
S = [X, Y]
print size(S), " ", sum(S), " ", S[1, 1399, 0], " ", S[0, 2, 3]
C = cat(2, R, R[:, :, 0..1])
print size(C), " ", sum(C), " ", C[650, 5, 4]
D = cat(2, R, R)
print size(D), " ", sum(D), " ", D[650, 5, 4], " ", D[3, 499, 5]
V = vertcat(G, G)
print size(V), " ", sum(V), " ", V[1000, 3]
