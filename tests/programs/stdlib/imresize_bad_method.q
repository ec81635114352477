% imresize.q reports an unknown interpolation method by name.
% ==
% error: imresize: unknown method bicubic \(use nearest or bilinear\)
import "imresize.q"
print imresize(ones(3, 3), 2, "bicubic")
