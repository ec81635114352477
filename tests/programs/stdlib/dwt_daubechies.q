% multirestransforms.q: build_dwt(filter, J) gives the orthogonal 2-D DWT and its
% inverse as functions: db2 with 2 levels on an 8x8 mat (every coefficient), db8 with 2
% levels on 16x16 (two corners), a filter given as a vec (Haar, 3 levels) on each slice
% of a cube; S_H(S(x)) = x and the energy is kept.
% Reference: NumPy. The Daubechies filters by spectral factorisation (roots of
% sum C(N-1+k, k) y^k, minimum phase, times (1 + z)^N, scaled to sum sqrt(2); db2 checked
% against its closed form), and each level as the matrix product W_m B W_n^T of the
% periodic analysis matrices W[j, mod(2j + k, n)] += h[k], W[n/2 + j, ...] += g[k],
% g[k] = (-1)^k h[L-1-k], on the top-left block B.
% ==
% tolerance { 1e-4 }
% stdout {
% [ [21.775571,17.981761,-0.760577,2.541827,0.184215,1.375,6.13814,-3.739823],
%   [17.38128,23.111388,-0.81911,-0.669672,2.197355,1.375,-5.13157,2.279887],
%   [-1.402324,2.295713,-0.119321,0.318479,0.871715,-4.44407,-1.375,-4.614823],
%   [5.500561,-6.967507,0.318479,-2.636068,0.503285,0.6875,0.36843,4.82476],
%   [-2.565785,1.375,1.375,-3.940785,3.4375,-7.14471,2.38157,3.06907],
%   [2.934215,6.13814,-5.13157,-2.934215,0.6875,2.38157,-4.125,-5.45064],
%   [3.621715,5.81907,3.38814,0.184215,0.503285,1.190785,0.36843,-2.0625],
%   [-1.558893,0.888462,2.832532,-0.92524,6.641425,2.565785,1.375,-3.31907] ]
% 1 1
% [41.137645,38.881189,40.667935,37.217232] [-0.53203,6.583725,10.660754,6.550689]
% 1 1
% [36.125,-3.5,0.75,5]
% 1
% }
import "multirestransforms.q"
x = zeros(8, 8)
for i = 0..7
    for j = 0..7
        x[i, j] = mod(3 * i + 5 * j + i * j, 11)
    end
end
[S, S_H] = build_dwt("db2", 2)
w = S(x)
print w
print max(abs(S_H(w) - x)) < 1e-4, " ", abs(sum(w .^ 2) - sum(x .^ 2)) < 1e-2
y = zeros(16, 16)
for i = 0..15
    for j = 0..15
        y[i, j] = mod(7 * i + 3 * j + 2 * i * j, 17)
    end
end
[D, D_H] = build_dwt("db8", 2)
v = D(y)
print v[0, 0..3], " ", v[15, 12..15]
print max(abs(D_H(v) - y)) < 1e-3, " ", abs(sum(v .^ 2) - sum(y .^ 2)) / sum(y .^ 2) < 1e-5
c = zeros(8, 8, 2)
c[:, :, 0] = y[0..7, 0..7]
c[:, :, 1] = 0.5 * y[0..7, 0..7]
[H, H_H] = build_dwt([1, 1] / sqrt(2), 3)
wc = H(c)
print wc[0, 0..3, 1]
print max(abs(H_H(wc) - c)) < 1e-4
