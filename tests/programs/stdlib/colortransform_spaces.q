% colortransform.q: rgb2gray, rgb2ycbcr, rgb2hsv on a 2x3 colour image, hsv2rgb of known
% colours, the round trips ycbcr2rgb(rgb2ycbcr(x)) and hsv2rgb(rgb2hsv(x)), and rgb2lab
% (with white) and its round trip through lab2rgb.
% Reference: NumPy (0.299 R + 0.587 G + 0.114 B; x @ T' + [16, 128, 128] with MATLAB's
% Rec. 601 matrix T / 255) and Python's colorsys.rgb_to_hsv / hsv_to_rgb on x / 255,
% value scaled back by 255. rgb2lab: NumPy of the sRGB curve, the IEC matrix M, white =
% M's row sums and the CIE f(t) (cube root above (6/29)^3); a grey pixel's a and b are 0
% (NumPy gives -1e-14 for one of them).
% ==
% tolerance { 1e-4 }
% stdout {
% [ [76.245,123.81,40],
%   [0,99.6,157.182] ]
% [ [81.481,122.331,50.3529],
%   [16,101.539,150.992] ]
% [ [90.203,81.4958,128],
%   [128,202.558,81.8069] ]
% [ [240,56.6917,128],
%   [128,140.782,186.156] ]
% [ [0,0.350877,0],
%   [0,0.719298,0.0573477] ]
% [ [1,0.95,0],
%   [0,0.76,0.744] ]
% [ [255,200,40],
%   [0,250,250] ]
% [ [200,160,100],
%   [0,100,100],
%   [255,191.25,229.5] ]
% 1
% 1
% [ [53.2329,70.5018,16.1144],
%   [0,44.4144,100] ]
% [ [80.1053,-70.5181,0],
%   [0,66.7117,0] ]
% [ [67.2228,64.9454,0],
%   [0,-84.7445,0] ]
% 1
% }
import "colortransform.q"
x = zeros(2, 3, 3)
x[0, 0, :] = [255, 0, 0]
x[0, 1, :] = [10, 200, 30]
x[0, 2, :] = [40, 40, 40]
x[1, 1, :] = [120, 60, 250]
x[1, 2, :] = [250, 128, 64]
print rgb2gray(x)
ycc = rgb2ycbcr(x)
print ycc[:, :, 0]
print ycc[:, :, 1]
print ycc[:, :, 2]
hsv = rgb2hsv(x)
print hsv[:, :, 0]
print hsv[:, :, 1]
print hsv[:, :, 2]
h = zeros(3, 1, 3)
h[0, 0, :] = [0.1, 0.5, 200]
h[1, 0, :] = [0.5, 1, 100]
h[2, 0, :] = [0.9, 0.25, 255]
print reshape(hsv2rgb(h), [3, 3])
print max(abs(ycbcr2rgb(ycc) - x)) < 1e-3
print max(abs(hsv2rgb(hsv) - x)) < 1e-3
x[1, 2, :] = [255, 255, 255]
lab = rgb2lab(x)
print lab[:, :, 0]
print lab[:, :, 1]
print lab[:, :, 2]
print max(abs(lab2rgb(lab) - x)) < 1e-2
