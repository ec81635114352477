% dtcwt.q: dtcwt2d with the Farras first-stage and dual-tree later-stage filters, two
% levels on a 16x16 mat: the complex M x N x 2 coefficients (a row of each image), the
% tight frame (energy kept), idtcwt2d inverting it, and build_dtcwt's pair (3 levels).
% Reference: NumPy, each of the four trees as matrix products W_m B W_n^T per level with
% the periodic analysis matrices of the reversed filters (W[j, mod(2j + k, n)] +=
% h[L-1-k], W[n/2 + j, ...] += g[L-1-k]; stage 1 filtercoeff_farras, then
% filtercoeff_dualfilt; columns tree a, rows tree b), combined as
% ((hh - gg) + i (gh + hg)) / (2 sqrt(2)) and ((hh + gg) + i (gh - hg)) / (2 sqrt(2)).
% ==
% tolerance { 1e-4 }
% stdout {
% ccube [16,16,2]
% [-1.410819+23.027966i,0.384157+17.551548i,-0.121105+27.288434i,1.762775+21.832723i]
% [2.306066+0.368171i,-0.368171+1.201456i,1.744105-0.376408i,2.312425-0.165561i]
% 1 1
% 1
% }
import "dtcwt.q"
x = zeros(16, 16)
for i = 0..15
    for j = 0..15
        x[i, j] = mod(7 * i + 3 * j + 2 * i * j, 17)
    end
end
w1 = filtercoeff_farras()
w2 = filtercoeff_dualfilt()
w = dtcwt2d(x, w1, w2, 2)
print type(w), " ", size(w)
print w[0, 0..3, 0]
print w[5, 9..12, 1]
print max(abs(idtcwt2d(w, w1, w2, 2) - x)) < 1e-3, " ", _
    abs(sum(abs(w) .^ 2) - sum(x .^ 2)) / sum(x .^ 2) < 1e-5
[S, S_H] = build_dtcwt(w1, w2, 3)
print max(abs(S_H(S(x)) - x)) < 1e-3
