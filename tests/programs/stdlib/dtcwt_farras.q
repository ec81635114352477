% dtcwt.q: dtcwt2d with the constant tables filtercoeff_farras (first stage) and
% filtercoeff_dualfilt (later stages), two levels on a 16x16 mat, in the published
% layout w[j][r, c][d] (level j, tree pair (r, c), subband d) with w[J][a, b] the
% lowpass images; the tight frame (energy kept), idtcwt2d inverting it; three levels
% with Selesnick's common-factor filters filtercoeff_selcw[3, 1] (K = 4, L = 2).
% Reference: NumPy (written for this test), each of the four trees of x / 2 as matrix
% products B <- W_m B W_n^T per level on the top-left block, W[j, mod(2j + k, n)] +=
% h[L-1-k] and W[n/2 + j, ...] += g[L-1-k] (g the alternating flip of the lowpass h
% of the tree), columns with tree a and rows with tree b; subbands of level j cut from
% the block's quarters and combined as (T00 +- T11) / sqrt(2), (T01 +- T10) / sqrt(2).
% The selcw filters from the same script's design (Thiran allpass, minimum-phase
% spectral factor).
% ==
% tolerance { 1e-4 }
% stdout {
% 3 4 3 [4,4] [4,4]
% [6.18555,-0.592539,1.28496,2.84569]
% [2.39922,-2.55278,-0.043153,2.50061]
% [0.875908,1.41129,3.81697,-1.15831]
% [ [15.2378,13.3734],
%   [15.549,11.4268] ]
% 1 1
% [ [-2.2428,1.51385],
%   [-0.08132,-1.22005] ]
% 1
% }
import "dtcwt.q"
x = zeros(16, 16)
for i = 0..15
    for j = 0..15
        x[i, j] = mod(7 * i + 3 * j + 2 * i * j, 17)
    end
end
w = dtcwt2d(x, filtercoeff_farras, filtercoeff_dualfilt, 2)
print numel(w), " ", numel(w[0]), " ", numel(w[0][1, 0]), " ", size(w[1][0, 1][2]), " ", _
    size(w[2][1, 1])
print w[0][0, 0][0][0, 0..3]
print w[0][1, 0][2][5, 2..5]
print w[1][0, 1][1][3, 0..3]
print w[2][1, 1][0..1, 0..1]
e = 0.0
for b = lincell(w)
    e += sum(b .^ 2)
end
print max(abs(idtcwt2d(w, filtercoeff_farras, filtercoeff_dualfilt, 2) - x)) < 1e-3, " ", _
    abs(e - sum(x .^ 2)) / sum(x .^ 2) < 1e-5
w3 = dtcwt2d(x, filtercoeff_farras, filtercoeff_selcw[3, 1], 3)
print w3[2][1, 0][1][0..1, 0..1]
[S, S_H] = build_dtcwt(filtercoeff_farras, filtercoeff_selcw[3, 1], 3)
print max(abs(S_H(S(x)) - x)) < 1e-3
