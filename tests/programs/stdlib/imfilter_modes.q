% imfilter.q: correlation of a mat with a 2x3 kernel of origin [0, 1] in every boundary
% mode, the two-argument form (centred origin, zero borders), and a cube (each channel
% filtered alone). Reference: NumPy, x padded by P with np.pad modes wrap / edge /
% constant for circular / clamped / zero and, for mirror, indexed through Quasar's rule
% (n = |n| mod 2N; n >= N -> 2N-1-n), then the correlation sum written out
% (y[i,j] = sum h[m,n] xp[P+i+m-c0, P+j+n-c1]).
% ==
% tolerance { 1e-4 }
% stdout {
% [ [2,8,28,13,20],
%   [7,10,4,16,15],
%   [31,38,22,8,8],
%   [12,27,29,20,14] ]
% [ [5,8,28,13,17],
%   [10,10,4,16,39],
%   [28,38,22,8,2],
%   [7,13,28,31,8] ]
% [ [1,8,28,13,20],
%   [9,10,4,16,15],
%   [36,38,22,8,8],
%   [9,27,29,20,14] ]
% [ [0,8,28,13,11],
%   [7,10,4,16,12],
%   [27,38,22,8,2],
%   [0,6,19,20,10] ]
% [ [0.75,1.1875,2.0625,3.125,2.5625],
%   [2.125,2.1875,2.75,3.8125,2.75],
%   [3.1875,3.6875,3.875,3.625,1.9375],
%   [1.75,3.0625,4,3.3125,1.5] ]
% [4,5,2]
% [ [15,21,61,31,39],
%   [25,25,13,37,83],
%   [61,81,49,21,9],
%   [19,31,61,67,21] ]
% }
import "imfilter.q"
x = [[1, 2, 3, 4, 5], [2, 0, 1, 7, 3], [9, 4, 4, 2, 1], [0, 3, 8, 6, 2]]
h = [[1, 2, 0], [0, -1, 3]]
print imfilter(x, h, [0, 1], "mirror")
print imfilter(x, h, [0, 1], "circular")
print imfilter(x, h, [0, 1], "clamped")
print imfilter(x, h, [0, 1], "zero")
print imfilter(x, [[1, 2, 1], [2, 4, 2], [1, 2, 1]] / 16)
c = zeros(4, 5, 2)
c[:, :, 0] = x
c[:, :, 1] = 2 * x + 1
y = imfilter(c, h, [0, 1], "circular")
print size(y)
print y[:, :, 1]
