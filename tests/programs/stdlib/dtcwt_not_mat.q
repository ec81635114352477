% dtcwt2d takes a mat whose sides are divisible by 2^J.
% ==
% error: <blazar>/dtcwt\.q:[0-9]+:[0-9]+: error: dtcwt2d: the transform takes a mat
import "dtcwt.q"
w = dtcwt2d(ones(8, 8, 3), filtercoeff_farras, filtercoeff_dualfilt, 2)
