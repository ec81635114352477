% imboundary_extend names its boundary modes.
% ==
% error: <blazar>/imboundary\.q:[0-9]+:[0-9]+: error: imboundary_extend: unknown boundary mode reflect \(use mirror, circular, clamped or zero\)
import "imboundary.q"
y = imboundary_extend(ones(4, 4), 1, "reflect")
