% imwrite then imread of a JPEG gives back the pixels approximately (lossy format).
% ==
% stdout {
% [16,16,3]
% 1
% }
img = zeros(16, 16, 3)
for r = 0..15
    for c = 0..15
        img[r, c, :] = [100 + 4 * r, 80 + 2 * c, 120]
    end
end
imwrite("jpeg_roundtrip_out.jpg", img)
back = imread("jpeg_roundtrip_out.jpg")
print size(back)
print mean(abs(back - img)) < 8
