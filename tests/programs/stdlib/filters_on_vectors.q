% The image modules on a vec (a 1 x N image): imfilter (zero and mirror borders),
% gaussian_filter (clamped), immedfilt, and imresize (a 1 x 6 row enlarged by 2 is
% 2 x 12, as in MATLAB; shrunk by 0.5 it is 1 x 3). Reference: NumPy, the same formulas
% as the mat goldens on a single row (np.pad zero / edge, Quasar's mirror rule
% n = |n| mod 2N, n >= N -> 2N-1-n; np.median; the pixel-centre resampling loops).
% ==
% tolerance { 1e-4 }
% stdout {
% [-2,-2,-2,-6,4,9]
% [14,20,38,22,9,27]
% [1.36335,2.0806,3.19386,4.61308,4.73048,2.40765]
% [1,2,3,4,4,0]
% [ [1,1,2,2,3,3,4,4,9,9,0,0],
%   [1,1,2,2,3,3,4,4,9,9,0,0] ]
% [ [1,1.25,1.75,2.25,2.75,3.25,3.75,5.25,7.75,6.75,2.25,0],
%   [1,1.25,1.75,2.25,2.75,3.25,3.75,5.25,7.75,6.75,2.25,0] ]
% [1.4375,3.25,4.8125]
% }
import "imfilter.q"
import "immedfilt.q"
import "imresize.q"
v = [1, 2, 3, 4, 9, 0]
print imfilter(v, [1, 0, -1])
print imfilter(v, [1, 2, 3], [0, 0], "mirror")
print gaussian_filter(v, 1)
print immedfilt(v, 1)
print imresize(v, 2, "nearest")
print imresize(v, 2, "bilinear")
print imresize(v, 0.5, "bicubic")
