% colortransform.q: csdecodeRec709 and csdecodeRec2020 (RGB in [0, 255] -> CIE XYZ) of a
% 2x3 colour image with white, and csencodeSRGB (XYZ -> sRGB in [0, 255]) of the Rec. 709
% result (same primaries, so only the transfer curve changes: white and grey stay, pure
% red stays pure red).
% Reference: NumPy. The RGB -> XYZ matrices were derived from the primaries and the D65
% white (P = columns [x/y, 1, (1-x-y)/y], scaled by solve(P, white)); the curves decoded
% as where(v < 4.5 beta, v/4.5, ((v + alpha - 1)/alpha)^(1/0.45)) on v = x/255; the sRGB
% encoding 255 * where(l <= 0.0031308, 12.92 l, 1.055 l^(1/2.4) - 0.055) of
% inv(M709) @ xyz. Values near 0 (1e-14 in NumPy) are written as 0.
% ==
% tolerance { 1e-4 }
% stdout {
% [ [0.412391,0.228536,0.037264],
%   [0.950456,0.29452,0.503914] ]
% [ [0.212639,0.443915,0.039206],
%   [1,0.169511,0.396981] ]
% [ [0.019331,0.099268,0.042698],
%   [1.089058,0.926208,0.124492] ]
% [ [0.636958,0.099145,0.037337],
%   [0.950456,0.320473,0.663117] ]
% [ [0.2627,0.421193,0.039284],
%   [1,0.166206,0.434443] ]
% [ [0,0.046089,0.042782],
%   [1.089058,1.021385,0.09089] ]
% [ [255,23.262421,55.74845],
%   [255,132.360957,250.552768] ]
% [ [0,205.7298,55.74845],
%   [255,75.34881,139.8116] ]
% [ [0,45.78697,55.74845],
%   [255,250.5528,79.22526] ]
% }
import "colortransform.q"
x = zeros(2, 3, 3)
x[0, 0, :] = [255, 0, 0]
x[0, 1, :] = [10, 200, 30]
x[0, 2, :] = [40, 40, 40]
x[1, 0, :] = [255, 255, 255]
x[1, 1, :] = [120, 60, 250]
x[1, 2, :] = [250, 128, 64]
a = csdecodeRec709(x)
b = csdecodeRec2020(x)
print a[:, :, 0]
print a[:, :, 1]
print a[:, :, 2]
print b[:, :, 0]
print b[:, :, 1]
print b[:, :, 2]
s = csencodeSRGB(a)
print s[:, :, 0]
print s[:, :, 1]
print s[:, :, 2]
