% immedfilt.q: median of the 3x3 and 5x5 windows with clamped borders, on a mat and on
% each channel of a cube. Reference: NumPy, np.median over windows of
% np.pad(x, r, mode="edge").
% ==
% stdout {
% [ [5,5,3,6,3,2],
%   [5,4,4,5,5,4],
%   [6,4,4,4,4,4],
%   [4,5,7,5,4,4],
%   [4,5,7,5,3,3] ]
% [ [5,5,5,4,4,3],
%   [5,5,5,3,4,3],
%   [5,5,5,4,4,4],
%   [4,5,5,5,5,6],
%   [4,5,5,5,5,6] ]
% [ [95,95,97,94,97,98],
%   [95,96,96,95,95,96],
%   [94,96,96,96,96,96],
%   [96,95,93,95,96,96],
%   [96,95,93,95,97,97] ]
% 1
% }
import "immedfilt.q"
x = [[5, 1, 9, 3, 7, 2], [8, 0, 4, 6, 1, 9], [2, 7, 3, 8, 5, 4], [6, 2, 9, 1, 0, 3], _
    [4, 8, 5, 7, 2, 6]]
print immedfilt(x, 1)
print immedfilt(x, 2)
c = zeros(5, 6, 2)
c[:, :, 0] = x
c[:, :, 1] = 100 - x
y = immedfilt(c, 1)
print y[:, :, 1]
% radius 0 is the identity
print sum(abs(immedfilt(x, 0) - x)) == 0
