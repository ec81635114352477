% imwrite of a uint16 array writes a 16-bit PNG or TIFF with its values unchanged;
% imread reads 16-bit files scaled to 0..255 (v * 255 / 65535) without rounding, so
% 65535 v / 255 gives the stored values back.
% ==
% tolerance { 1e-6 }
% stdout {
% [2,3,1]
% [ [0,1,1000],
%   [32768,65534,65535] ]
% [2,3,3]
% [ [0,1,1000],
%   [32768,65534,65535] ]
% 1
% }
v = uint16([[0, 1, 1000], [32768, 65534, 65535]])
imwrite("png16_roundtrip.png", v)
a = imread("png16_roundtrip.png")
print size(a)
print round(a[:, :, 0] * 65535 / 255)
rgb = uint16(zeros(2, 3, 3))
rgb[:, :, 2] = v
imwrite("png16_roundtrip.tif", rgb)
b = imread("png16_roundtrip.tif")
print size(b)
print round(b[:, :, 2] * 65535 / 255)
print max(b[:, :, 0]) == 0
