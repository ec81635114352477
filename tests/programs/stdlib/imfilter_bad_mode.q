% imfilter.q reports an unknown boundary mode by name.
% ==
% error: imfilter: unknown boundary mode reflect \(use mirror, circular, clamped or zero\)
import "imfilter.q"
print imfilter(ones(3, 3), ones(3, 3), [1, 1], "reflect")
