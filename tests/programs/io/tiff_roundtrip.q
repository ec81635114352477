% imwrite then imread of a TIFF gives back the exact pixels.
% ==
% stdout {
% [2,3,3]
% 0
% 200
% }
img = zeros(2, 3, 3)
img[0, 0, :] = [200, 100, 50]
img[1, 2, :] = [1, 2, 3]
img[1, 0, 1] = 255
imwrite("tiff_roundtrip_out.tif", img)
back = imread("tiff_roundtrip_out.tif")
print size(back)
print max(abs(back - img))
print back[0, 0, 0]
