% imshow (default range 0..255, or an explicit [lo, hi]) writes <program>_imshow<N>.png next to the program; the file can be read back.
% ==
% stdout {
% imshow: wrote imshow_file_imshow0.png
% imshow: wrote imshow_file_imshow1.png
% [2,2,1]
% 0 255
% 128
% 1
% }
x = [[0, 1], [0.5, 1]]
imshow(x, [0, 1])
imshow(255 * x)
y = imread("imshow_file_imshow0.png")
print size(y)
print min(y), " ", max(y)
print y[1, 0, 0]
print sum(imread("imshow_file_imshow1.png") == y) == 4
