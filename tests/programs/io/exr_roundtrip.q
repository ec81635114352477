% exrwrite / exrread keep float values (HDR: above 1 and below 0 included) exactly at
% 32 bits; a mat is stored as gray in all three channels. The object has data, width
% and height.
% ==
% stdout {
% 4 2 [2,4,3]
% 1
% [ [0.25,0.25,0.25],
%   [1000,1000,1000] ]
% }
x = zeros(2, 4, 3)
x[0, :, 0] = [0, 0.5, 1, 2.5]
x[1, :, 1] = [-0.25, 0.001, 7, 65504]
x[:, :, 2] = 0.125
exrwrite("exr_roundtrip.exr", x)
img = exrread("exr_roundtrip.exr")
print img.width, " ", img.height, " ", size(img.data)
print max(abs(img.data - x)) == 0
exrwrite("exr_roundtrip.exr", [[0.25, 1000]])
g = exrread("exr_roundtrip.exr")
print reshape(g.data, [2, 3])
