% imresize.q: nearest and bilinear enlargement by 2, shrinking to a given [rows, cols],
% a non-integer factor (1.5: ceil(1.5 * size) pixels) and a cube keeping its channels.
% Reference: NumPy loops of s = (d + 0.5) / scale - 0.5; nearest takes floor(s + 0.5)
% clamped, bilinear interpolates between floor(s) and floor(s) + 1 with s clamped to
% [0, size - 1].
% ==
% tolerance { 1e-4 }
% stdout {
% [ [1,1,2,2,3,3,4,4],
%   [1,1,2,2,3,3,4,4],
%   [5,5,6,6,7,7,8,8],
%   [5,5,6,6,7,7,8,8],
%   [9,9,10,10,11,11,13,13],
%   [9,9,10,10,11,11,13,13] ]
% [ [1,1.25,1.75,2.25,2.75,3.25,3.75,4],
%   [2,2.25,2.75,3.25,3.75,4.25,4.75,5],
%   [4,4.25,4.75,5.25,5.75,6.25,6.75,7],
%   [6,6.25,6.75,7.25,7.75,8.3125,8.9375,9.25],
%   [8,8.25,8.75,9.25,9.75,10.4375,11.3125,11.75],
%   [9,9.25,9.75,10.25,10.75,11.5,12.5,13] ]
% [ [2.16667,3.5,4.83333],
%   [8.16667,9.5,11.4583] ]
% [ [1,3,4],
%   [9,11,13] ]
% [ [1,1.5,2.16667,2.83333,3.5,4],
%   [3,3.5,4.16667,4.83333,5.5,6],
%   [5.66667,6.16667,6.83333,7.5,8.25,8.83333],
%   [8.33333,8.83333,9.5,10.1667,11.25,12.1667],
%   [9,9.5,10.1667,10.8333,12,13] ]
% [6,8,2]
% [ [2.16667,3.5,4.83333],
%   [8.16667,9.5,11.4583] ]
% }
import "imresize.q"
x = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 13]]
print imresize(x, 2, "nearest")
print imresize(x, 2, "bilinear")
print imresize(x, [2, 3], "bilinear")
print imresize(x, [2, 3], "nearest")
print imresize(x, 1.5)
c = zeros(3, 4, 2)
c[:, :, 0] = 10 - x
c[:, :, 1] = x
print size(imresize(c, 2, "nearest"))
y = imresize(c, [2, 3])
print y[:, :, 1]
