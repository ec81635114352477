% imread(path, "raw") keeps the stored samples in their type, as MATLAB's imread:
% 16-bit files give a cube[uint16] of 0..65535, 8-bit files a cube[uint8]; without the
% option 16-bit files are scaled to 0..255 as before. The fixtures were written byte by
% byte by scripts/png16_fixture.py (zlib + struct, not Blazar's image crate); the
% expected values are the ones that script stores. The TIFF is Blazar's own 16-bit
% imwrite, read back unchanged.
% ==
% stdout {
% cube[uint16] [3,4,1]
% [ [0,1,255,256],
%   [1000,4095,32768,40000],
%   [65534,65535,12345,7] ]
% cube[uint16] [2,3,3]
% [ [65535,0,0],
%   [1,30000,256] ]
% [ [0,0,65535],
%   [3,50000,1024] ]
% 255 1
% cube[uint8] [2,2,3] [10,20,30]
% [7,65535,40000]
% }
g = imread("imread_raw_fixture_gray16.png", "raw")
print type(g), " ", size(g)
print g[:, :, 0]
c = imread("imread_raw_fixture_rgb16.png", "raw")
print type(c), " ", size(c)
print c[:, :, 0]
print c[:, :, 2]
s = imread("imread_raw_fixture_gray16.png")
print s[2, 1, 0], " ", abs(s[1, 2, 0] - 32768 * 255 / 65535) < 1e-3
x = zeros(2, 2, 3)
x[:, :, 0] = 10
x[:, :, 1] = 20
x[:, :, 2] = 30
imwrite("imread_raw_8bit.png", x)
b = imread("imread_raw_8bit.png", "raw")
print type(b), " ", size(b), " ", [b[1, 1, 0], b[1, 1, 1], b[1, 1, 2]]
t = uint16(zeros(1, 3))
t[0, 0] = 7
t[0, 1] = 65535
t[0, 2] = 40000
imwrite("imread_raw_16bit.tif", t)
r = imread("imread_raw_16bit.tif", "raw")
print [r[0, 0, 0], r[0, 1, 0], r[0, 2, 0]]
