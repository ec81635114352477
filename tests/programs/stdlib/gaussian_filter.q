% imfilter.q's gaussian_filter in its three call shapes: (x, sigma, n, mode),
% (x, sigma, n) with clamped borders, and (x, sigma) with n = 2 ceil(3 sigma) + 1.
% Reference: NumPy; taps g = exp(-(k - (n-1)/2)^2 / (2 sigma^2)) normalised, a row
% correlation then a column correlation on x padded by Quasar's mirror rule
% (n = |n| mod 2N; n >= N -> 2N-1-n) or np.pad(mode="edge") for clamped.
% ==
% tolerance { 1e-4 }
% stdout {
% [ [1.78881,1.9503,2.767,3.77244,4.00381],
%   [2.43034,2.4716,3.00792,3.61389,3.53805],
%   [3.43527,3.53594,3.85456,3.63951,2.88857],
%   [3.35751,3.94972,4.78682,4.2206,2.93727] ]
% [ [1.30663,1.69337,2.8076,4.1458,4.56861],
%   [2.95598,2.09383,2.70452,3.89759,3.49903],
%   [4.60942,3.71441,3.87524,3.59029,2.29869],
%   [2.41099,3.88834,5.65665,4.73739,2.54563] ]
% [ [1.18129,1.82225,2.84405,4.20499,4.73578],
%   [2.42495,0.949913,1.9311,5.31902,3.33489],
%   [6.88425,3.9432,3.91703,2.90704,1.49588],
%   [1.18889,3.35267,6.88095,5.39371,2.28712] ]
% 1
% }
import "imfilter.q"
x = [[1, 2, 3, 4, 5], [2, 0, 1, 7, 3], [9, 4, 4, 2, 1], [0, 3, 8, 6, 2]]
print gaussian_filter(x, 1.0, 5, "mirror")
print gaussian_filter(x, 0.8, 3)
print gaussian_filter(x, 0.5)
% a constant image stays constant in every mode but zero
print abs(mean(gaussian_filter(ones(6, 7), 1.5, 0, "circular")) - 1) < 1e-5
