% imshow (default range 0..255, an explicit [lo, hi], or [] for min..max) returns a
% figure handle; h.rasterize() gives the shown pixels as a cube[uint8]; the figures are
% written when the run ends, as <program>_figure<k>[_<title>].png, and listed.
% Expected pixels: round(255 * (x - lo) / (hi - lo)) clamped to 0..255.
% ==
% stdout {
% 1 2 3
% cube[uint8] [2,2,3]
% [ [0,255],
%   [128,255] ]
% [ [0,255],
%   [128,255] ]
% [ [0,255],
%   [0,255] ]
% [ [0,255],
%   [128,255] ]
% figure 1: wrote imshow_file_figure1_scaled_0_1.png
% figure 2: wrote imshow_file_figure2.png
% figure 3: wrote imshow_file_figure3_threshold.png
% figure 4: wrote imshow_file_figure4.png
% }
x = [[0, 1], [0.5, 1]]
h1 = imshow(x, [0, 1])
title("scaled 0..1")
h2 = imshow(255 * x)
h3 = imshow(x, [0.5, 1])
title("threshold")
print h1.number, " ", h2.number, " ", h3.number
a = h1.rasterize()
print type(a), " ", size(a)
print a[:, :, 1]
print rasterize(h2)[:, :, 0]
print h3.rasterize()[:, :, 2]
b = imshow(x, []).rasterize()
print b[:, :, 0]
