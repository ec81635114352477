% A filter table is a 2-row (or 4-row) mat: a vec of taps is refused with the name of
% the function.
% ==
% error: <blazar>/dtcwt\.q:[0-9]+:[0-9]+: error: dtcwt2d: a filter table is a 2-row \(or 4-row\) mat such as filtercoeff_farras
import "dtcwt.q"
w = dtcwt2d(ones(8, 8), db8, filtercoeff_dualfilt, 2)
