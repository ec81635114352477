% dtcwt.q: the 3-D dual-tree transform of a whole 8x8x8 volume, two levels, Farras then
% q-shift filters: four coefficient cubes of the volume's size, a tight frame, and
% idtcwt3d_untiled inverting it. Thresholding every coefficient outside the lowpass
% corner (as published denoising code does, in place through b[k]) then inverting
% keeps the corner's information.
% Reference: NumPy (written for this test): each tree of x / 2 level by level on the
% top-left block, the periodic analysis matrices of build_dwt applied along dimension
% 0, then 1, then 2 (tree choices (1,1,1), (1,2,2), (2,1,2), (2,2,1)), combined by
% 0.5 [[1,-1,-1,-1], [1,-1,1,1], [1,1,-1,1], [1,1,1,-1]].
% ==
% tolerance { 1e-4 }
% stdout {
% 4 [8,8,8]
% [-20.5797,-17.3367,0.565709,2.31958]
% [0.899292,-1.20964,3.38571,0.482998]
% [-5.87124,0.603148,3.72796,0.639746]
% [-0.246207,0.614553,-0.666356,0.368238]
% 1 1
% 1
% }
import "dtcwt.q"
x = zeros(8, 8, 8)
for i = 0..7
    for j = 0..7
        for k = 0..7
            x[i, j, k] = mod(5 * i + 3 * j + 7 * k + i * j * k, 11)
        end
    end
end
b = dtcwt3d_untiled(x, filtercoeff_farras, filtercoeff_dualfilt, 2)
print numel(b), " ", size(b[3])
print reshape(b[0][0, 0, 0..3], [4])
print reshape(b[1][3, 5, 0..3], [4])
print reshape(b[2][6, 1, 4..7], [4])
print reshape(b[3][7, 7, 0..3], [4])
e = sum(b[0] .^ 2) + sum(b[1] .^ 2) + sum(b[2] .^ 2) + sum(b[3] .^ 2)
y = idtcwt3d_untiled(b, filtercoeff_farras, filtercoeff_dualfilt, 2)
print max(abs(y - x)) < 1e-3, " ", abs(e - sum(x .^ 2)) / sum(x .^ 2) < 1e-5
for k = 0..3
    band = b[k]
    for m = 0..7
        for n = 0..7
            for l = 0..7
                if m >= 2 || n >= 2 || l >= 2
                    band[m, n, l] = 0
                end
            end
        end
    end
end
z = idtcwt3d_untiled(b, filtercoeff_farras, filtercoeff_dualfilt, 2)
print abs(mean(z) - mean(x)) < 1e-3
