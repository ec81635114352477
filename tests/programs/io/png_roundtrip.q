% imwrite then imread of a PNG gives back the exact pixels (grayscale and colour).
% ==
% stdout {
% [4,6,1]
% 0
% [3,5,3]
% 0
% 255
% }
img = zeros(4, 6)
for r = 0..3
    for c = 0..5
        img[r, c] = 10 * r + 40 * c
    end
end
imwrite("png_roundtrip_gray.png", img)
back = imread("png_roundtrip_gray.png")
print size(back)
print max(abs(back[:, :, 0] - img))
rgb = zeros(3, 5, 3)
rgb[:, :, 0] = 255
rgb[1, 2, 1] = 128
rgb[2, 4, 2] = 7
imwrite("png_roundtrip_rgb.png", rgb)
back2 = imread("png_roundtrip_rgb.png")
print size(back2)
print max(abs(back2 - rgb))
print back2[0, 0, 0]
