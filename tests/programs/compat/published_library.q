% Written in the style of published Quasar denoising and registration code (never
% copied from it): the wavelet names come in through multirestransforms.q, imported by
% the author's absolute Windows path; dual-tree coefficients are thresholded in place
% through w[j][r, c][i] with the filter tables filtercoeff_farras and
% filtercoeff_selcw[3, 1]; a BLS-style loop over lincell of several transforms
% (db8 DWT, dual tree, steerable pyramid, shearlet frame) built as [S, S_H] pairs;
% coloured CT noise; a patch found back by block search; a mirrored border; a plugin's
% display calls that never run; a tile position given as a vec where ivec2 is declared
% and an output declared mat that holds a cube on the way.
% Reference for the denoised values: NumPy re-implementation of the dual tree (see
% stdlib/dtcwt_farras.q) with soft thresholding at 0.05.
% ==
% tolerance { 1e-4 }
% stdout {
% [2,10] [2,12] [1,16]
% mse 0.0039996 0.000925756
% [1.04649,0.917161,0.785679,0.643906]
% transforms 1 1 1 1
% noise [32,32,3] 1
% found [6,3]
% border 1 1
% tile 2
% }
import "D:\Users\someone\Quasar\Library\multirestransforms.q"
import "colored_noise.q"
import "parallelblocks.q"
import "imboundary.q"
import "Quasar.UI.dll"

function y = __device__ soft_thresh(w, T)
    y = sign(w) .* max(abs(w) - T, 0)
end

function img_den : mat = wav_denoise(img : mat, J : int, w1, w2, T : scalar)
    w = dtcwt2d(img, w1, w2, J)
    for j = 0..J - 1
        for r = 0..1
            for c = 0..1
                for i = 0..2
                    w[j][r, c][i] = soft_thresh(w[j][r, c][i], T)
                end
            end
        end
    end
    img_den = idtcwt2d(w, w1, w2, J)
end

function ok = roundtrip(S, S_H, x)
    w = S(x)
    bands = lincell(w)
    % shrink every band but the last (the lowpass of these layouts) in place
    for k = 0..numel(bands) - 2
        b = bands[k]
        b[:, :] = b * 1.0
    end
    ok = max(abs(S_H(w) - x)) < 1e-3
end

function v : mat = tile(img : cube, at : ivec2)
    v = img[at[0]..at[0] + 1, at[1]..at[1] + 1, :]
    v = sum(v, 2)
end

[I, Jx] = meshgrid(0..31, 0..31)
img = sin(Jx / 5) + cos(I / 7)
noisy = img + 0.1 * (mod(Jx * 7 + I * 13, 11) - 5) / 5
print size(filtercoeff_farras), " ", size(filtercoeff_selcw[3, 1]), " ", size(db8)
den = wav_denoise(noisy, 3, filtercoeff_farras, filtercoeff_selcw[3, 1], 0.05)
print "mse ", mean((noisy - img) .^ 2), " ", mean((den - img) .^ 2)
print den[10, 10..13]

sz = size(noisy)
[S1, S1_H] = build_dwt(db8, 2)
[S2, S2_H] = build_dtcwt(filtercoeff_farras, filtercoeff_dualfilt, 2)
[S3, S3_H] = build_stp(sz, 4, 2)
[S4, S4_H] = build_energyweighted_dst2d(sz, 4, 2)
print "transforms ", max(abs(S1_H(S1(noisy)) - noisy)) < 1e-3, " ", roundtrip(S2, S2_H, noisy), _
    " ", roundtrip(S3, S3_H, noisy), " ", roundtrip(S4, S4_H, noisy)

PS = generate_psd(sz, psd_ct_ramp_spectrum_noise, 1, 0)
n = cgn_rand([sz[0], sz[1], 3], PS)
print "noise ", size(n), " ", abs(mean(n .^ 2) - 1) < 0.3

patch = 200 * ones(2, 5)
scene = zeros(10, 20)
scene[6..7, 3..7] = patch
scene = scene + mod(reshape(0..199, [10, 20]) * 7, 5) / 10
mad = zeros(7, 13)
for y = 1..7
    for x = 1..13
        mad[y - 1, x - 1] = sum(abs(scene[y..y + 1, x..x + 4] - patch))
    end
end
pos = ind2pos(size(mad), find_index_min(mad)) + [1, 1]
print "found ", pos

framed = imboundary_extend(noisy, [3, 4], "mirror")
print "border ", max(abs(imboundary_crop(framed, [3, 4]) - noisy)) == 0, " ", _
    framed[2, 4] == noisy[1, 0]

show = false
if show
    frm = form("denoising")
    frm.show()
end
print "tile ", tile(ones(4, 4, 2), [1.0, 2.0])[0, 0]
